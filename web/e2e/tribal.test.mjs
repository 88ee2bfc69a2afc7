// End-to-end, Tribal Go (issue 41): reaction windows that close by themselves with a countdown,
// Extra Move's second stone, the range diagram, Undo where it cannot apply.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { join } from 'node:path';
import { browser, newPlayer, screenshot, screenshots, server, stones, useServerAndBrowser, waitForLog } from './harness.mjs';

useServerAndBrowser();

const phone = [{ width: 390, height: 844 }, { hasTouch: true, isMobile: true }];

/** Creates a Tribal Go game over the API (`rigged`: the server's dice and draws, a test hook). */
async function createTribal(page, { map, rigged = [], settings = {} }) {
  const id = await page.evaluate(async ({ map, rigged, settings }) => {
    const r = await fetch('/api/games', {
      method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        rules: { system: 'tribal', ...settings }, map, players: 3, rigged,
        seats: [{ kind: 'me' }, { kind: 'bot', level: 1 }, { kind: 'bot', level: 1 }],
      }),
    });
    return (await r.json()).game.id;
  }, { map, rigged, settings });
  await page.goto(`${server.url}/#/game/${id}`);
  await page.waitForSelector('#players tbody tr');
  return id;
}

/** Clicks a node, and confirms it where the page asks (phones confirm before placing). */
async function tapNode(page, node) {
  await page.click(`svg.board2d .hit[data-node="${node}"]`);
  const confirm = await page.$('#confirm-place:not([disabled])');
  if (confirm) await confirm.click();
}

const statusIs = (page, re, timeout = 60_000) =>
  page.waitForFunction((src) => new RegExp(src).test(document.querySelector('#status')?.textContent ?? ''), re.source, { timeout });

/** Steps from `from` to every node of the map (breadth first). */
function distances(map, from) {
  const adj = Array.from({ length: map.nodes }, () => []);
  for (const [a, b] of map.edges) {
    adj[a].push(b);
    adj[b].push(a);
  }
  const d = new Array(map.nodes).fill(Infinity);
  d[from] = 0;
  const queue = [from];
  for (let i = 0; i < queue.length; i++) {
    for (const w of adj[queue[i]]) {
      if (d[w] === Infinity) {
        d[w] = d[queue[i]] + 1;
        queue.push(w);
      }
    }
  }
  return d;
}

