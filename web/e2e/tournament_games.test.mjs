// End-to-end, a tournament's game (issue 44): the game page of a table names its round and
// tournament and links to the tournament, for its player (desktop) and a spectator (phone).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browser, newPlayer, screenshot, server, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

const PHONE = { viewport: { width: 390, height: 844 }, device: { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } };

/** `fetch` from the page (its session), as JSON. */
async function call(page, method, path, body) {
  return page.evaluate(async ([m, p, b]) => {
    const r = await fetch(p, { method: m, headers: { 'content-type': 'application/json' }, body: b === undefined ? undefined : JSON.stringify(b) });
    return [r.status, await r.json()];
  }, [method, path, body]);
}

describe('a tournament game', { timeout: 300_000 }, () => {
  test('its page names the round and links to the tournament, at desktop and phone', async () => {
    const a = await newPlayer(browser, server.url);
    const [status, created] = await call(a.page, 'POST', '/api/tournaments', {
      name: 'Friday Swiss', system: 'tromp-taylor', map: 'square:5', players_per_game: 2, format: 'swiss',
      rounds: 1, min_entrants: 2, max_entrants: 8, entry: 'open', bots: [1],
    });
    assert.equal(status, 201, JSON.stringify(created));
    const id = created.id;
    assert.equal((await call(a.page, 'POST', `/api/tournaments/${id}/join`, {}))[0], 200);
    assert.equal((await call(a.page, 'POST', `/api/tournaments/${id}/start`, {}))[0], 200);

    // The director makes the round's game: its link appears on the tournament page.
    await a.page.goto(`${server.url}/#/tournaments/${id}`);
    const link = await a.page.waitForSelector('#rounds .round[data-round="1"] a.game-link', { timeout: 60_000 });
    const game = Number((await link.getAttribute('href')).match(/#\/game\/(\d+)/)[1]);
    await link.click();
    await a.page.waitForURL(new RegExp(`#/game/${game}$`));
    const line = await a.page.waitForSelector('#event-line a');
    assert.equal(await line.textContent(), 'Round 1 of Friday Swiss');
    assert.equal(await line.getAttribute('href'), `#/tournaments/${id}`);
    assert.match((await a.page.textContent('#event-line')) ?? '', /table 1/);
    await screenshot(a.page, 'tournament-game-desktop');

    // A spectator on a phone sees it too, and the link leads to the tournament.
    const b = await newPlayer(browser, server.url, PHONE.viewport, PHONE.device);
    await b.page.goto(`${server.url}/#/game/${game}`);
    await b.page.waitForSelector('#event-line a');
    assert.ok(await b.page.isVisible('#event-line a'), 'on screen above the board');
    await screenshot(b.page, 'tournament-game-phone');
    await b.page.click('#event-line a');
    await b.page.waitForSelector('#tournament-summary');
    assert.match(b.page.url(), new RegExp(`#/tournaments/${id}$`));
    await a.context.close();
    await b.context.close();
  });
});
