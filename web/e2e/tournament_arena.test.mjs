// End-to-end, arenas and crosstable links (issue 44): an arena's page drawn from the server's
// answer — "Arena: ends in m:ss" counting down, the games in play and played, each crosstable
// result a link to its own game — at phone and desktop sizes.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browser, newPlayer, screenshot, server, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

const PHONE = { viewport: { width: 390, height: 844 }, device: { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } };
const DESKTOP = { viewport: { width: 1280, height: 900 }, device: {} };

/** An arena of three with two games played and one in play (docs/api.md "Tournaments"). */
function arena() {
  return {
    summary: { id: 901, name: 'Blitz arena', system: 'classic', map: 'square:9', format: 'arena', players_per_game: 2, rounds: 0, state: 'running', entrants: 3, max_entrants: 8, start_ms: null, creator: 'someone', time_control_text: '3 min + 2 s' },
    settings: { arena_minutes: 30 },
    rules_text: ['Arena: a new table as soon as enough entrants are waiting.'],
    entrants: [
      { id: 1, name: 'ann', rating: 1500, bot_level: null, withdrawn_after: null, user_id: 1001 },
      { id: 2, name: 'bob', rating: 1480, bot_level: null, withdrawn_after: null, user_id: 1002 },
      { id: 3, name: 'bot 1', rating: 1100, bot_level: 1, withdrawn_after: null, user_id: null },
    ],
    rounds: [
      { number: 1, tables: [{ table: 1, seats: [1, 2], game_id: 41, places: [1, 2] }], byes: [], absent: [], started_ms: 1, finished_ms: 2 },
      { number: 2, tables: [{ table: 1, seats: [2, 1], game_id: 42, places: [1, 2] }], byes: [], absent: [], started_ms: 3, finished_ms: 4 },
      { number: 3, tables: [{ table: 1, seats: [1, 3], game_id: 43, places: null }], byes: [], absent: [], started_ms: 5, finished_ms: null },
    ],
    standings: {
      tie_breaks: ['sos'],
      rows: [
        { entrant: 1, name: 'ann', place: 1, points: 1, tie_breaks: [1], games: 2, byes: 0, eliminated: false, why: null },
        { entrant: 2, name: 'bob', place: 1, points: 1, tie_breaks: [1], games: 2, byes: 0, eliminated: false, why: null },
        { entrant: 3, name: 'bot 1', place: 3, points: 0, tie_breaks: [0], games: 0, byes: 0, eliminated: false, why: null },
      ],
    },
    crosstable: [
      [null, { text: '+−', games: [{ result: '+', game_id: 41 }, { result: '−', game_id: 42 }] }, null],
      [{ text: '−+', games: [{ result: '−', game_id: 41 }, { result: '+', game_id: 42 }] }, null, null],
      [null, null, null],
    ],
    may_join: true, may_leave: false, may_start: false, why_not: null,
    arena: { started_ms: 0, ends_ms: 1_800_000, ends_in_ms: 754_000 },
  };
}

describe('an arena\'s page', { timeout: 300_000 }, () => {
  test('counts down, lists the games in play and links each crosstable result to its game, at phone and desktop', async () => {
    for (const [size, s] of [['desktop', DESKTOP], ['phone', PHONE]]) {
      const p = await newPlayer(browser, server.url, s.viewport, s.device);
      await p.page.route(/\/api\/tournaments\/901$/, (route) => route.fulfill({ json: arena() }));
      await p.page.goto(`${server.url}/#/tournaments/901`);
      await p.page.waitForSelector('#arena-clock');
      assert.match((await p.page.textContent('#arena-clock')) ?? '', /^Arena: ends in 1[23]:\d\d$/);
      // The clock ticks between the page's reads.
      const first = await p.page.textContent('#arena-clock');
      await p.page.waitForFunction((was) => document.querySelector('#arena-clock')?.textContent !== was, first);
      assert.match((await p.page.textContent('#arena-playing')) ?? '', /ann – bot 1: playing/);
      assert.equal(await p.page.getAttribute('#arena-playing a', 'href'), '#/game/43');
      assert.equal(await p.page.$$eval('#arena-played li', (l) => l.length), 2);
      assert.equal(await p.page.$('#rounds'), null, 'an arena shows no rounds');
      assert.equal(await p.page.$('#t-bye'), null, 'no byes in an arena');
      assert.deepEqual(await p.page.$$eval('#crosstable a.cross-game', (a) => a.map((e) => [e.textContent, e.getAttribute('href')])),
        [['+', '#/game/41'], ['−', '#/game/42'], ['−', '#/game/41'], ['+', '#/game/42']]);
      const overflow = await p.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${size}: the page scrolls sideways by ${overflow}px`);
      await screenshot(p.page, `tournament-arena-${size}`);
      await p.page.locator('#crosstable').scrollIntoViewIfNeeded();
      await screenshot(p.page, `tournament-arena-crosstable-${size}`);
      await p.context.close();
    }
  });
});