describe('Tribal Go', () => {
  for (const [device, viewport, extra] of [['desktop', undefined, undefined], ['phone', ...phone]]) {
    test(`no clock, two bots: the windows close by themselves, with a countdown (${device})`, async () => {
      const { page, context } = await newPlayer(browser, server.url, viewport, extra);
      // The lobby's casual game as a new player makes it: no clock.
      await createTribal(page, { map: 'square:7' });
      await statusIs(page, /Choose your start point/);
      assert.ok(await page.isDisabled('#undo'), 'no Undo while choosing a start point');
      assert.ok(((await page.getAttribute('#undo', 'title')) ?? '').length > 0, 'the disabled Undo says why');
      const start = Number(await page.getAttribute('svg.board2d .starts .start.free', 'data-start'));
      await tapNode(page, start);
      let windows = 0;
      let mine = 0;
      // Several rounds: we never click anything but Roll and a stone; the bots keep moving.
      for (let step = 0; step < 200 && (mine < 3 || windows < 2); step++) {
        await page.waitForFunction(() => /roll the dice, or pass|You rolled|may reject the move until|Reject the move before|discard|put one back/
          .test(document.querySelector('#status')?.textContent ?? ''), null, { timeout: 60_000 });
        const text = (await page.textContent('#status')) ?? '';
        assert.equal(await page.$('#let-stand'), null, 'nobody is asked to let a move stand');
        if (/may reject the move until|Reject the move before/.test(text)) {
          // A window (without a Reject we are not prompted) counts down on the page. Ours
          // closes at once: only bots are left to answer, and they decide at once.
          const clock = (await page.textContent('#clock')) ?? '';
          if (/^\d s$/.test(clock)) {
            windows++;
            assert.ok(await page.isDisabled('#undo'), 'no Undo in a reaction window');
            assert.match((await page.getAttribute('#undo', 'title')) ?? '', /decide together/);
            if (windows === 1) await screenshot(page, `tribal-window-${device}`);
          }
          await page.waitForFunction((t) => document.querySelector('#status')?.textContent !== t, text, { timeout: 30_000 });
        } else if (/roll the dice, or pass/.test(text)) {
          await page.click('#roll');
          await statusIs(page, /You rolled/);
        } else if (/You rolled/.test(text)) {
          const reachable = await page.$$eval('svg.board2d .hit.reachable', (hs) => hs.map((h) => Number(h.getAttribute('data-node'))));
          const board = await stones(page);
          const v = reachable.find((n) => board[n] === undefined);
          const lines = await page.$$eval('#log li', (ls) => ls.length);
          if (v === undefined) await page.click('#forgo');
          else await tapNode(page, v);
          await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, lines);
          mine++;
        } else {
          await page.click('#actions button');
        }
      }
      assert.ok(mine >= 3 && windows >= 2, `played ${mine} turns, saw ${windows} windows counting down`);
      const log = await page.$$eval('#log li', (ls) => ls.map((l) => l.textContent ?? ''));
      assert.ok(log.some((l) => /^\d+\. .* played /.test(l)), `numbered moves:\n${log.join('\n')}`);
      await screenshot(page, `tribal-rounds-${device}`);
      const width = await page.$eval('#players', (t) => [t.scrollWidth, t.clientWidth]);
      assert.ok(width[0] <= width[1] + 1, `the players table fits its card: ${width}`);
      await context.close();
    });
  }

  test('Extra Move marks only the nodes where the card allows the second stone', async () => {
    const { page, context } = await newPlayer(browser, server.url);
    // The roll-off puts us first; our first roll is a pair (range 6) and draws Extra Move.
    const rigged = [[6, 6], [1, 2], [2, 3], [6, 6]].map((d) => ({ type: 'dice', dice: d }));
    rigged.push({ type: 'draw', card: 'extra_move' });
    const id = await createTribal(page, { map: 'square:9', rigged });
    await statusIs(page, /Choose your start point/);
    const start = Number(await page.getAttribute('svg.board2d .starts .start.free', 'data-start'));
    await page.click(`svg.board2d .hit[data-node="${start}"]`);
    await statusIs(page, /roll the dice, or pass/);
    await page.click('#roll');
    await page.waitForSelector('#card-extra_move');
    await page.click('#card-extra_move');
    await statusIs(page, /Extra Move: place 2 more stones/);
    const map = await page.evaluate(async (id) => (await fetch(`/api/games/${id}/map`)).json(), id);
    const first = (await page.$$eval('svg.board2d .hit.reachable', (hs) => hs.map((h) => Number(h.getAttribute('data-node')))))[0];
    await page.click(`svg.board2d .hit[data-node="${first}"]`);
    await statusIs(page, /Extra Move: place 1 more stone/);
    const marked = await page.$$eval('svg.board2d .hit.reachable', (hs) => hs.map((h) => Number(h.getAttribute('data-node'))));
    const d = distances(map, first);
    assert.ok(marked.length > 0, 'somewhere is left for the second stone');
    const near = marked.filter((v) => d[v] < 5);
    assert.deepEqual(near, [], 'no marked node is closer than 5 steps to the first stone');
    await screenshot(page, 'tribal-extra-move');
    await page.click(`svg.board2d .hit[data-node="${marked[0]}"]`);
    await waitForLog(page, new RegExp(`played ${map.labels[marked[0]]}`));
    await context.close();
  });

  test('the rules page marks the four points a range of 1 reaches', async () => {
    const { page, context } = await newPlayer(browser, server.url);
    await page.goto(`${server.url}/#/rules/tribal`);
    const figure = page.locator('figure.diagram', { hasText: 'With a range of 1' });
    await figure.waitFor();
    const marked = await figure.locator('.hit.reachable').evaluateAll((hs) => hs.map((h) => h.getAttribute('data-node')));
    assert.equal(marked.length, 4, `marked: ${marked}`);
    await figure.screenshot({ path: join(screenshots, 'rules-tribal-range.png') });
    await context.close();
  });
});
