// End-to-end, being told and lists that filter (issue 42): the tab's title counts the games
// waiting for you and drops when you move; notifications only after the opt-in click, one when
// the opponent moves while you are elsewhere; My games' "your move" marks in order of urgency;
// a filter narrowing the open list; player search.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browser, newPlayer, place, register, screenshot, server, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

const PHONE = { viewport: { width: 390, height: 844 }, device: { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } };

/** Records the notifications a page makes (a stand-in for the browser's, whose permission
 *  starts undecided), and how often permission was asked. */
const NOTIFICATION_STUB = () => {
  window.__notes = [];
  window.__asked = 0;
  class Recorded {
    static permission = 'default';
    static async requestPermission() {
      window.__asked += 1;
      Recorded.permission = 'granted';
      return 'granted';
    }
    constructor(title, options = {}) {
      window.__notes.push({ title, ...options });
    }
    close() {}
  }
  window.Notification = Recorded;
};

/** A player whose page records notifications. */
async function notifiedPlayer() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['notifications']);
  await context.addInitScript(NOTIFICATION_STUB);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(server.url);
  await page.waitForSelector('#me-name');
  return { context, page };
}

/** Calls the API from the player's page (their session). */
async function call(page, method, path, body) {
  return page.evaluate(async ([method, path, body]) => {
    const r = await fetch(path, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
    return { status: r.status, body: await r.json().catch(() => null) };
  }, [method, path, body]);
}

/** A classic 9×9 game `a` creates (sitting where `seats` says) and `b` joins: live at once. */
async function liveGame(a, b, { time = { kind: 'none' }, seats = [{ kind: 'me' }, { kind: 'open' }] } = {}) {
  const made = await call(a.page, 'POST', '/api/games', { rules: 'chinese', map: 'square:9', players: 2, time, seats });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = made.body.game.id;
  const joined = await call(b.page, 'POST', `/api/games/${id}/join`, {});
  assert.equal(joined.status, 200, JSON.stringify(joined.body));
  return id;
}

const titleIs = (page, title) => page.waitForFunction((t) => document.title === t, title, { timeout: 30_000 });

describe('being told', { timeout: 300_000 }, () => {
  test('the tab title and favicon count a game waiting, and drop when you move', async () => {
    const a = await newPlayer(browser, server.url);
    const b = await newPlayer(browser, server.url);
    const id = await liveGame(a, b);
    await titleIs(a.page, '(1) GoBeyond');
    assert.match(await a.page.$eval('link[rel="icon"]', (l) => l.href), /%23d22/, 'the favicon has its badge');
    await a.page.goto(`${server.url}/#/game/${id}`);
    await place(a, 40);
    await titleIs(a.page, 'GoBeyond');
    assert.doesNotMatch(await a.page.$eval('link[rel="icon"]', (l) => l.href), /%23d22/);
    // Now b's tab counts it.
    await titleIs(b.page, '(1) GoBeyond');
    await a.context.close();
    await b.context.close();
  });

  test('notifications: asked for on the opt-in click only, shown when the opponent moves while you are elsewhere', async () => {
    const a = await notifiedPlayer();
    const b = await newPlayer(browser, server.url);
    await a.page.waitForSelector('#notify-toggle');
    assert.equal(await a.page.evaluate(() => window.__asked), 0, 'no prompt on load');
    assert.equal(await a.page.getAttribute('#notify-toggle', 'aria-pressed'), 'false');
    await a.page.click('#notify-toggle');
    await a.page.waitForSelector('#notify-toggle[aria-pressed="true"]');
    assert.equal(await a.page.evaluate(() => window.__asked), 1);
    const id = await liveGame(a, b);
    await a.page.goto(`${server.url}/#/game/${id}`);
    await place(a, 40);
    // While a looks at the game, b's answer is news on the board, not a notification.
    await b.page.goto(`${server.url}/#/game/${id}`);
    await place(b, 20);
    await titleIs(a.page, '(1) GoBeyond');
    await place(a, 30);
    // a goes back to the lobby; b answers.
    await a.page.goto(`${server.url}/#/`);
    await a.page.waitForSelector('#my-games');
    await place(b, 50);
    const note = await a.page.waitForFunction((tag) => window.__notes.find((n) => n.tag === tag), `turn:${id}:4`, { timeout: 30_000 });
    assert.match((await note.jsonValue()).title, new RegExp(`Your move in game #${id}`));
    // Shown once, however often the lists refresh.
    await titleIs(a.page, '(1) GoBeyond');
    await a.page.waitForSelector(`#my-games li[data-game="${id}"] .your-move`);
    const tags = await a.page.evaluate(() => window.__notes.map((n) => n.tag));
    // (A notice of the first move may come or not: the lobby may look before a opens the game.)
    assert.deepEqual(tags.filter((t) => [`turn:${id}:2`, `turn:${id}:4`].includes(t)), [`turn:${id}:4`], 'none for the game in view, one when elsewhere');
    // Switched off, nothing more is shown.
    await a.page.click('#notify-toggle');
    await a.page.waitForSelector('#notify-toggle[aria-pressed="false"]');
    await a.context.close();
    await b.context.close();
  });

  test('a challenge waiting for your answer is a notification in every tab', async () => {
    const suffix = String(Date.now() % 1e6);
    const a = await notifiedPlayer();
    await register(a, `cal${suffix}`);
    await a.page.click('#notify-toggle');
    await a.page.waitForSelector('#notify-toggle[aria-pressed="true"]');
    const b = await newPlayer(browser, server.url);
    await register(b, `dan${suffix}`);
    const sent = await call(b.page, 'POST', '/api/challenges', { to: `cal${suffix}`, their_seat: 1, expires_seconds: 3600, game: { rules: 'chinese', map: 'square:9', players: 2, seats: [{ kind: 'me' }, { kind: 'open' }] } });
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    const note = await a.page.waitForFunction((tag) => window.__notes.find((n) => n.tag === tag), `challenge:${sent.body.id}`, { timeout: 60_000 });
    assert.match((await note.jsonValue()).title, new RegExp(`dan${suffix} challenges you`));
    await a.context.close();
    await b.context.close();
  });

  test("My games marks the games waiting for you, the least time left first", async () => {
    const a = await newPlayer(browser, server.url);
    const b = await newPlayer(browser, server.url);
    const untimed = await liveGame(a, b);
    const timed = await liveGame(a, b, { time: { kind: 'fischer', main_seconds: 600, increment_seconds: 10 } });
    const theirs = await liveGame(a, b, { seats: [{ kind: 'open' }, { kind: 'me' }] });
    await a.page.waitForFunction(() => document.querySelector('#my-waiting')?.textContent === '2 your move', null, { timeout: 30_000 });
    const order = await a.page.$$eval('#my-games li[data-game]', (ls) => ls.map((l) => [Number(l.dataset.game), l.querySelector('.your-move') !== null]));
    assert.deepEqual(order.slice(0, 3), [[timed, true], [untimed, true], [theirs, false]]);
    assert.match(await a.page.textContent(`#my-games li[data-game="${timed}"] .your-move`), /your move · (9|10) min/);
    await screenshot(a.page, 'tell-my-games-desktop');
    await a.page.setViewportSize(PHONE.viewport);
    await a.page.$eval('#my-games', (e) => e.scrollIntoView());
    await screenshot(a.page, 'tell-my-games-phone');
    const phone = await newPlayer(browser, server.url, PHONE.viewport, PHONE.device);
    await phone.page.waitForSelector('#filters');
    assert.equal(await phone.page.$eval('#filters', (d) => d.open), false, 'folded on a phone');
    await screenshot(phone.page, 'tell-lobby-phone');
    await phone.page.click('#filters summary');
    await screenshot(phone.page, 'tell-filters-phone');
    for (const p of [a, b, phone]) await p.context.close();
  });
});

describe('lists that filter', { timeout: 300_000 }, () => {
  test('a filter narrows the open list, and Clear brings every game back', async () => {
    const maker = await newPlayer(browser, server.url);
    const classic = (await call(maker.page, 'POST', '/api/games', { rules: 'chinese', map: 'square:9', players: 2 })).body.game.id;
    const hex = (await call(maker.page, 'POST', '/api/games', { rules: 'gobeyond', map: 'hex:4', players: 3 })).body.game.id;
    const viewer = await newPlayer(browser, server.url);
    const listed = (id) => viewer.page.waitForSelector(`#open-games li[data-game="${id}"]`, { timeout: 30_000 });
    await listed(classic);
    await listed(hex);
    await viewer.page.selectOption('#filter-rules', 'classic');
    await viewer.page.waitForSelector(`#open-games li[data-game="${hex}"]`, { state: 'detached' });
    assert.ok(await viewer.page.$(`#open-games li[data-game="${classic}"]`));
    await viewer.page.selectOption('#filter-players', '3');
    await viewer.page.waitForSelector(`#open-games li[data-game="${classic}"]`, { state: 'detached' });
    await screenshot(viewer.page, 'tell-filters-desktop');
    await viewer.page.click('#filter-clear');
    await listed(hex);
    await listed(classic);
    await maker.context.close();
    await viewer.context.close();
  });

  test('player search finds a player by the start of their name and links to their page', async () => {
    const someone = await newPlayer(browser, server.url);
    const name = `Findme${Date.now() % 100000}`;
    const r = await call(someone.page, 'POST', '/api/register', { name, password: 'correct horse' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const seeker = await newPlayer(browser, server.url);
    await seeker.page.fill('#player-search', name.slice(0, 8).toLowerCase());
    const link = await seeker.page.waitForSelector(`#players-found a[href="#/player/${name}"]`);
    await link.click();
    await seeker.page.waitForURL(new RegExp(`#/player/${name}`));
    await seeker.page.waitForFunction((n) => document.body.textContent?.includes(n), name);
    await someone.context.close();
    await seeker.context.close();
  });
});
