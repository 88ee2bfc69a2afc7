// End-to-end, tournaments (issue 44): the pages drawn from the server's answers (standings with
// each tie's reason, crosstable, rounds with their games, what the viewer may do), at phone and
// desktop sizes in light and dark; then a small tournament on the real server from creation
// with two people and bots.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browser, newPlayer, screenshot, server, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

const PHONE = { viewport: { width: 390, height: 844 }, device: { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } };
const DESKTOP = { viewport: { width: 1280, height: 900 }, device: {} };

/** A Swiss of four in its second round, in the shape of GET /api/tournaments/{id} (docs/api.md). */
function fixture(state = 'running') {
  const finished = state === 'finished';
  return {
    summary: { id: 900, name: 'Friday Swiss', system: 'classic', map: 'square:9', format: 'swiss', players_per_game: 2, rounds: 2, state, entrants: 4, max_entrants: 8, start_ms: null, creator: 'someone', time_control_text: '10 min + 10 s per move' },
    settings: {},
    rules_text: ['Swiss: 2 rounds; each round pairs players with the same score.', 'A win is 1 point, a loss 0.', 'Ties are broken by SOS (the sum of the opponents\' points), then SODOS.'],
    entrants: [
      { id: 1, name: 'ann', rating: 1500, bot_level: null, withdrawn_after: null, user_id: 1001 },
      { id: 2, name: 'bob', rating: 1480, bot_level: null, withdrawn_after: null, user_id: 1002 },
      { id: 3, name: 'bot 1', rating: 1100, bot_level: 1, withdrawn_after: null, user_id: null },
      { id: 4, name: 'bot 2', rating: 1300, bot_level: 2, withdrawn_after: null, user_id: null },
    ],
    rounds: [
      { number: 1, tables: [{ table: 1, seats: [1, 2], game_id: 31, places: [1, 2] }, { table: 2, seats: [3, 4], game_id: 32, places: [2, 1] }], byes: [], absent: [], started_ms: 1, finished_ms: 2 },
      { number: 2, tables: [{ table: 1, seats: [4, 1], game_id: 33, places: finished ? [2, 1] : null }, { table: 2, seats: [2, 3], game_id: 34, places: finished ? [1, 2] : null }], byes: [], absent: [], started_ms: 3, finished_ms: finished ? 4 : null },
    ],
    standings: {
      tie_breaks: ['sos', 'sodos'],
      rows: finished
        ? [
            { entrant: 1, place: 1, points: 2, tie_breaks: [2, 1], games: 2, byes: 0, eliminated: false, why: null },
            { entrant: 2, place: 2, points: 1, tie_breaks: [3, 0], games: 2, byes: 0, eliminated: false, why: 'tied on 1 point with bot 2: ahead on SOS 3 to 2' },
            { entrant: 4, place: 3, points: 1, tie_breaks: [2, 0], games: 2, byes: 0, eliminated: false, why: null },
            { entrant: 3, place: 4, points: 0, tie_breaks: [2, 0], games: 2, byes: 0, eliminated: false, why: null },
          ]
        : [
            { entrant: 1, place: 1, points: 1, tie_breaks: [0, 0], games: 1, byes: 0, eliminated: false, why: 'tied on 1 point with bot 2: ahead on rating 1500 to 1300' },
            { entrant: 4, place: 2, points: 1, tie_breaks: [0, 0], games: 1, byes: 0, eliminated: false, why: null },
            { entrant: 2, place: 3, points: 0, tie_breaks: [1, 0], games: 1, byes: 0, eliminated: false, why: null },
            { entrant: 3, place: 3, points: 0, tie_breaks: [1, 0], games: 1, byes: 0, eliminated: false, why: null },
          ],
    },
    crosstable: [
      [null, { text: '+', game_id: 31 }, null, finished ? { text: '+', game_id: 33 } : null],
      [{ text: '−', game_id: 31 }, null, finished ? { text: '+', game_id: 34 } : null, null],
      [null, finished ? { text: '−', game_id: 34 } : null, null, { text: '−', game_id: 32 }],
      [finished ? { text: '−', game_id: 33 } : null, null, { text: '+', game_id: 32 }, null],
    ],
    may_join: false, may_leave: false, may_start: false, why_not: finished ? 'It has finished.' : 'It has started: no more entries.',
  };
}

