// End-to-end, the review of a finished game (issue 43): variations played on the board and walked
// (buttons and keys), a comment seen by a second account, the computer's review (graph, marks)
// for classic 9×9, GoBeyond with 3 players and Tribal Go, the free board from a position, and the
// exports. Finished games come from bot series records (`gobeyond match --record-dir`) imported
// with the test hook `POST /api/test/games`.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { binary, browser, newPlayer, register, screenshot, server, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

const PHONE = { viewport: { width: 390, height: 844 }, device: { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } };
const dirs = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** One finished bot game's record: `gobeyond match` with random bots (fast, and they blunder). */
function botRecord(rules, map, seats) {
  const dir = mkdtempSync(join(tmpdir(), 'gobeyond-records-'));
  dirs.push(dir);
  const bots = Array.from({ length: seats }, () => ['--bot', 'random']).flat();
  execFileSync(binary, ['match', ...bots, '--rules', rules, '--map', map, '--games', '1', '--record-dir', dir, '--threads', '1'], { stdio: 'ignore' });
  const file = readdirSync(dir).find((f) => f.endsWith('.json'));
  return JSON.parse(readFileSync(join(dir, file), 'utf8'));
}

/** The record stored as a finished game, `name` in the first seat and bots in the others. */
async function importGame(page, record, name) {
  const seats = record.players.map((_, i) => (i === 0 ? name : null));
  // The events are derived from the actions (docs/formats.md), and JavaScript writes a score of
  // 81.0 back as 81, which the replay's check would call a difference.
  record = { ...record, events: undefined };
  const r = await page.evaluate(async (body) => {
    const res = await fetch('/api/test/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.text() };
  }, { record, seats });
  assert.equal(r.status, 200, r.body);
  return JSON.parse(r.body).id;
}

async function openReview(page, id) {
  await page.goto(`${server.url}/#/review/${id}`);
  await page.waitForFunction(() => / \/ \d+$/.test(document.querySelector('#where')?.textContent ?? ''));
}

const whereText = (page) => page.textContent('#where');
async function waitWhere(page, re) {
  await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('#where')?.textContent ?? ''), re.source);
}

/** An empty node of the position after `at` actions of game `id`. */
async function emptyNode(page, id, at) {
  return page.evaluate(async ([id, at]) => {
    const r = await (await fetch(`/api/games/${id}/state?at=${at}`)).json();
    return r.state.board.findIndex((s) => s === null);
  }, [id, at]);
}

