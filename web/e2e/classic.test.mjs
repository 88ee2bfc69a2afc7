// End-to-end, classic Go (issue 41): two people play a 9×9 game to the dead-stone phase, see the
// territory while marking (and see it change when a group is toggled), agree, and find crossed
// dead stones, territory, the count and "W+…" on the end screen, in the lobby and in review; a
// capture's log line survives a reload; a handicap game against a bot from the lobby.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browser, clickPass, gameId, newPlayer, pass, place, screenshot, server, useServerAndBrowser, waitForLog, waitMyTurn } from './harness.mjs';

useServerAndBrowser();

/** Creates a classic game of the preset matching `preset` from the lobby's form. */
async function createClassic(page, { map, seat, preset, settings = {} }) {
  await page.waitForSelector('#rules');
  const value = await page.$$eval('#rules option', (os, re) => os.find((o) => new RegExp(re).test(o.textContent ?? ''))?.value, preset);
  assert.ok(value !== undefined, `${preset} is offered in the lobby`);
  await page.selectOption('#rules', value);
  await page.fill('#map-spec', map);
  await page.selectOption('select[name="seat-1"]', seat);
  if (Object.keys(settings).length) {
    await page.click('#create-form details summary');
    for (const [k, v] of Object.entries(settings)) await page.fill(`#create-form input[name="${k}"]`, String(v));
  }
  await page.click('#create');
  await page.waitForURL(/#\/game\/\d+/);
  await page.waitForSelector('#players tbody tr');
  return gameId(page);
}

/** Territory squares on the board, by owner's colour class. */
async function territory(page) {
  return page.$$eval('svg.board2d path.claim.territory', (els) => ({
    black: els.filter((e) => e.classList.contains('c0')).length,
    white: els.filter((e) => e.classList.contains('c1')).length,
  }));
}

const deadList = (page) => page.textContent('#dead-list');

// 9×9 nodes count from the top-left: node = (9 − row) × 9 + column (A = 0, no I).
const at = (label) => (9 - Number(label.slice(1))) * 9 + 'ABCDEFGHJ'.indexOf(label[0]);

describe('classic Go in the browser', { timeout: 600_000 }, () => {
  test('two players count a 9×9 game: territory while marking, crossed dead stones, W+15.5 on the page, in the lobby and in review', async () => {
    const a = await newPlayer(browser, server.url);
    const id = await createClassic(a.page, { map: 'square:9', seat: 'open', preset: 'japanese' });
    const b = await newPlayer(browser, server.url, { width: 390, height: 844 }, { hasTouch: true, isMobile: true });
    await b.page.goto(`${server.url}/#/game/${id}`);
    await b.page.click('#join-button');
    // Black walls column D, White column E; then Black invades at H5 and White at B5.
    // The phone confirms each placement (on by default on touch): click, then Place.
    const placeB = async (node) => {
      await waitMyTurn(b.page);
      await b.page.click(`svg.board2d .hit[data-node="${node}"]`);
      if (await b.page.isVisible('#confirm-place')) await b.page.click('#confirm-place');
      await b.page.waitForSelector(`svg.board2d .stone[data-stone="${node}"]`);
    };
    for (let row = 9; row >= 1; row--) {
      await place(a, at(`D${row}`));
      await placeB(at(`E${row}`));
    }
    await place(a, at('H5'));
    await placeB(at('B5'));
    // During play there is no score column: the count means nothing yet.
    const headers = await a.page.$$eval('#players thead th', (ths) => ths.map((t) => t.textContent));
    assert.ok(!headers.includes('Score'), headers.join(','));
    await pass(a);
    await waitMyTurn(b.page);
    await clickPass(b.page);
    // The server proposes dead stones first; then the players mark.
    await waitForLog(a.page, /Proposed/, 60_000);
    await a.page.waitForSelector('#cleanup:not([hidden]) #accept-dead');
    for (const stone of ['B5', 'H5']) {
      if (!new RegExp(stone).test((await deadList(a.page)) ?? '')) {
        await a.page.click(`svg.board2d .hit[data-node="${at(stone)}"]`);
        await a.page.waitForFunction((s) => new RegExp(s).test(document.querySelector('#dead-list')?.textContent ?? ''), stone);
      }
    }
    // Both invaders dead: A–C are Black's (26 empty points), F–J White's (35).
    await a.page.waitForFunction(() => document.querySelectorAll('svg.board2d path.claim.territory').length === 61);
    assert.deepEqual(await territory(a.page), { black: 26, white: 35 });
    assert.match((await a.page.textContent('#count-live')) ?? '', /Territory.*Captures.*Komi.*Total/);
    await screenshot(a.page, 'classic-marking');
    // White marks H5 alive again: White's side is no longer territory — on both screens.
    await b.page.click(`svg.board2d .hit[data-node="${at('H5')}"]`);
    for (const p of [a, b]) {
      await p.page.waitForFunction(() => !/H5/.test(document.querySelector('#dead-list')?.textContent ?? ''));
      await p.page.waitForFunction(() => document.querySelectorAll('svg.board2d path.claim.territory.c1').length === 0);
    }
    assert.deepEqual(await territory(b.page), { black: 26, white: 0 });
    await screenshot(b.page, 'classic-marking-phone');
    // Dead again, and both accept.
    await b.page.click(`svg.board2d .hit[data-node="${at('H5')}"]`);
    await a.page.waitForFunction(() => /H5/.test(document.querySelector('#dead-list')?.textContent ?? ''));
    await a.page.waitForFunction(() => document.querySelectorAll('svg.board2d path.claim.territory').length === 61);
    await a.page.click('#accept-dead');
    await b.page.waitForFunction(() => /accepted/.test(document.querySelector('#cleanup')?.textContent ?? ''));
    await b.page.click('#accept-dead');
    // The end (territory scoring): Black 27 points (B5's with them) + B5 as a capture = 28;
    // White 36 points + H5 + komi 6.5 = 43.5: W+15.5.
    for (const p of [a, b]) {
      await p.page.waitForSelector('#result-text');
      assert.equal(await p.page.textContent('#result-text'), 'Result: W+15.5');
      assert.equal(await p.page.locator('svg.board2d .stone.selected.faded').count(), 2, 'both dead stones crossed and pale');
      assert.deepEqual(await territory(p.page), { black: 26, white: 35 });
    }
    const count = await a.page.$$eval('#count tbody tr', (rows) => rows.map((r) => [...r.querySelectorAll('td[data-term]')].map((td) => td.textContent)));
    assert.deepEqual(count, [['27', '1', '0', '28'], ['36', '1', '6.5', '43.5']]);
    assert.match((await a.page.textContent('#players')) ?? '', /43\.5/);
    await screenshot(a.page, 'classic-end');
    await screenshot(b.page, 'classic-end-phone');
    // The lobby's My games shows the result.
    await a.page.click('text=Lobby');
    await a.page.waitForSelector(`#my-games li[data-game="${id}"] .result-text`);
    assert.equal(await a.page.textContent(`#my-games li[data-game="${id}"] .result-text`), 'W+15.5');
    // The review ends as the game did, counting moves as Go players do: 20 stones, 2 passes.
    await a.page.goto(`${server.url}/#/review/${id}`);
    await a.page.waitForFunction(() => document.querySelector('#move-number')?.textContent === 'Move 22 of 22');
    await a.page.waitForSelector('svg.board2d path.claim.territory');
    assert.equal(await a.page.textContent('#result-text'), 'Result: W+15.5');
    assert.equal(await a.page.textContent('#what'), 'White accepts the dead stones');
    assert.equal(await a.page.locator('svg.board2d .stone.selected').count(), 2);
    assert.deepEqual(await territory(a.page), { black: 26, white: 35 });
    await screenshot(a.page, 'classic-review-end');
    await a.page.keyboard.press('Home');
    await a.page.waitForFunction(() => document.querySelector('#move-number')?.textContent === 'Move 0 of 22');
    await a.page.keyboard.press('ArrowRight');
    await a.page.waitForFunction(() => document.querySelector('#what')?.textContent === 'Black D9');
    for (const p of [a, b]) await p.context.close();
  });

  test('a capture is still told after a reload, and a resignation reads B+R with no scores', async () => {
    const a = await newPlayer(browser, server.url);
    const id = await createClassic(a.page, { map: 'square:5', seat: 'open', preset: 'chinese' });
    const b = await newPlayer(browser, server.url);
    await b.page.goto(`${server.url}/#/game/${id}`);
    await b.page.click('#join-button');
    // 5×5: B1 = 21, A1 = 20, A2 = 15. Black takes White's A1.
    await place(a, 21);
    await place(b, 20);
    await place(a, 15);
    await waitForLog(a.page, /played A2 and captured 1 stone$/);
    await a.page.reload();
    await waitForLog(a.page, /3\. Black \(.*\) played A2 and captured 1 stone$/);
    b.page.once('dialog', (d) => d.accept());
    await b.page.click('#resign');
    await a.page.waitForSelector('#result-text');
    assert.equal(await a.page.textContent('#result-text'), 'Result: B+R');
    const headers = await a.page.$$eval('#ranking th', (ths) => ths.map((t) => t.textContent));
    assert.deepEqual(headers, ['Place', 'Player'], 'a resignation shows no scores');
    for (const p of [a, b]) await p.context.close();
  });

  test('a handicap game against a bot from the lobby: four stones on the star points, komi 0.5, White first', async () => {
    for (const [viewport, device, name] of [
      [{ width: 1280, height: 900 }, {}, 'classic-handicap'],
      [{ width: 390, height: 844 }, { hasTouch: true, isMobile: true }, 'classic-handicap-phone'],
    ]) {
      const a = await newPlayer(browser, server.url, viewport, device);
      await a.page.waitForSelector('#rules');
      const value = await a.page.$$eval('#rules option', (os) => os.find((o) => /chinese/.test(o.textContent ?? ''))?.value);
      await a.page.selectOption('#rules', value);
      await a.page.fill('#map-spec', 'square:9');
      await a.page.selectOption('select[name="seat-1"]', 'bot:1');
      await a.page.click('#create-form details summary');
      await a.page.fill('#create-form input[name="handicap"]', '4');
      assert.equal(await a.page.inputValue('#create-form input[name="komi"]'), '0.5', 'komi follows the handicap');
      await a.page.selectOption('#create-form select[name="handicap_placement"]', 'fixed');
      await a.page.click('#create');
      await a.page.waitForURL(/#\/game\/\d+/);
      for (const p of ['C3', 'G7', 'C7', 'G3']) await a.page.waitForSelector(`svg.board2d .stone.p0[data-stone="${at(p)}"]`);
      assert.match((await a.page.textContent('#rules-line')) ?? '', /komi 0\.5/);
      // The bot (White) moves first; then it is the handicap player's turn.
      await waitMyTurn(a.page);
      assert.equal(await a.page.locator('svg.board2d .stone.p1').count(), 1);
      await screenshot(a.page, name);
      await a.context.close();
    }
  });
});