/** Answers the tournament calls of `page` from `answer()` (the view) instead of the server. */
async function serveFixture(page, answer) {
  await page.route(/\/api\/tournaments(\/\d+)?(\?.*)?$/, (route) => {
    const url = route.request().url();
    if (/\/api\/tournaments\/\d+$/.test(url)) return route.fulfill({ json: answer() });
    const view = answer();
    return route.fulfill({ json: { tournaments: [view.summary] } });
  });
}

describe('tournament pages from the server\'s answers', { timeout: 300_000 }, () => {
  test('standings show each tie\'s reason, the crosstable and rounds link the games, at phone and desktop, light and dark', async () => {
    for (const [size, s] of [['desktop', DESKTOP], ['phone', PHONE]]) {
      for (const scheme of ['light', 'dark']) {
        const p = await newPlayer(browser, server.url, s.viewport, { ...s.device, colorScheme: scheme });
        let state = 'running';
        await serveFixture(p.page, () => fixture(state));
        await p.page.click('#nav-tournaments');
        await p.page.click('#tab-running');
        await p.page.waitForSelector('li[data-tournament="900"]');
        await screenshot(p.page, `tournaments-list-${size}-${scheme}`);
        await p.page.click('li[data-tournament="900"] a');
        await p.page.waitForSelector('#standings');
        // The reason of the tie is its own visible line under the row (no hover needed on a phone).
        const why = p.page.locator('#standings tr.why').first();
        assert.ok(await why.isVisible());
        assert.match((await why.textContent()) ?? '', /ahead on rating 1500 to 1300/);
        assert.deepEqual(await p.page.$$eval('#standings tbody tr:not(.why) td.place', (t) => t.map((e) => e.textContent)), ['1', '2', '3=', '3=']);
        assert.equal(await p.page.getAttribute('#crosstable a', 'href'), '#/game/31');
        assert.match((await p.page.textContent('#rounds .round[data-round="2"]')) ?? '', /bot 2 – ann: playing/);
        assert.equal(await p.page.getAttribute('#rounds .round[data-round="1"] .game-link', 'href'), '#/game/31');
        assert.match((await p.page.textContent('#t-why-not')) ?? '', /no more entries/);
        assert.equal(await p.page.$('#t-join'), null, 'no Join when the view does not allow it');
        assert.ok(await p.page.isVisible('#t-export a[href$="export.csv"]'));
        // Nothing is wider than the screen but the tables' own scroll boxes.
        const overflow = await p.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `${size}: the page scrolls sideways by ${overflow}px`);
        await screenshot(p.page, `tournament-running-${size}-${scheme}`);
        await p.page.locator('#rounds').scrollIntoViewIfNeeded();
        await screenshot(p.page, `tournament-running-rounds-${size}-${scheme}`);
        // While running the page re-reads the view: the last results arrive without a reload.
        state = 'finished';
        await p.page.waitForFunction(() => document.querySelector('#tournament-summary')?.getAttribute('data-state') === 'finished', null, { timeout: 20_000 });
        assert.match((await p.page.textContent('#standings tr.why')) ?? '', /ahead on SOS 3 to 2/);
        assert.match((await p.page.textContent('#rounds .round[data-round="2"]')) ?? '', /bot 2 – ann: ann won/);
        await screenshot(p.page, `tournament-finished-${size}-${scheme}`);
        await p.context.close();
      }
    }
  });
});

/** The tournament view as `p` reads it from the server. */
const viewOf = (p, id) => p.page.evaluate((t) => fetch(`/api/tournaments/${t}`).then((r) => r.json()), id);

/** Polls the view until its rounds differ from `before` (a result read, a round paired). */
async function roundsChange(p, id, before, timeout = 180_000) {
  const was = JSON.stringify(before);
  for (const end = Date.now() + timeout; Date.now() < end; ) {
    if (JSON.stringify((await viewOf(p, id)).rounds) !== was) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`tournament ${id}: no round changed in ${timeout / 1000} s`);
}

