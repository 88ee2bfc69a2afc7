// End-to-end, Capture Go: two people in two browsers race to the first capture; a newcomer
// reads the guide and plays the bot to the end.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browser, clickPass, gameId, newPlayer, screenshot, server, stones, useServerAndBrowser, waitForLog } from './harness.mjs';

useServerAndBrowser();

/** Chooses Capture Go in the lobby's form and creates a game on `map`; returns its id. */
async function createCaptureGame(page, map, seat) {
  const value = await page.$$eval('#rules option', (os) => os.find((o) => /^Capture Go$/.test(o.textContent ?? ''))?.value);
  assert.ok(value !== undefined, 'Capture Go is offered in the lobby');
  await page.selectOption('#rules', value);
  await page.fill('#map-spec', map);
  await page.selectOption('select[name="seat-1"]', seat);
  await page.click('#create');
  await page.waitForURL(/#\/game\/\d+/);
  await page.waitForSelector('#players tbody tr');
  return gameId(page);
}

async function place(page, node) {
  await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn.', null, { timeout: 60_000 });
  await page.click(`svg.board2d .hit[data-node="${node}"]`);
  await page.waitForSelector(`svg.board2d .stone[data-stone="${node}"]`);
}

describe('Capture Go in the browser', { timeout: 300_000 }, () => {
  test('two players: a stone in atari is explained, the first capture wins and the ranking says so', async () => {
    const a = await newPlayer(browser, server.url);
    const b = await newPlayer(browser, server.url);
    const id = await createCaptureGame(a.page, 'square:5', 'open');
    await b.page.goto(`${server.url}/#/game/${id}`);
    await b.page.click('#join-button');
    assert.match((await a.page.textContent('#rules-line')) ?? '', /first to capture 1 stone/);
    // square:5 counts nodes from the top-left: C3 = 12, A1 = 20, B1 = 21, E5 = 4, A2 = 15.
    await place(a.page, 12);
    await place(b.page, 20);
    await place(a.page, 21);
    // White's A1 has one liberty left, at A2.
    await b.page.hover('svg.board2d .hit[data-node="20"]');
    await b.page.waitForFunction(() => /A1: White.*'s stone · in atari: one liberty left/.test(document.querySelector('#hover')?.textContent ?? ''));
    await place(b.page, 4);
    await place(a.page, 15);
    await waitForLog(a.page, /Black \(.*\) played A2 and captured 1 stone of White/);
    for (const p of [a, b]) {
      await p.page.waitForSelector('#ranking');
      await p.page.waitForFunction(() => !document.querySelector('svg.board2d .stone[data-stone="20"]'));
    }
    const captures = await a.page.$$eval('#players tbody tr', (rows) => rows.map((r) => r.textContent ?? ''));
    assert.ok(captures[0].includes('1 / 1') && captures[1].includes('0 / 1'), captures.join(' | '));
    const log = await a.page.$$eval('#log li', (ls) => ls.map((l) => l.textContent ?? ''));
    assert.ok(log.some((l) => /Game over: 1\. Black/.test(l)), log.join('\n'));
    await screenshot(a.page, 'capture-end');
    // A spectator on a phone sees the same end: the ranking and the captures against the target.
    const phone = await newPlayer(browser, server.url, { width: 390, height: 844 });
    await phone.page.goto(`${server.url}/#/game/${id}`);
    await phone.page.waitForSelector('#ranking');
    // The ranking can be drawn before the players' table has its counts (a loaded machine).
    await phone.page.waitForFunction(() => /1 \/ 1/.test(document.querySelector('#players')?.textContent ?? ''), null, { timeout: 10_000 })
      .catch(() => {});
    assert.match((await phone.page.textContent('#players')) ?? '', /1 \/ 1/);
    await screenshot(phone.page, 'capture-phone');
    // The review steps through the five moves; before the last, White's A1 is still there.
    await a.page.click('#review-link');
    await a.page.waitForFunction(() => document.querySelector('#where')?.textContent === '5 / 5');
    await a.page.keyboard.press('ArrowLeft');
    await a.page.waitForFunction(() => document.querySelector('#where')?.textContent === '4 / 5');
    assert.deepEqual(await stones(a.page), { 12: 0, 20: 1, 21: 0, 4: 1 });
    for (const p of [a, b, phone]) await p.context.close();
  });

  test('a newcomer reads the guide, then plays the level-1 bot to the end of the game', async () => {
    const { page, context } = await newPlayer(browser, server.url);
    await page.goto(`${server.url}/#/rules/capture`);
    await page.waitForFunction(() => /How to play Capture Go/.test(document.querySelector('#rules-guide h1')?.textContent ?? ''));
    assert.match((await page.textContent('#rules-guide')) ?? '', /atari/i);
    assert.ok((await page.$$('#rules-guide figure.diagram svg.board2d')).length >= 4, 'diagrams');
    await screenshot(page, 'rules-capture');
    await page.goto(`${server.url}/#/`);
    await page.waitForSelector('#rules option', { state: 'attached' });
    await createCaptureGame(page, 'square:7', 'bot:1');
    // Play the first legal point each turn until the game ends (a capture, passes or the limit).
    for (let turn = 0; turn < 200 && !(await page.$('#ranking')); turn++) {
      const mine = await page
        .waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn.' || document.querySelector('#ranking'), null, { timeout: 60_000 })
        .then(() => page.$('#ranking'))
        .then((r) => r === null);
      if (!mine) break;
      const free = await page.$$eval('svg.board2d .hit', (hs) =>
        hs.map((h) => Number(h.getAttribute('data-node'))).filter((n) => !document.querySelector(`svg.board2d .stone[data-stone="${n}"]`)));
      const lines = await page.$$eval('#log li', (ls) => ls.length);
      await page.click(`svg.board2d .hit[data-node="${free[turn % free.length]}"]`);
      await page.waitForFunction(
        (n) => document.querySelectorAll('#log li').length > n || document.querySelector('#status[data-error]') || document.querySelector('#ranking'),
        lines,
      );
      if (await page.$('#status[data-error]')) await clickPass(page);
    }
    await page.waitForSelector('#ranking', { timeout: 60_000 });
    const log = await page.$$eval('#log li', (ls) => ls.map((l) => l.textContent ?? ''));
    assert.ok(log.some((l) => / captured \d+ stones? of /.test(l)) || log.some((l) => /passed/.test(l)), log.join('\n'));
    assert.ok(log.some((l) => /Game over: 1\. /.test(l)), log.join('\n'));
    await context.close();
  });
});