describe('the review of a finished game', { timeout: 600_000 }, () => {
  test('a variation played on the board and walked, with the keys and the move list, on desktop and phone', async () => {
    const record = botRecord('classic', 'square:9', 2);
    for (const [size, opts] of [['desktop', {}], ['phone', PHONE]]) {
      const p = await newPlayer(browser, server.url, opts.viewport, opts.device);
      const name = `var${size}`;
      await register(p, name);
      const id = await importGame(p.page, record, name);
      await openReview(p.page, id);
      const total = record.actions.length;
      assert.equal(await whereText(p.page), `${total} / ${total}`);
      await p.page.keyboard.press('Home');
      await waitWhere(p.page, /^0 \//);
      for (let i = 0; i < 3; i++) await p.page.keyboard.press('ArrowRight');
      await waitWhere(p.page, /^3 \//);
      // A move of the player to play, from the 3rd position: a branch, shown as the current node.
      const node = await emptyNode(p.page, id, 3);
      await p.page.click(`svg.board2d .hit[data-node="${node}"]`);
      await waitWhere(p.page, /^4 \/ \d+ · variation$/);
      await p.page.waitForSelector('#moves .move.variation.current');
      assert.ok(await p.page.$(`svg.board2d .stone[data-stone="${node}"]`), 'the variation\'s stone is on the board');
      await screenshot(p.page, `review-variation-${size}`);
      // Back to the branch point, on along the main line, then ↓ into the branch and ↑ out.
      await p.page.keyboard.press('ArrowLeft');
      await waitWhere(p.page, /^3 \/ \d+$/);
      await p.page.keyboard.press('ArrowRight');
      await waitWhere(p.page, /^4 \/ \d+$/);
      await p.page.keyboard.press('ArrowDown');
      await waitWhere(p.page, /variation$/);
      await p.page.keyboard.press('ArrowUp');
      await waitWhere(p.page, /^4 \/ \d+$/);
      // The move list: the branch's move is a button; End goes to the main line's end.
      await p.page.click('#moves .move.variation');
      await waitWhere(p.page, /variation$/);
      await p.page.click('#moves .move:not(.variation)');
      await waitWhere(p.page, /^1 \/ \d+$/);
      await p.page.keyboard.press('End');
      await waitWhere(p.page, new RegExp(`^${total} / ${total}$`));
      // An occupied point is refused with the engine's reason.
      await p.page.keyboard.press('Home');
      await waitWhere(p.page, /^0 \//);
      await p.page.keyboard.press('ArrowRight');
      await waitWhere(p.page, /^1 \//);
      await p.page.click(`svg.board2d .hit[data-node="${record.actions[0].node}"]`);
      await p.page.waitForFunction(() => document.querySelector('#toast')?.className.includes('error') && /occupied/i.test(document.querySelector('#toast')?.textContent ?? ''));
      await p.context.close();
    }
  });

  test('a comment written in one browser is read in another (another account), on a map in space, in dark mode', async () => {
    const record = botRecord('gobeyond', 'cube:3', 3);
    const a = await newPlayer(browser, server.url);
    await register(a, 'commenter');
    const id = await importGame(a.page, record, 'commenter');
    const b = await newPlayer(browser, server.url, PHONE.viewport, { ...PHONE.device, colorScheme: 'dark' });
    await register(b, 'reader');
    await openReview(a.page, id);
    await openReview(b.page, id);
    await a.page.fill('#comment-text', 'Here the third seat lost the corner.');
    await a.page.click('#comment-send');
    await a.page.waitForFunction(() => /third seat/.test(document.querySelector('#comment-list')?.textContent ?? ''));
    // The second browser polls the tree: the comment arrives without a reload.
    await b.page.waitForFunction(() => /third seat lost the corner/.test(document.querySelector('#comment-list')?.textContent ?? ''), null, { timeout: 30_000 });
    assert.match((await b.page.textContent('#comment-list')) ?? '', /commenter/);
    assert.ok(await b.page.$('#moves .has-comment'), 'the move list shows which node has comments');
    await b.page.waitForSelector('#board canvas');
    await screenshot(b.page, 'review-comment-phone-dark');
    await b.page.click('#moves .move.current');
    await screenshot(b.page, 'review-comment-phone-dark-moves');
    for (const p of [a, b]) await p.context.close();
  });

  for (const [label, rules, map, seats] of [
    ['classic 9×9', 'classic', 'square:9', 2],
    ['GoBeyond with 3 players', 'gobeyond', 'hex:3', 3],
    ['Tribal Go (cards known after the game)', 'tribal', 'square:7', 2],
  ]) {
    test(`the computer reviews ${label}: progress, a line per seat, marks on the moves`, async () => {
      const record = botRecord(rules, map, seats);
      const p = await newPlayer(browser, server.url);
      const name = `cr${rules}`;
      await register(p, name);
      const id = await importGame(p.page, record, name);
      await openReview(p.page, id);
      await p.page.waitForFunction(() => /not reviewed/.test(document.querySelector('#review-progress')?.textContent ?? ''));
      await p.page.selectOption('#review-playouts', '50');
      await p.page.click('#review-request');
      await p.page.waitForSelector('#value-graph polyline.seat-line', { timeout: 120_000 });
      await p.page.waitForFunction(() => document.querySelector('#review-progress')?.dataset.state === 'done', null, { timeout: 500_000 });
      assert.equal(await p.page.locator('#value-graph polyline.seat-line').count(), seats, 'one line per seat');
      const status = await p.page.evaluate(async (id) => (await fetch(`/api/games/${id}/review?playouts=50`)).json(), id);
      const marked = status.moves.filter((m) => m.mark).length;
      assert.equal(await p.page.locator('#moves .move .mark').count(), marked, 'each marked move is marked in the list');
      // A click on the graph goes to that position; the computer's choice is written out.
      const box = await p.page.locator('#value-graph').boundingBox();
      await p.page.mouse.click(box.x + box.width * 0.25, box.y + box.height / 2);
      await p.page.waitForFunction((t) => {
        const at = Number(document.querySelector('#where')?.textContent?.split(' /')[0]);
        return at > 0 && at < t;
      }, record.actions.length);
      if (rules === 'classic') {
        // Classic Go marks no claims in mid-game: the diamonds are the computer's ownership,
        // gone when switched off.
        await p.page.waitForFunction(() => document.querySelectorAll('svg.board2d .claims path').length > 0);
        await p.page.waitForFunction(() => /Computer's choice/.test(document.querySelector('#best-move')?.textContent ?? ''));
        // The best move has a ring of its own (not a start point's) saying what it is.
        await p.page.waitForFunction(() => /: best move: .+, value \d+% for /.test(document.querySelector('svg.board2d .starts .best title')?.textContent ?? ''));
        assert.equal(await p.page.$('svg.board2d .starts .start'), null, 'no start-point mark in a classic review');
        await p.page.uncheck('#show-ownership');
        await p.page.waitForFunction(() => document.querySelectorAll('svg.board2d .claims path').length === 0);
        await p.page.check('#show-ownership');
      }
      await screenshot(p.page, `review-computer-${rules}`);
      await p.page.setViewportSize(PHONE.viewport);
      await screenshot(p.page, `review-computer-${rules}-phone`);
      await p.context.close();
    });
  }

  test('"Analyse from here" opens the free board; a move is played there; the exports carry the tree', async () => {
    const record = botRecord('classic', 'square:9', 2);
    const p = await newPlayer(browser, server.url);
    await register(p, 'analyst');
    const id = await importGame(p.page, record, 'analyst');
    await openReview(p.page, id);
    await p.page.keyboard.press('Home');
    await waitWhere(p.page, /^0 \//);
    await p.page.keyboard.press('ArrowRight');
    await p.page.keyboard.press('ArrowRight');
    await waitWhere(p.page, /^2 \//);
    const node = await emptyNode(p.page, id, 2);
    await p.page.click(`svg.board2d .hit[data-node="${node}"]`);
    await waitWhere(p.page, /variation$/);
    // A comment on the variation's move: SGF carries it as C[] on the branch's node.
    await p.page.fill('#comment-text', 'A calmer [idea] here.');
    await p.page.click('#comment-send');
    await p.page.waitForFunction(() => /calmer/.test(document.querySelector('#comment-list')?.textContent ?? ''));
    await p.page.click('#analyse-here');
    await p.page.waitForFunction(() => /^3 actions/.test(document.querySelector('#analyse-where')?.textContent ?? ''));
    assert.ok(await p.page.$(`svg.board2d .stone[data-stone="${node}"]`), 'the variation\'s move is on the free board');
    const free = await p.page.evaluate(() => {
      const stones = new Set([...document.querySelectorAll('svg.board2d .stone')].map((s) => Number(s.getAttribute('data-stone'))));
      return [...document.querySelectorAll('svg.board2d .hit')].map((h) => Number(h.getAttribute('data-node'))).find((n) => !stones.has(n));
    });
    await p.page.click(`svg.board2d .hit[data-node="${free}"]`);
    await p.page.waitForFunction(() => /^4 actions/.test(document.querySelector('#analyse-where')?.textContent ?? ''));
    await p.page.waitForSelector(`svg.board2d .stone[data-stone="${free}"]`);
    await screenshot(p.page, 'analyse-free-board');
    await p.page.click('#analyse-back');
    await p.page.waitForFunction(() => /^3 actions/.test(document.querySelector('#analyse-where')?.textContent ?? ''));
    // The exports: the JSON record (version 2, with the variation) and SGF with a branch.
    await p.page.click('#back-to-review');
    await p.page.waitForSelector('#export-json');
    const exported = await p.page.evaluate(async () => {
      const json = await (await fetch(document.querySelector('#export-json').getAttribute('href'))).json();
      const sgf = await (await fetch(document.querySelector('#export-sgf').getAttribute('href'))).text();
      return { json, sgf };
    });
    assert.equal(exported.json.version, 2);
    assert.equal(exported.json.variations.length, 1);
    assert.match(exported.sgf, /\(;/);
    // The variation is a branch (a '(' opening a node below the second move) with the comment,
    // its ']' escaped as SGF writes it.
    assert.match(exported.sgf, /\(\s*;[BW]\[[a-z]{2}\]C\[analyst[^:]*: A calmer \[idea\\\] here\.\]/);
    assert.ok((exported.sgf.match(/\(/g) ?? []).length >= 3, exported.sgf);
    await p.context.close();
  });
});