/** Chooses the Create form's rules option whose label matches. */
async function chooseRules(page, label) {
  const value = await page.$$eval('#t-rules option', (os, src) => os.find((o) => new RegExp(src).test(o.textContent ?? ''))?.value, label.source);
  assert.notEqual(value, undefined, `no rules option matches ${label}`);
  await page.selectOption('#t-rules', value);
}

/** Waits until the page shows `name` among the entrants (the page re-reads every 5 s). */
async function seesEntrant(page, name) {
  await page.waitForFunction((n) => [...document.querySelectorAll('#entrants li')].some((li) => li.textContent?.includes(n)), name, { timeout: 30_000 });
}

describe('a tournament on the server', { timeout: 600_000 }, () => {
  /** The tournament the first test starts and the second plays out. */
  let started = null;
  test('created from the form, joined by a second person, bots added, started when it may', async () => {
    const a = await newPlayer(browser, server.url);
    await a.page.click('#nav-tournaments');
    await a.page.waitForSelector('#tournament-form');
    // The form checks the server's bounds first, naming the field.
    await a.page.fill('#t-name', 'Evening round robin');
    await a.page.fill('#t-players_per_game', '9');
    await a.page.click('#t-create');
    assert.match((await (await a.page.waitForSelector('#t-error')).textContent()) ?? '', /^Players per game: between 2 and 8/);
    await a.page.fill('#t-players_per_game', '2');
    assert.equal(await a.page.isVisible('#t-error'), false, 'the refusal goes once the field is edited');
    await chooseRules(a.page, /^Classic Go/);
    await a.page.fill('#t-map', 'square:5');
    // A round robin of three: every game has a person in it (each round one game and a bye).
    await a.page.selectOption('#t-format', 'round_robin');
    assert.equal(await a.page.inputValue('#t-rounds'), '0', 'as many rounds as the entrants need');
    await a.page.fill('#t-min_entrants', '3');
    await a.page.fill('#t-max_entrants', '4');
    await screenshot(a.page, 'tournament-create-desktop');
    await a.page.click('#t-create');
    await a.page.waitForURL(/#\/tournaments\/\d+/);
    const id = Number(a.page.url().match(/#\/tournaments\/(\d+)/)[1]);
    await a.page.waitForSelector('#tournament-summary');
    assert.match((await a.page.textContent('#tournament-rules')) ?? '', /Round robin/i);
    await a.page.click('#t-join');
    await seesEntrant(a.page, a.name);

    // Another person finds it under Upcoming, on a phone, and joins.
    const b = await newPlayer(browser, server.url, PHONE.viewport, PHONE.device);
    await b.page.click('#nav-tournaments');
    await b.page.click(`li[data-tournament="${id}"] a`);
    await b.page.click('#t-join');
    await seesEntrant(b.page, b.name);
    assert.equal(await b.page.$('#t-start'), null, 'only the organiser starts it');
    await screenshot(b.page, 'tournament-joined-phone');

    // Two entered of the three it needs: Start waits, saying why; the server refuses too.
    await seesEntrant(a.page, b.name);
    assert.ok(await a.page.isDisabled('#t-start'));
    assert.equal(await a.page.textContent('#t-start-why'), '2 entered: it needs at least 3 to start.');
    const refused = await a.page.evaluate((t) => fetch(`/api/tournaments/${t}/start`, { method: 'POST' }).then(async (r) => [r.status, (await r.json()).error]), id);
    assert.equal(refused[0], 409);
    assert.match(refused[1], /needs at least 3 to start/);
    await screenshot(a.page, 'tournament-start-waits-desktop');
    await a.page.selectOption('#bot-level', '1');
    await a.page.click('#t-add-bot');
    await a.page.waitForSelector('#t-start:not([disabled])');
    await seesEntrant(a.page, 'level 1');
    await a.page.click('#t-start');
    await a.page.waitForSelector('#tournament-summary[data-state="running"]');
    const view = await viewOf(a, id);
    assert.equal(view.entrants.length, 3);
    assert.equal(view.entrants.filter((e) => e.bot_level === 1).length, 1);
    started = { a, b, id };
  });

  test('played to the final standings, each person resigning from the page\'s game links', async (t) => {
    if (!started) return t.skip('the tournament did not start');
    const { a, b, id } = started;
    // The server pairs the first round at the start; a build without the director's rounds
    // (issue 44, written alongside these pages) never does: then this part waits for it.
    const paired = await a.page
      .waitForSelector('#rounds .round[data-round="1"]', { timeout: 60_000 })
      .then(() => true, () => false);
    if (!paired) {
      await a.context.close();
      await b.context.close();
      return t.skip('this server build does not run rounds yet');
    }

    // Every round played out: each person opens their game from the tournament page and
    // resigns (the bots' own games end by themselves), until the final standings.
    const resigned = new Set();
    for (let step = 0; step < 40; step++) {
      const v = await viewOf(a, id);
      if (v.summary.state === 'finished') break;
      let played = false;
      for (const p of [a, b]) {
        const me = v.entrants.find((e) => e.name === p.name);
        const round = v.rounds.at(-1);
        const table = round?.tables.find((t) => t.places === null && t.game_id !== null && !resigned.has(t.game_id) && t.seats.includes(me.id));
        if (!table) continue;
        resigned.add(table.game_id);
        await p.page.goto(`${server.url}/#/tournaments/${id}`);
        await p.page.click(`#rounds .round[data-round="${round.number}"] li[data-table="${table.table}"] a.game-link`);
        await p.page.waitForURL(new RegExp(`#/game/${table.game_id}$`));
        const shown = await p.page.waitForSelector('#resign:not([disabled]), #ranking', { timeout: 60_000 });
        if ((await shown.getAttribute('id')) === 'resign') {
          p.page.once('dialog', (d) => d.accept());
          await p.page.click('#resign');
          await p.page.waitForSelector('#ranking', { timeout: 60_000 });
        }
        played = true;
      }
      // Nothing of ours to play: wait until the server reads a result or pairs the next round.
      if (!played) {
        await roundsChange(a, id, v.rounds);
      }
    }
    await a.page.goto(`${server.url}/#/tournaments/${id}`);
    await a.page.waitForSelector('#tournament-summary[data-state="finished"]', { timeout: 120_000 }).catch(async (e) => {
      console.error('VIEW', JSON.stringify((await viewOf(a, id)).rounds));
      throw e;
    });
    const final = await viewOf(a, id);
    assert.equal(final.rounds.length, 3);
    assert.equal(final.standings.rows.length, 3);
    // Each played the other two; the people resigned to the bot, which comes first.
    for (const r of final.standings.rows) assert.equal(r.games, 2, JSON.stringify(r));
    const bot = final.entrants.find((e) => e.bot_level === 1);
    assert.equal(final.standings.rows[0].entrant, bot.id);
    assert.equal(await a.page.$$eval('#standings tbody tr:not(.why)', (rows) => rows.length), 3);
    assert.match((await a.page.textContent('#rounds')) ?? '', /Bye:/);
    assert.ok(await a.page.isVisible('#crosstable'));
    // Each crosstable result links its game: following one opens that game's page.
    const link = a.page.locator('#crosstable a.cross-game').first();
    const href = await link.getAttribute('href');
    assert.match(href ?? '', /^#\/game\/\d+$/);
    assert.ok(final.rounds.some((r) => r.tables.some((t) => `#/game/${t.game_id}` === href)), `${href} is one of the tournament's games`);
    await screenshot(a.page, 'tournament-final-crosstable-desktop');
    await link.click();
    await a.page.waitForFunction((h) => location.hash === h, href);
    await a.page.waitForSelector('#board');
    await a.page.goto(`${server.url}/#/tournaments/${id}`);
    await a.page.waitForSelector('#tournament-summary[data-state="finished"]');
    const csv = await a.page.evaluate((t) => fetch(`/api/tournaments/${t}/export.csv`).then((r) => r.text()), id);
    assert.ok(csv.includes(b.name), 'the CSV export names the players');
    await screenshot(a.page, 'tournament-final-desktop');
    await b.page.goto(`${server.url}/#/tournaments/${id}`);
    await b.page.waitForSelector('#tournament-summary[data-state="finished"]');
    await screenshot(b.page, 'tournament-final-phone');
    await a.context.close();
    await b.context.close();
  });
});
