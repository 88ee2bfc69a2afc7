// End-to-end, the lobby and a game's life around play (issue 41): what the first screen leads
// with, each system's usual map, one rematch when both players press it, a forgotten game
// against the computer abandoned from My games, compressed scripts.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browser, gameId, newPlayer, screenshot, selectRules, server, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

const PHONE = { viewport: { width: 390, height: 844 }, device: { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } };

/** Top of an element on the page, in CSS pixels, once the lobby has drawn it (lists arrive
 * after the first paint, later on a loaded machine). */
async function top(page, selector) {
  await page.waitForSelector(selector, { state: 'attached' });
  return page.$eval(selector, (e) => e.getBoundingClientRect().top + window.scrollY);
}

describe('the lobby', { timeout: 300_000 }, () => {
  test('leads with play and the game lists, and each system brings its usual map', async () => {
    for (const [name, size] of [['desktop', {}], ['phone', PHONE]]) {
      const p = await newPlayer(browser, server.url, size.viewport, size.device);
      // A newcomer: play buttons first, then games to join or watch, the new-game form last.
      const hero = await top(p.page, '#quick-play');
      const open = await top(p.page, '#open-games');
      const form = await top(p.page, '#create-form');
      assert.ok(hero < open && open < form, `${name}: play, then lists, then the form (${hero}, ${open}, ${form})`);
      await screenshot(p.page, `lobby-first-visit-${name}`);
      await selectRules(p.page, /^Classic Go/);
      assert.equal(await p.page.inputValue('#map-spec'), 'square:19', 'classic Go on 19×19');
      await selectRules(p.page, /^The Way of Go/);
      assert.equal(await p.page.inputValue('#map-spec'), 'square:13', 'The Way of Go on its fast board');
      // A map the player typed stays when they change the rules.
      await p.page.fill('#map-spec', 'torus:9');
      await selectRules(p.page, /^Classic Go/);
      assert.equal(await p.page.inputValue('#map-spec'), 'torus:9');
      await p.context.close();
    }
  });

  test('a player with games sees them first; a game against bots is abandoned from My games', async () => {
    const a = await newPlayer(browser, server.url);
    await a.page.click('#first-game');
    await a.page.waitForURL(/#\/game\/\d+/);
    const id = gameId(a.page);
    await a.page.waitForSelector('#players tbody tr');
    await a.page.click('text=Lobby');
    const row = `#my-games li[data-game="${id}"]`;
    await a.page.waitForSelector(row);
    assert.ok((await top(a.page, '#my-games')) < (await top(a.page, '#open-games')), 'my games come first');
    await screenshot(a.page, 'lobby-my-games');
    a.page.once('dialog', (d) => d.accept());
    await a.page.click(`${row} button.abandon`);
    await a.page.waitForSelector(row, { state: 'detached' });
    await a.page.goto(`${server.url}/#/game/${id}`);
    await a.page.waitForFunction(() => /abandoned/.test(document.querySelector('#status')?.textContent ?? ''));
    // Back in the lobby, it is listed as abandoned, with nothing to abandon.
    await a.page.click('text=Lobby');
    await a.page.waitForSelector(row);
    assert.match((await a.page.textContent(row)) ?? '', /abandoned/);
    assert.equal(await a.page.$(`${row} button.abandon`), null);
    await a.context.close();
  });

  test('both players pressing Rematch at once meet in one game', async () => {
    const a = await newPlayer(browser, server.url);
    await selectRules(a.page, /^Classic Go/);
    await a.page.fill('#map-spec', 'square:5');
    await a.page.selectOption('select[name="seat-1"]', 'invite');
    await a.page.click('#create');
    await a.page.waitForURL(/#\/game\/\d+/);
    const link = await (await a.page.waitForSelector('#invite-link')).inputValue();
    const b = await newPlayer(browser, server.url);
    await b.page.goto(link);
    await b.page.click('#join-button');
    await b.page.waitForSelector('#resign:not([disabled])');
    b.page.once('dialog', (d) => d.accept());
    await b.page.click('#resign');
    for (const p of [a, b]) await p.page.waitForSelector('#rematch');
    const old = gameId(a.page);
    await Promise.all([a.page.click('#rematch'), b.page.click('#rematch')]);
    // Whoever pressed second lands in the first one's game, at the seat kept for them.
    const late = async (p) => {
      await p.page.waitForFunction((old) => /#\/game\/\d+/.test(location.hash) && !location.hash.startsWith(`#/game/${old}`), old);
      const seated = await p.page.evaluate(async (name) => {
        const id = location.hash.match(/#\/game\/(\d+)/)[1];
        return (await (await fetch(`/api/games/${id}`)).json()).seats.some((s) => s.user === name);
      }, p.name);
      if (!seated) await p.page.click('#join-button');
      return p.page;
    };
    const [pa, pb] = await Promise.all([late(a), late(b)]);
    assert.equal(gameId(pa), gameId(pb), 'one rematch');
    for (const page of [pa, pb]) {
      await page.waitForFunction(() => /Your turn|to play/.test(document.querySelector('#status')?.textContent ?? ''), null, { timeout: 20_000 });
    }
    const seats = await pa.evaluate(async (id) => (await (await fetch(`/api/games/${id}`)).json()).seats.map((s) => s.user), gameId(pa));
    assert.ok(seats.includes(a.name) && seats.includes(b.name), `both seated: ${seats}`);
    for (const p of [a, b]) await p.context.close();
  });

  test('scripts arrive compressed', async () => {
    const a = await newPlayer(browser, server.url);
    const encodings = await a.page.evaluate(() =>
      performance.getEntriesByType('resource').filter((r) => /\/assets\/.*\.js$/.test(r.name)).map((r) => [r.name, r.encodedBodySize, r.decodedBodySize]),
    );
    assert.ok(encodings.length > 0);
    for (const [name, encoded, decoded] of encodings) assert.ok(encoded * 2 < decoded, `${name}: ${encoded} of ${decoded} bytes on the wire`);
    await a.context.close();
  });
});
