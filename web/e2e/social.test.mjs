// End-to-end, finding opponents (issue 42): a challenge from a player's page accepted in
// another browser (both land in the game), two browsers paired by "Play someone now", and an
// open game cancelled from My games; at desktop and phone sizes.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browser, gameId, newPlayer, screenshot, server, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

const PHONE = { viewport: { width: 390, height: 844 }, device: { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } };

/** A browser whose guest registers as an account (challenges are between accounts). */
async function member(prefix, size = {}) {
  const p = await newPlayer(browser, server.url, size.viewport, size.device);
  const name = `${prefix}${Math.floor(Math.random() * 1e8)}`;
  const status = await p.page.evaluate(async (n) => {
    const r = await fetch('/api/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: n, password: 'correct horse' }) });
    return r.status;
  }, name);
  assert.equal(status, 200);
  await p.page.reload();
  await p.page.waitForFunction((n) => document.querySelector('#me-name')?.textContent === n, name);
  return { ...p, name };
}

/** Chooses the seek form's rules option whose label matches. */
async function seekRules(page, label) {
  const value = await page.$$eval('#seek-rules option', (os, src) => os.find((o) => new RegExp(src).test(o.textContent ?? ''))?.value, label.source);
  assert.ok(value, `a rules option matches ${label}`);
  await page.selectOption('#seek-rules', value);
}

describe('finding opponents', { timeout: 300_000 }, () => {
  test('a challenge from a player page, accepted in the other browser: both land in the game', async () => {
    const a = await member('alice');
    const b = await member('bruno', PHONE);
    await a.page.goto(`${server.url}/#/player/${b.name}`);
    await a.page.click('#follow');
    await a.page.waitForSelector('#unfollow');
    await a.page.waitForSelector('#player-presence');
    await screenshot(a.page, 'social-player-page-desktop');
    await a.page.click('#challenge-player');
    await a.page.waitForFunction((n) => document.querySelector('#challenge-to')?.value === n, b.name);
    await a.page.fill('#map-spec', 'hex:3');
    await a.page.selectOption('#challenge-first', 'them');
    assert.equal(await a.page.textContent('#create'), 'Send challenge');
    await a.page.click('#create');
    await a.page.waitForSelector(`#outgoing-challenges li[data-status="pending"]`);
    await screenshot(a.page, 'social-challenge-sent-desktop');
    // The challenged player's lobby lists it within a refresh, with Accept.
    const accept = '#incoming-challenges li[data-status="pending"] button[data-answer="accept"]';
    await b.page.waitForSelector(accept, { timeout: 20_000 });
    await screenshot(b.page, 'social-challenge-received-phone');
    await b.page.click(accept);
    await b.page.waitForURL(/#\/game\/\d+/);
    await a.page.waitForURL(/#\/game\/\d+/, { timeout: 20_000 });
    assert.equal(gameId(a.page), gameId(b.page));
    // Both seated: the challenged player plays first, as the challenger chose.
    await b.page.waitForSelector('#players tbody tr.me[data-seat="0"]');
    await a.page.waitForSelector('#players tbody tr.me[data-seat="1"]');
    // The follower's lobby shows the player online, with their live game to watch.
    await a.page.goto(`${server.url}/#/`);
    await a.page.waitForSelector(`#following-list li[data-person="${b.name}"] .presence.online`);
    await a.page.waitForSelector(`#following-list li[data-person="${b.name}"] a.tag`);
    await screenshot(a.page, 'social-following-desktop');
    await a.context.close();
    await b.context.close();
  });

  test('two browsers playing someone now are paired into one game', async () => {
    const a = await newPlayer(browser, server.url, PHONE.viewport, PHONE.device);
    const b = await newPlayer(browser, server.url);
    for (const p of [a, b]) {
      await seekRules(p.page, /^GoBeyond/);
      await p.page.selectOption('#seek-shape', 'hex');
      await p.page.fill('#seek-min', '3');
      await p.page.fill('#seek-max', '4');
    }
    await a.page.click('#seek-start');
    await a.page.waitForSelector('#seek-waiting');
    await screenshot(a.page, 'social-seek-waiting-phone');
    await b.page.click('#seek-start');
    await b.page.waitForURL(/#\/game\/\d+/, { timeout: 20_000 });
    await a.page.waitForURL(/#\/game\/\d+/, { timeout: 20_000 });
    assert.equal(gameId(a.page), gameId(b.page));
    await a.page.waitForSelector('#players tbody tr.me');
    await b.page.waitForSelector('#players tbody tr.me');
    await a.context.close();
    await b.context.close();
  });

  test('an open game is cancelled from My games', async () => {
    const a = await newPlayer(browser, server.url);
    await a.page.fill('#map-spec', 'hex:3');
    await a.page.selectOption('#seats select', 'open');
    await a.page.click('#create');
    await a.page.waitForURL(/#\/game\/\d+/);
    const id = gameId(a.page);
    await a.page.click('text=Lobby');
    const row = `#my-games li[data-game="${id}"]`;
    await a.page.click(`${row} button.cancel-game`);
    await a.page.waitForSelector(row, { state: 'detached' });
    const status = await a.page.evaluate(async (g) => (await fetch(`/api/games/${g}`)).status, id);
    assert.equal(status, 404, 'the game is gone');
    await a.page.waitForSelector(`#open-games li[data-game="${id}"]`, { state: 'detached' });
    await a.context.close();
  });
});
