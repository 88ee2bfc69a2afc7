// End-to-end: real server, real Chromium, the pages as a user sees them.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { binary, browser, clickPass, gameId, newPlayer, pass, place, register, screenshot, selectRules, server, stones, useServerAndBrowser, waitForLog, waitMyTurn } from './harness.mjs';

useServerAndBrowser();

/** Fills the lobby's new-game form and creates the game; returns its id. */
async function createGame(page, { map, players = 2, seats = [], settings = {}, rules }) {
  if (rules) await page.selectOption('#rules', rules);
  await page.fill('#players', String(players));
  await page.dispatchEvent('#players', 'change');
  await page.fill('#map-spec', map);
  for (const [i, v] of seats.entries()) await page.selectOption(`select[name="seat-${i + 1}"]`, v);
  if (Object.keys(settings).length) {
    await page.click('#create-form details summary');
    for (const [k, v] of Object.entries(settings)) await page.fill(`#create-form input[name="${k}"]`, String(v));
  }
  await page.click('#create');
  await page.waitForURL(/#\/game\/\d+/);
  await page.waitForSelector('#players tbody tr');
  return gameId(page);
}

/** The first of the 3-D board's first `count` nodes that faces the camera, with its place on
 *  the page. */
async function facingNode(page, count) {
  return page.evaluate((count) => {
    const b = document.querySelector('#board .board3d canvas').gobeyondBoard;
    for (let n = 0; n < count; n++) {
      const p = b.screenPosition(n);
      if (p) return { n, ...p };
    }
    return null;
  }, count);
}

async function points(page) {
  return page.$$eval('#players tbody tr', (rows) => rows.map((r) => Number(r.querySelector('.points')?.textContent)));
}

async function mapOf(page, id) {
  return page.evaluate(async (id) => (await fetch(`/api/games/${id}/map`)).json(), id);
}

/** Liberties of every group of `seat` on `board` (node → seat). */
function groups(map, board, seat) {
  const adj = Array.from({ length: map.nodes }, () => []);
  for (const [a, b] of map.edges) {
    adj[a].push(b);
    adj[b].push(a);
  }
  const seen = new Set();
  const out = [];
  for (const [k, s] of Object.entries(board)) {
    const start = Number(k);
    if (s !== seat || seen.has(start)) continue;
    const stones = [start];
    const libs = new Set();
    seen.add(start);
    for (let i = 0; i < stones.length; i++) {
      for (const q of adj[stones[i]]) {
        if (board[q] === undefined) libs.add(q);
        else if (board[q] === seat && !seen.has(q)) {
          seen.add(q);
          stones.push(q);
        }
      }
    }
    out.push({ stones, libs: [...libs] });
  }
  return { adj, groups: out };
}

describe('playing in the browser', { timeout: 300_000 }, () => {
  test('a guest plays GoBeyond against a bot until a capture, and sees PlayPoints change', async () => {
    const { page, context } = await newPlayer(browser, server.url);
    await screenshot(page, 'lobby');
    const id = await createGame(page, {
      map: 'square:5',
      seats: ['bot:2'],
      settings: { starting_points: 1000, turn_seconds: 0 },
    });
    const map = await mapOf(page, id);
    await waitMyTurn(page);
    assert.deepEqual(await points(page), [1000, 1000]);
    let captured = null;
    let tried = new Set();
    for (let move = 0; move < 60 && !captured; move++) {
      await waitMyTurn(page);
      const before = await points(page);
      const board = await stones(page);
      const { adj, groups: bot } = groups(map, board, 1);
      // Attack the bot's weakest group; otherwise play next to its stones, else anywhere.
      bot.sort((a, b) => a.libs.length - b.libs.length);
      const empty = (n) => board[n] === undefined && !tried.has(n);
      const candidates = [
        ...bot.flatMap((g) => g.libs),
        ...Object.keys(board).map(Number).filter((n) => board[n] === 1).flatMap((n) => adj[n]),
        ...Array.from({ length: map.nodes }, (_, n) => n),
      ].filter(empty);
      const target = candidates[0];
      tried.add(target);
      const lines = await page.$$eval('#log li', (ls) => ls.length);
      await page.click(`svg.board2d .hit[data-node="${target}"]`);
      // Either our move shows in the log (the stone may be captured at once), or the refusal.
      await page.waitForFunction(
        (n) => document.querySelectorAll('#log li').length > n || document.querySelector('#status[data-error]'),
        lines,
      );
      if (await page.$('#status[data-error]')) continue;
      tried = new Set();
      if (move === 0) assert.equal((await points(page))[0], before[0] - 10, 'a stone costs 10 PlayPoints');
      captured = await page.$$eval('#log li', (ls) => ls.map((l) => l.textContent).find((t) => / captured \d+ stones? of /.test(t ?? '')));
      if (captured) {
        const who = /^(\d+\. )?Black/.test(captured) ? 0 : 1;
        const award = Number(captured.match(/: \+(\d+)/)[1]);
        assert.ok(award >= 10, captured);
        const now = await points(page);
        assert.ok(now[who] > before[who] - 10, `the capturer's PlayPoints went up: ${before} → ${now}`);
      }
    }
    assert.ok(captured, 'a capture within 60 moves');
    await screenshot(page, 'game-capture');
    await context.close();
  });

  test('three players in three browsers, and a reload in mid-game continues it', async () => {
    const a = await newPlayer(browser, server.url);
    const b = await newPlayer(browser, server.url);
    const c = await newPlayer(browser, server.url, { width: 390, height: 844 });
    const id = await createGame(a.page, { map: 'hex:3', players: 3, seats: ['open', 'open'], settings: { turn_seconds: 0 } });
    for (const p of [b, c]) {
      await p.page.goto(`${server.url}/#/game/${id}`);
      await p.page.click('#join-button');
    }
    await waitMyTurn(a.page);
    const play = async (p, node) => {
      await waitMyTurn(p.page);
      await p.page.click(`svg.board2d .hit[data-node="${node}"]`);
    };
    await play(a, 0);
    await play(b, 18);
    await play(c, 9);
    for (const p of [a, b, c]) {
      await p.page.waitForFunction(() => document.querySelectorAll('svg.board2d .stone').length === 3);
      assert.deepEqual(await stones(p.page), { 0: 0, 18: 1, 9: 2 });
    }
    await screenshot(c.page, 'game-phone');
    // Reload B in the middle of the game: same board, same log, and play goes on.
    await b.page.reload();
    await b.page.waitForFunction(() => document.querySelectorAll('svg.board2d .stone').length === 3);
    const log = await b.page.$$eval('#log li', (ls) => ls.map((l) => l.textContent));
    assert.ok(log.some((l) => /^\d+\. Red \(.*\) occupied /.test(l ?? '')), log.join('\n'));
    await play(a, 1);
    await play(b, 17);
    await b.page.waitForFunction(() => document.querySelectorAll('svg.board2d .stone').length === 5);
    await c.page.waitForFunction(() => document.querySelectorAll('svg.board2d .stone').length === 5);
    for (const p of [a, b, c]) await p.context.close();
  });

  test('an illegal click shows the reason, and a turn that runs out shows as a Skip', async () => {
    const { page, context } = await newPlayer(browser, server.url);
    await createGame(page, { map: 'square:5', seats: ['open'], settings: { turn_seconds: 3 } });
    const other = await newPlayer(browser, server.url);
    await other.page.goto(page.url());
    await other.page.click('#join-button');
    await waitMyTurn(page);
    await page.click('svg.board2d .hit[data-node="12"]');
    await waitMyTurn(other.page);
    await other.page.click('svg.board2d .hit[data-node="12"]');
    await other.page.waitForSelector('#status[data-error]');
    const reason = await other.page.textContent('#status');
    assert.match(reason ?? '', /Refused: .*(occupied)/i);
    // Nobody moves: the server's clock skips the turn.
    const line = await waitForLog(page, /ran out of time: turn skipped/, 15_000);
    assert.match(line, /^\d+\. White \(.*\) ran out of time/);
    await context.close();
    await other.context.close();
  });

  test('a game on the Goldberg sphere renders in 3-D and takes a click on a node', async () => {
    const { page, context } = await newPlayer(browser, server.url);
    await createGame(page, { map: 'goldberg:2,1', seats: ['bot:1'], settings: { turn_seconds: 0 } });
    await page.waitForSelector('.board3d canvas');
    await waitMyTurn(page);
    // The canvas shows something: many distinct colours, not a blank frame.
    const colours = await page.$eval('.board3d canvas', (c) => {
      const probe = document.createElement('canvas');
      probe.width = 64;
      probe.height = 64;
      const ctx = probe.getContext('2d');
      ctx.drawImage(c, 0, 0, 64, 64);
      const d = ctx.getImageData(0, 0, 64, 64).data;
      const seen = new Set();
      for (let i = 0; i < d.length; i += 4) seen.add(`${d[i] >> 4},${d[i + 1] >> 4},${d[i + 2] >> 4}`);
      return seen.size;
    });
    assert.ok(colours > 5, `the 3-D board drew ${colours} colours`);
    // Click the first node facing the camera.
    const spot = await facingNode(page, 72);
    assert.ok(spot, 'some node faces the camera');
    await page.mouse.click(spot.x, spot.y);
    const line = await waitForLog(page, /^\d+\. Black \(.*\) occupied /);
    assert.ok(line.length > 0);
    await screenshot(page, 'goldberg-3d');
    await context.close();
  });

  test('a torus shows in 3-D and as a flat wrapped grid, and takes a click there', async () => {
    const { page, context } = await newPlayer(browser, server.url);
    await createGame(page, { map: 'torus:5', seats: ['bot:1'], settings: { turn_seconds: 0 } });
    await page.waitForSelector('#board .board3d canvas');
    await page.click('.view-switch button[data-view="wrapped"]');
    await page.waitForSelector('#board svg.board2d');
    assert.equal(await page.$('#board .board3d canvas'), null, 'the 3-D view is gone');
    assert.equal(await page.isVisible('#show-last'), false, 'the flat view shows every node');
    // Each of the 10 wrapping edges of a 5×5 torus is drawn as two stubs off the board.
    assert.equal(await page.$$eval('#board svg.board2d line.stub', (l) => l.length), 20);
    assert.equal(await page.$$eval('#board svg.board2d .hit', (h) => h.length), 25);
    await page.click('#board .hit[data-node="24"]');
    await page.waitForSelector('svg.board2d .stone[data-stone="24"]');
    await screenshot(page, 'torus-flat');
    // Back to 3-D: the stone is there too (the board is redrawn from the same state).
    await page.click('.view-switch button[data-view="3d"]');
    await page.waitForSelector('#board .board3d canvas');
    await context.close();
  });

  test('a cube in 3-D: a solid body, node names, and "show last move" turns the view to the bot\'s reply', async () => {
    const { page, context } = await newPlayer(browser, server.url);
    await createGame(page, { map: 'cube:3', seats: ['bot:1'], settings: { turn_seconds: 0 } });
    await page.waitForSelector('#board .board3d canvas');
    await waitMyTurn(page);
    const clickable = await facingNode(page, 54);
    assert.ok(clickable, 'some node faces the camera');
    await page.mouse.click(clickable.x, clickable.y);
    await waitForLog(page, /^1\. Black \(.*\) occupied /);
    await waitMyTurn(page);
    const reply = await page.evaluate(async () => {
      const id = Number(location.hash.match(/game\/(\d+)/)[1]);
      const r = await (await fetch(`/api/games/${id}/record`)).json();
      return r.actions[r.actions.length - 1].node;
    });
    await page.click('#show-last');
    await page.waitForFunction(() => /^Last move: /.test(document.querySelector('#hover')?.textContent ?? ''));
    // After turning, the reply faces the viewer, near the middle of the canvas.
    const where = await page.evaluate((node) => {
      const canvas = document.querySelector('#board .board3d canvas');
      const p = canvas.gobeyondBoard.screenPosition(node);
      const r = canvas.getBoundingClientRect();
      return p && { dx: Math.abs(p.x - (r.left + r.width / 2)) / r.width, dy: Math.abs(p.y - (r.top + r.height / 2)) / r.height };
    }, reply);
    assert.ok(where, 'the last move is on the visible side');
    assert.ok(where.dx < 0.1 && where.dy < 0.1, `near the centre: ${JSON.stringify(where)}`);
    await screenshot(page, 'cube-3d-last-move');
    await context.close();
  });

  test('a hex board names its nodes, and the names can be switched off', async () => {
    const { page, context } = await newPlayer(browser, server.url);
    await createGame(page, { map: 'hex:3', seats: ['bot:1'], settings: { turn_seconds: 0 } });
    const names = await page.$$eval('#board svg.board2d .node-labels text', (ts) => ts.map((t) => t.textContent));
    const map = await page.evaluate(async () => {
      const id = Number(location.hash.match(/game\/(\d+)/)[1]);
      return (await fetch(`/api/games/${id}/map`)).json();
    });
    assert.deepEqual(names, map.labels);
    await page.uncheck('#pref-labels');
    assert.equal(await page.isVisible('#board svg.board2d .node-labels'), false);
    await page.check('#pref-labels');
    await screenshot(page, 'hex-labels');
    await context.close();
  });

  test('on a phone: status, clock and buttons stay on screen with the board, and a 19×19 board zooms to tappable points', async () => {
    const { page, context } = await newPlayer(browser, server.url, { width: 390, height: 844 });
    await createGame(page, { map: 'square:19', seats: ['bot:1'], settings: { turn_seconds: 20 } });
    await waitMyTurn(page);
    const inView = async (selector) => {
      const box = await page.locator(selector).first().boundingBox();
      return box !== null && box.y >= 0 && box.y + box.height <= 844;
    };
    for (const sel of ["#status", "#clock", "#pass", "#board svg.board2d"]) {
      // The layout settles after the first paint (the game's info arrives): wait for it, bounded.
      await page.waitForFunction((s) => {
        const r = document.querySelector(s)?.getBoundingClientRect();
        return r !== undefined && r.height > 0 && r.top >= 0 && r.bottom <= 844;
      }, sel, { timeout: 10_000 }).catch(() => {});
      assert.ok(await inView(sel), `${sel} is on screen: ${JSON.stringify(await page.locator(sel).first().boundingBox())}`);
    }
    const hitSize = async () => (await page.locator('svg.board2d .hit[data-node="180"]').boundingBox()).width;
    const small = await hitSize();
    assert.ok(small < 25, `unzoomed points are ${small} px`);
    for (let i = 0; i < 3; i++) await page.click('#zoom-in');
    assert.equal(await page.textContent('#zoom-level'), '300 %');
    const big = await hitSize();
    assert.ok(big >= 40, `zoomed points are ${big} px`);
    await page.click('svg.board2d .hit[data-node="180"]');
    await page.waitForSelector('svg.board2d .stone[data-stone="180"]');
    await screenshot(page, 'phone-19x19-zoomed');
    // Scrolled down to the log, the status and buttons are still on screen.
    await page.locator('#log').scrollIntoViewIfNeeded();
    assert.ok(await inView('#status') && await inView('#pass'), 'the play card stays on screen');
    await page.click('#zoom-fit');
    assert.equal(await page.textContent('#zoom-level'), '100 %');
    await context.close();
  });

  test('"Play now against a bot" starts a game with no turn clock: a newcomer who looks away is not timed out', async () => {
    const { page, context } = await newPlayer(browser, server.url, { width: 390, height: 844 }, { hasTouch: true, isMobile: true });
    await page.click('#quick-play');
    await page.waitForURL(/#\/game\/\d+/);
    await page.waitForSelector('#players tbody tr');
    assert.match((await page.textContent('#rules-line')) ?? '', /no turn clock/);
    await context.close();
  });

  test('on a touch phone, a second tap on the same spot confirms that point: nothing moves the board between the taps', async () => {
    const { page, context } = await newPlayer(browser, server.url, { width: 390, height: 844 }, { hasTouch: true, isMobile: true });
    await createGame(page, { map: 'square:19', seats: ['bot:1'], settings: { turn_seconds: 0 } });
    await waitMyTurn(page);
    const node = 'svg.board2d .hit[data-node="60"]';
    const spot = await page.locator(node).boundingBox();
    const board = await page.locator('#board svg.board2d').boundingBox();
    // No empty row kept for the confirmation: the card ends just under its buttons.
    const card = await page.locator('#play-card').boundingBox();
    const actions = await page.locator('#actions').boundingBox();
    assert.ok(card.y + card.height - (actions.y + actions.height) < 30, `the card ends ${card.y + card.height - (actions.y + actions.height)} px under its buttons`);
    await page.tap(node);
    await page.waitForSelector('#confirm-place:not([disabled])');
    const moved = await page.locator('#board svg.board2d').boundingBox();
    assert.deepEqual([moved.x, moved.y], [board.x, board.y], 'the first tap moved the board');
    assert.equal((await page.locator('#play-card').boundingBox()).height, card.height, 'the first tap changed the card');
    await screenshot(page, 'phone-confirm-first-tap');
    // The second tap, where the finger was: the same point, placed.
    await page.touchscreen.tap(spot.x + spot.width / 2, spot.y + spot.height / 2);
    await page.waitForSelector('svg.board2d .stone[data-stone="60"]');
    assert.equal(await page.locator('svg.board2d .stone').count() >= 1, true);
    await context.close();
  });

  test('Tribal Go, casual: the server rolls the dice, the range shows on the board, a stone goes in range', async () => {
    const { page, context } = await newPlayer(browser, server.url);
    await selectRules(page, /^Tribal Go$/);
    await createGame(page, { map: 'square:7', players: 3, seats: ['bot:1', 'bot:1'] });
    assert.match((await page.textContent('#rules-line')) ?? '', /Tribal Go.*range from the dice/);
    await page.waitForFunction(() => /Choose your start point/.test(document.querySelector('#status')?.textContent ?? ''), null, { timeout: 30_000 });
    assert.match((await page.textContent('#log')) ?? '', /rolled \d \+ \d = \d+ for the order/);
    const start = Number(await page.getAttribute('svg.board2d .starts .start.free', 'data-start'));
    await page.click(`svg.board2d .hit[data-node="${start}"]`);
    // The bots may move first: each of their moves opens a reaction window, which closes by
    // itself (we hold no Reject card, so nothing asks for a click).
    await page.waitForFunction(() => /roll the dice, or pass/.test(document.querySelector('#status')?.textContent ?? ''), null, { timeout: 60_000 });
    assert.equal(await page.$('#resign'), null, 'no resigning in Tribal Go');
    await page.click('#roll');
    await page.waitForFunction(() => /You rolled \d and \d: range \d/.test(document.querySelector('#status')?.textContent ?? ''));
    const reachable = await page.$$eval('svg.board2d .hit.reachable', (hs) => hs.map((h) => Number(h.getAttribute('data-node'))));
    assert.ok(reachable.length > 0, 'the range is highlighted');
    assert.ok(await page.isDisabled('#pass'), 'no pass after the roll');
    await screenshot(page, 'tribal-dice');
    await page.click(`svg.board2d .hit[data-node="${reachable[0]}"]`);
    await page.waitForSelector(`svg.board2d .stone[data-stone="${reachable[0]}"]`);
    await waitForLog(page, /played /);
    await context.close();
  });

  test('Tribal Go with cards: a card played, a Reject, and a capture with shared spoils, against two bots', async () => {
    const { page, context } = await newPlayer(browser, server.url);
    // The server's dice and draws fixed in advance (a test hook): the roll-off puts us first, a
    // pair on our first roll draws Move Anywhere, our first pass draws a Reject; every later
    // roll is 6 and 5, so the range covers the small board.
    const dice = [[6, 6], [1, 2], [2, 3], [6, 6], ...Array(300).fill([6, 5])];
    const cards = ['move_anywhere', 'reject', 'reject', 'reject'];
    const rigged = [...dice.map((d) => ({ type: 'dice', dice: d })), ...cards.map((c) => ({ type: 'draw', card: c }))];
    const id = await page.evaluate(async (rigged) => {
      const r = await fetch('/api/games', {
        method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          rules: 'tribal', map: 'square:5', players: 3, rigged,
          seats: [{ kind: 'me' }, { kind: 'bot', level: 1 }, { kind: 'bot', level: 1 }],
          time: { kind: 'fischer', main_seconds: 900, increment_seconds: 10 },
        }),
      });
      return (await r.json()).game.id;
    }, rigged);
    await page.goto(`${server.url}/#/game/${id}`);
    const status = () => page.textContent('#status');
    const waitStatus = (re, timeout = 30_000) =>
      page.waitForFunction((src) => new RegExp(src).test(document.querySelector('#status')?.textContent ?? ''), re.source, { timeout });
    await waitStatus(/Choose your start point/);
    const start = Number(await page.getAttribute('svg.board2d .starts .start.free', 'data-start'));
    await page.click(`svg.board2d .hit[data-node="${start}"]`);
    await waitStatus(/roll the dice, or pass/);
    await page.click('#roll');
    // A pair: a card drawn, playable at once, shown in the hand with its text.
    await page.waitForSelector('#card-move_anywhere');
    assert.match((await page.textContent('#hand')) ?? '', /Move Anywhere.*whatever the range/);
    await screenshot(page, 'tribal-hand');
    await page.click('#card-move_anywhere');
    await waitStatus(/Move Anywhere: place a stone/);
    const map = await mapOf(page, id);
    const board0 = await stones(page);
    const far = [...Array(map.nodes).keys()].find((v) => board0[v] === undefined && v !== start);
    await page.click(`svg.board2d .hit[data-node="${far}"]`);
    await waitForLog(page, /played Move Anywhere/);

    const adj = Array.from({ length: map.nodes }, () => []);
    for (const [a, b] of map.edges) {
      adj[a].push(b);
      adj[b].push(a);
    }
    /** Our best placement: a capture that others share, else any capture, else a stone next to
     *  the bot group with the fewest liberties. */
    const choose = (board, reachable) => {
      let best = null;
      let bestScore = -1;
      for (const v of reachable) {
        if (board[v] !== undefined) continue;
        let score = 0;
        for (const w of adj[v]) {
          const owner = board[w];
          if (owner === undefined || owner === 0) continue;
          const group = [w];
          const libs = new Set();
          const seen = new Set([w]);
          for (let i = 0; i < group.length; i++) {
            for (const q of adj[group[i]]) {
              if (board[q] === undefined && q !== v) libs.add(q);
              else if (board[q] === owner && !seen.has(q)) {
                seen.add(q);
                group.push(q);
              }
            }
          }
          const touching = new Set([0]);
          for (const g of group) for (const q of adj[g]) if (board[q] !== undefined && board[q] !== owner) touching.add(board[q]);
          const s = libs.size === 0 ? (touching.size >= 2 ? 100 : 50) : 10 - libs.size;
          score = Math.max(score, s);
        }
        if (score > bestScore) {
          bestScore = score;
          best = v;
        }
      }
      return best;
    };

    let rejected = false;
    let passed = false;
    let shared = false;
    for (let step = 0; step < 150 && !(rejected && shared); step++) {
      await page.waitForFunction(
        () => document.querySelector('#reject') || document.querySelector('#ranking') ||
          /roll the dice, or pass|You rolled|Place a stone|discard|put one back|Refused/.test(document.querySelector('#status')?.textContent ?? ''),
        null,
        { timeout: 60_000 },
      ).catch(async (e) => {
        const log = await page.$$eval('#log li', (ls) => ls.map((l) => l.textContent ?? ''));
        throw new Error(`${e.message}\nstatus: ${await status()}\nactions: ${await page.textContent('#actions')}\n${log.slice(-15).join('\n')}`);
      });
      if (await page.$('#ranking')) break;
      const lines = await page.$$eval('#log li', (ls) => ls.length);
      const text = (await status()) ?? '';
      if (await page.$('#reject')) {
        if (!rejected) {
          assert.match(text, /Reject the move before the time runs out/);
          assert.match((await page.textContent('#clock')) ?? '', /\d+ s/, 'the answer has a countdown');
          await screenshot(page, 'tribal-reaction');
          await page.click('#reject');
          await waitForLog(page, /rejected .*'s move with Reject: it is undone/);
          rejected = true;
        }
        // Else the move stands when the window runs out: nothing to click.
      } else if (/roll the dice, or pass/.test(text)) {
        if (!passed) {
          passed = true;
          await clickPass(page);
        } else {
          await page.click('#roll');
        }
      } else if (/You rolled/.test(text)) {
        const reachable = await page.$$eval('svg.board2d .hit.reachable', (hs) => hs.map((h) => Number(h.getAttribute('data-node'))));
        const v = choose(await stones(page), reachable);
        if (v === null) await page.click('#forgo');
        else await page.click(`svg.board2d .hit[data-node="${v}"]`);
      } else if (/Refused/.test(text)) {
        // A placement the rules refused (a ko): place nothing this turn.
        await page.click('#forgo');
      } else if (/discard|put one back/.test(text)) {
        await page.click('#actions button');
      }
      // Something happened: a line in the log, or (a window closing quietly) a new status.
      await page.waitForFunction(
        ([n, before]) => document.querySelectorAll('#log li').length > n || document.querySelector('#ranking') ||
          (document.querySelector('#status')?.textContent !== before && !document.querySelector('#actions button[disabled]#reject')),
        [lines, text],
        { timeout: 60_000 },
      );
      const log = await page.$$eval('#log li', (ls) => ls.map((l) => l.textContent ?? ''));
      // Two recipients listed: "captured by A: A +1, B +1 prisoners" (names may hold commas).
      shared = log.some((l) => /captured by .*\+\d+, .*\+\d+ prisoners$/.test(l));
    }
    const log = await page.$$eval('#log li', (ls) => ls.map((l) => l.textContent ?? ''));
    assert.ok(rejected, `a Reject was played:\n${log.join('\n')}`);
    assert.ok(shared, `a capture shared its spoils:\n${log.join('\n')}`);
    assert.ok(!log.some((l) => /drew .*(move|reject|points|trade)/i.test(l)), 'no drawn card is named in the log');
    await context.close();
  });

  test('Tribal Go, Pro: a three-player game against two bots to the end, with the count in the log', async () => {
    const { page, context } = await newPlayer(browser, server.url);
    await selectRules(page, /tribal-pro/);
    await createGame(page, { map: 'square:5', players: 3, seats: ['bot:1', 'bot:1'] });
    for (let turn = 0; turn < 200; turn++) {
      await page.waitForFunction(
        () => /Your turn|Choose your start|Clean-Up|name|over/i.test(document.querySelector('#status')?.textContent ?? '') || document.querySelector('#surrender'),
        null,
        { timeout: 60_000 },
      );
      if (await page.$('#ranking')) break;
      if (await page.$('#surrender')) {
        await page.click('#surrender');
        await page.waitForSelector('#ranking', { timeout: 30_000 });
        break;
      }
      const text = (await page.textContent('#status')) ?? '';
      const lines = await page.$$eval('#log li', (ls) => ls.length);
      if (/Choose your start/.test(text)) {
        const start = Number(await page.getAttribute('svg.board2d .starts .start.free', 'data-start'));
        await page.click(`svg.board2d .hit[data-node="${start}"]`);
      } else if (/Your turn/.test(text)) {
        await clickPass(page);
      }
      // Something happened: a line in the log (our action), or the Clean-Up panel.
      await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n || document.querySelector('#surrender'), lines, { timeout: 60_000 });
    }
    await page.waitForSelector('#ranking');
    const log = await page.$$eval('#log li', (ls) => ls.map((l) => l.textContent ?? ''));
    assert.ok(log.some((l) => /of territory, .* filled in, \d+ left/.test(l)), log.join('\n'));
    assert.ok(log.some((l) => /^Game over: 1\. /.test(l)), log.join('\n'));
    await screenshot(page, 'tribal-pro-end');
    await context.close();
  });

  test('Gengo in two browsers: large stones, a closed space explained, a corner capture, three passes end it', async () => {
    const a = await newPlayer(browser, server.url);
    const b = await newPlayer(browser, server.url);
    await selectRules(a.page, /^Gengo$/);
    const id = await createGame(a.page, { map: 'square:9', seats: ['open'] });
    await b.page.goto(`${server.url}/#/game/${id}`);
    await b.page.click('#join-button');
    // Nodes of square:9 count from the top-left: A1 = 72, B1 = 73, C2 = 65, A4 = 45, E5 = 40.
    await place(a, 72);
    const [disc, hit] = await a.page.evaluate(() => [
      Number(document.querySelector('svg.board2d .stone[data-stone="72"] circle')?.getAttribute('r')),
      Number(document.querySelector('svg.board2d .hit[data-node="72"]')?.getAttribute('r')),
    ]);
    assert.ok(disc > 1.5 * hit, `a Gengo stone covers its neighbours: r ${disc} vs ${hit}`);
    // B1 is inside A1's overlap: tinted, explained on hover, refused with the reason.
    await waitMyTurn(b.page);
    await b.page.waitForSelector('svg.board2d .hit.covered[data-node="73"]');
    await b.page.hover('svg.board2d .hit[data-node="73"]');
    await b.page.waitForFunction(() => /B1: inside the overlap of Black.*'s stones/.test(document.querySelector('#hover')?.textContent ?? ''));
    await b.page.click('svg.board2d .hit[data-node="73"]');
    await b.page.waitForSelector('#status[data-error]');
    assert.match((await b.page.textContent('#status')) ?? '', /B1 is inside the overlap region of a Black stone/);
    // Still White's turn (the status shows the refusal until the next move).
    await b.page.click('svg.board2d .hit[data-node="65"]');
    await b.page.waitForSelector('svg.board2d .stone[data-stone="65"]');
    await place(a, 40);
    await place(b, 45);
    await waitForLog(a.page, /White \(.*\) captured 1 stone \(A1\)/);
    await a.page.waitForFunction(() => !document.querySelector('svg.board2d .stone[data-stone="72"]'));
    await a.page.hover('svg.board2d .hit[data-node="65"]');
    await a.page.waitForFunction(() => /C2: White.*'s stone · a group of 1 stone with \d+ liberties/.test(document.querySelector('#hover')?.textContent ?? ''));
    // Its liberties are marked on the board while the pointer is on it.
    const said = Number(/with (\d+) liberties/.exec((await a.page.textContent('#hover')) ?? '')?.[1]);
    assert.equal(await a.page.$$eval('svg.board2d .hit.liberty', (ls) => ls.length), said);
    await pass(a);
    await pass(b);
    await waitMyTurn(a.page);
    await clickPass(a.page);
    await a.page.waitForSelector('#ranking');
    await b.page.waitForSelector('#ranking');
    const headers = await a.page.$$eval('#players thead th', (ths) => ths.map((t) => t.textContent ?? ''));
    assert.ok(headers.includes('Stones') && headers.includes('Area'), headers.join(', '));
    // White has two stones to Black's one: White wins on stones.
    const log = await a.page.$$eval('#log li', (ls) => ls.map((l) => l.textContent ?? ''));
    assert.ok(log.some((l) => /Game over: 1\. White.* \(2\), 2\. Black.* \(1\)/.test(l)), log.join('\n'));
    await screenshot(a.page, 'gengo-end');
    for (const p of [a, b]) await p.context.close();
  });

  test('Gengo against a bot: open spaces only, to a capture, then passes to the end', async () => {
    const { page, context } = await newPlayer(browser, server.url);
    await selectRules(page, /^Gengo$/);
    await createGame(page, { map: 'square:7', seats: ['bot:1'] });
    let captured = false;
    for (let turn = 0; turn < 60; turn++) {
      await page.waitForFunction(
        () => /Your turn|over/i.test(document.querySelector('#status')?.textContent ?? '') || document.querySelector('#ranking'),
        null,
        { timeout: 60_000 },
      );
      if (await page.$('#ranking')) break;
      const log = await page.$$eval('#log li', (ls) => ls.map((l) => l.textContent ?? ''));
      captured ||= log.some((l) => /captured \d+ stones? \(|lost \d+ stones? of their own/.test(l));
      // Until a capture: a stone on an open space (neither covered nor taken), near the bot's
      // stones when possible; then passes.
      const open = await page.$$eval('svg.board2d .hit:not(.covered):not(.occupied)', (hs) => hs.map((h) => Number(h.getAttribute('data-node'))));
      const lines = log.length;
      if (!captured && open.length > 0) {
        const node = open[(turn * 7) % open.length];
        await page.click(`svg.board2d .hit[data-node="${node}"]`);
      } else {
        await clickPass(page);
      }
      await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n || document.querySelector('#ranking'), lines, { timeout: 60_000 });
    }
    await page.waitForSelector('#ranking', { timeout: 60_000 });
    const log = await page.$$eval('#log li', (ls) => ls.map((l) => l.textContent ?? ''));
    assert.ok(captured, log.join('\n'));
    assert.ok(log.some((l) => /Game over: 1\. /.test(l)), log.join('\n'));
    await context.close();
  });

  /** Waits until `page`'s status line matches `re`. */
  async function waitStatus(page, re, timeout = 30_000) {
    await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('#status')?.textContent ?? ''), re.source, { timeout });
  }
  const hit = (node) => `svg.board2d .hit[data-node="${node}"]`;
  const stone = (node) => `svg.board2d .stone[data-stone="${node}"]`;

  test('The Way of Go in two browsers: the pie, the choice of White, a capture by landing', async () => {
    const a = await newPlayer(browser, server.url);
    const b = await newPlayer(browser, server.url);
    await selectRules(a.page, /^The Way of Go$/);
    const id = await createGame(a.page, { map: 'square:9', seats: ['open'] });
    await b.page.goto(`${server.url}/#/game/${id}`);
    await b.page.click('#join-button');
    // square:9 counts from the top-left: E3 = 58, C3 = 56, E7 = 22, H8 = 16.
    await waitStatus(a.page, /The pie: click an empty node for Black \(1 of 2\)/);
    for (const [n, next] of [[58, /Black \(2 of 2\)/], [56, /White \(1 of 1\)/]]) {
      await a.page.click(hit(n));
      await a.page.waitForSelector(stone(n));
      await waitStatus(a.page, next);
    }
    await a.page.click(hit(22));
    // Seat 2 chooses White, and with it the first move, in a dialog.
    await waitStatus(b.page, /Choose your side/);
    assert.match((await b.page.textContent('#pie-dialog')) ?? '', /placed the pie: 2 Black stones and 1 White stone/);
    assert.equal(await a.page.$('#pie-dialog'), null, 'only the choosing seat sees the dialog');
    await b.page.click('#pie-dialog #side-white');
    await b.page.waitForFunction(() => !document.querySelector('#pie-dialog'));
    await waitStatus(b.page, /Your turn: click an empty node to drop/);
    // The pie's White stone is drawn white although seat 1 placed it, and seat 2 owns it now.
    assert.match((await b.page.getAttribute(stone(22), 'class')) ?? '', /\bp1\b/);
    assert.match((await b.page.getAttribute(stone(58), 'class')) ?? '', /\bp0\b/);
    // E7 has four liberties: picking it shows its four-step destinations, E3's Black stone
    // ringed as a capture.
    await b.page.hover(hit(22));
    await b.page.waitForFunction(() => /E7: White.*'s stone · range 4/.test(document.querySelector('#hover')?.textContent ?? ''));
    await b.page.click(hit(22));
    await b.page.waitForSelector(`${stone(58)} .target-ring`);
    await waitStatus(b.page, /Moving a stone from E7 \(range 4\)/);
    const greens = await b.page.$$eval('svg.board2d .hit.reachable', (hs) => hs.map((h) => Number(h.getAttribute('data-node'))).sort((x, y) => x - y));
    assert.deepEqual(greens, [18, 26], 'A7 and J7 are the moves; E3 is the capture');
    await b.page.click(hit(58));
    await waitForLog(b.page, /White \(.*\) captured at E3 from E7: 1 stone taken, 1 of its own sacrificed/);
    await b.page.waitForFunction(() => !document.querySelector('svg.board2d .stone[data-stone="58"]') && !document.querySelector('svg.board2d .stone[data-stone="22"]'));
    const row = await a.page.textContent('#players tbody tr[data-seat="1"]');
    assert.match(row ?? '', /1 of 5/, 'captures against the contract');
    // Black's turn: a drop, then the optional move is declined.
    await waitStatus(a.page, /Your turn: click an empty node to drop/);
    await a.page.click(hit(16));
    await a.page.waitForSelector(stone(16));
    await waitStatus(a.page, /Move another of your stones/);
    await a.page.click('#end-turn');
    await waitStatus(b.page, /Your turn/);
    await screenshot(a.page, 'way-of-go');
    for (const p of [a, b]) await p.context.close();
  });

  test('BeSiege in two browsers: neutral drops shown, a stack built by a move, then split', async () => {
    const a = await newPlayer(browser, server.url);
    const b = await newPlayer(browser, server.url);
    await selectRules(a.page, /^BeSiege$/);
    const id = await createGame(a.page, { map: 'square:9', seats: ['open'] });
    await b.page.goto(`${server.url}/#/game/${id}`);
    await b.page.click('#join-button');
    // C5 = 38, J5 = 44, A9 = 0, H1 = 79, C6 = 29, J8 = 17, G5 = 42.
    await waitStatus(a.page, /The pie/);
    await a.page.click(hit(38));
    await a.page.waitForSelector(stone(38));
    // C5 (range 4) attacks G5: not neutral, so the pie may not go there.
    await a.page.hover(hit(42));
    await a.page.waitForFunction(() => /G5: attacked by Black — no drop here/.test(document.querySelector('#hover')?.textContent ?? ''));
    await a.page.click(hit(42));
    await a.page.waitForSelector('#status[data-error]');
    assert.match((await a.page.textContent('#status')) ?? '', /G5 is attacked/);
    await a.page.click(hit(44));
    await a.page.waitForSelector(stone(44));
    await a.page.click(hit(0));
    await waitStatus(b.page, /Choose your side/);
    await b.page.click('#side-white');
    // White drops on a neutral node (attacked ones are tinted) and ends the turn.
    await waitStatus(b.page, /Your turn: drop on a neutral node \(not tinted\)/);
    await b.page.click(hit(79));
    await b.page.waitForSelector(stone(79));
    await b.page.click('#end-turn');
    // Black drops C6 next to C5: their group has six liberties, so C5 now reaches J5, its own
    // stone — a stack.
    await waitStatus(a.page, /Your turn/);
    await a.page.click(hit(29));
    await a.page.waitForSelector(stone(29));
    await waitStatus(a.page, /Move another of your stones/);
    await a.page.click(hit(38));
    await a.page.waitForSelector(`${hit(44)}.reachable`);
    await a.page.click(hit(44));
    await a.page.waitForSelector(`${stone(44)} text.height`);
    assert.equal(await a.page.textContent(`${stone(44)} text.height`), '2');
    await waitForLog(a.page, /moved a stone C5–J5 onto its own stack/);
    // White drops anywhere neutral and ends the turn.
    await waitStatus(b.page, /Your turn/);
    const neutral = await b.page.$$eval('svg.board2d .hit:not(.covered):not(.occupied)', (hs) => hs.map((h) => Number(h.getAttribute('data-node'))));
    await b.page.click(hit(neutral[0]));
    await b.page.waitForSelector(stone(neutral[0]));
    await b.page.click('#end-turn');
    // Black splits the stack: a click picks both stones, a second click lifts only the top one,
    // whose level has three free neighbours: J8 is three steps up.
    await waitStatus(a.page, /Your turn/);
    await a.page.click(hit(44));
    await waitStatus(a.page, /Moving 2 of 2 stones from J5/);
    await a.page.click(hit(44));
    await waitStatus(a.page, /Moving 1 of 2 stones from J5 \(range 3\)/);
    await a.page.click(hit(17));
    await a.page.waitForSelector(stone(17));
    await a.page.waitForFunction(() => !document.querySelector('svg.board2d .stone[data-stone="44"] text.height'));
    await waitForLog(a.page, /moved a stone J5–J8/);
    // The drop must follow, on a neutral node.
    await waitStatus(a.page, /Now drop a stone/);
    const drops = await a.page.$$eval('svg.board2d .hit:not(.covered):not(.occupied)', (hs) => hs.map((h) => Number(h.getAttribute('data-node'))));
    await a.page.click(hit(drops[0]));
    await waitStatus(b.page, /Your turn/);
    await screenshot(a.page, 'besiege');
    for (const p of [a, b]) await p.context.close();
  });

  test('a finished game can be reviewed and exported', async () => {
    const { page, context } = await newPlayer(browser, server.url);
    const id = await createGame(page, { map: 'square:5', seats: ['bot:1'], settings: { turn_seconds: 0 } });
    for (const node of [6, 8]) {
      await waitMyTurn(page);
      await page.click(`svg.board2d .hit[data-node="${node}"]`);
      await page.waitForSelector(`svg.board2d .stone[data-stone="${node}"]`);
    }
    await waitMyTurn(page);
    page.once('dialog', (d) => d.accept());
    await page.click('#resign');
    await page.waitForSelector('#ranking');
    const ranking = await page.$$eval('#ranking tbody tr', (rs) => rs.map((r) => r.textContent));
    assert.match(ranking[0] ?? '', /^1\s*White \(bot, level 1\)/);
    assert.match(ranking[1] ?? '', /\(resigned\)/, 'the ranking says how the game ended for the loser');
    assert.match((await page.textContent('#banner')) ?? '', /You lost/);
    assert.equal(await page.isVisible('#place-form'), false, 'no input field in a finished game');
    // A rematch against the bot: a new game, colours changed hands (the bot is Black now).
    const before = page.url();
    await page.click('#rematch');
    await page.waitForFunction((old) => location.href !== old && /#\/game\/\d+$/.test(location.href), before);
    await page.waitForSelector('#players tbody tr');
    assert.match((await page.textContent('#players tbody tr[data-seat="0"]')) ?? '', /bot, level 1/);
    await page.goto(before.replace(/#.*/, `#/game/${id}`));
    await page.waitForSelector('#ranking');
    await page.click('#review-link');
    await page.waitForSelector('#where');
    const total = Number((await page.textContent('#where'))?.split('/')[1]);
    assert.ok(total >= 5, `the game has ${total} actions`);
    await page.waitForFunction((t) => document.querySelector('#where')?.textContent === `${t} / ${t}`, total);
    await page.keyboard.press('Home');
    await page.waitForFunction(() => document.querySelector('#where')?.textContent?.startsWith('0 /'));
    assert.equal((await stones(page)) && Object.keys(await stones(page)).length, 0);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('#where')?.textContent?.startsWith('1 /'));
    assert.deepEqual(await stones(page), { 6: 0 });
    await screenshot(page, 'review');
    const record = await page.evaluate(async (href) => (await fetch(href)).json(), await page.getAttribute('#export-json', 'href'));
    assert.equal(record.actions.length, total);
    assert.equal(record.actions.at(-1).type, 'resign');
    assert.equal(id > 0, true);
    await context.close();
  });

  test('Clean-Up: surrender a group by clicking it, then the final ranking', async () => {
    const a = await newPlayer(browser, server.url);
    await createGame(a.page, { map: 'square:5', seats: ['open'], settings: { turn_seconds: 0, cleanup_seconds: 0 } });
    const b = await newPlayer(browser, server.url);
    await b.page.goto(a.page.url());
    await b.page.click('#join-button');
    // Black A5 and B5 (one group), White E1; then three passes start Clean-Up.
    await place(a, 0);
    await place(b, 24);
    await place(a, 1);
    for (const p of [b, a, b]) await pass(p);
    await a.page.waitForSelector('#cleanup:not([hidden]) #surrender');
    await a.page.click('svg.board2d .hit[data-node="0"]');
    // One click selects the whole group.
    await a.page.waitForFunction(() => document.querySelector('#surrender')?.textContent === 'Surrender 2 stones');
    await screenshot(a.page, 'cleanup');
    await a.page.click('#surrender');
    await b.page.waitForFunction(() => /surrenders A5, B5/.test(document.querySelector('#cleanup')?.textContent ?? ''));
    await b.page.click('#surrender');
    for (const p of [a, b]) await p.page.waitForSelector('#ranking');
    const ranking = await b.page.$$eval('#ranking tbody tr', (rs) => rs.map((r) => r.textContent));
    assert.match(ranking[0] ?? '', /^1\s*White/);
    await waitForLog(a.page, /^2 stones of Black .* removed: White \(.*\) \+20/);
    for (const p of [a, b]) await p.context.close();
  });

  test('classic Go: the dead-stone phase with a disagreement, a resumption, then agreement', async () => {
    const a = await newPlayer(browser, server.url);
    await a.page.waitForSelector('#rules');
    const japanese = await a.page.$$eval('#rules option', (os) => os.find((o) => /japanese/.test(o.textContent ?? ''))?.value);
    await createGame(a.page, { map: 'square:5', seats: ['open'], rules: japanese });
    const b = await newPlayer(browser, server.url);
    await b.page.goto(a.page.url());
    await b.page.click('#join-button');
    // Black A5, White E1; two passes end play.
    await place(a, 0);
    await place(b, 24);
    await pass(a);
    await pass(b);
    await a.page.waitForSelector('#cleanup:not([hidden]) #accept-dead');
    await a.page.waitForFunction(() => /agree on the dead stones/.test(document.querySelector('#status')?.textContent ?? ''));
    // Black marks White's E1 dead by clicking it; White disagrees and resumes play.
    await a.page.click('svg.board2d .hit[data-node="24"]');
    await b.page.waitForFunction(() => /Marked dead: E1/.test(document.querySelector('#dead-list')?.textContent ?? ''));
    assert.equal(await b.page.isVisible('#place-form'), false, 'no placing while agreeing on dead stones');
    await screenshot(b.page, 'dead-stones');
    await b.page.click('#resume-play');
    // Black moves next; then two passes again, and both accept the server's proposal.
    await place(a, 1);
    await pass(b);
    await pass(a);
    for (const p of [a, b]) await p.page.waitForSelector('#cleanup:not([hidden]) #accept-dead');
    await a.page.waitForFunction(() => /Marked dead:/.test(document.querySelector('#dead-list')?.textContent ?? ''));
    await a.page.click('#accept-dead');
    await b.page.waitForFunction(() => /accepted/.test(document.querySelector('#cleanup')?.textContent ?? ''));
    await b.page.click('#accept-dead');
    for (const p of [a, b]) await p.page.waitForSelector('#ranking');
    await waitForLog(a.page, /resumed play/);
    for (const p of [a, b]) await p.context.close();
  });

  test('my games lists a finished game, and the lobby lists follow new games by themselves', async () => {
    const a = await newPlayer(browser, server.url);
    const id = await createGame(a.page, { map: 'square:5', seats: ['bot:1'], settings: { turn_seconds: 0 } });
    await waitMyTurn(a.page);
    a.page.once('dialog', (d) => d.accept());
    await a.page.click('#resign');
    await a.page.waitForSelector('#ranking');
    await a.page.click('text=Lobby');
    await a.page.waitForSelector(`#my-games li[data-game="${id}"]`);
    assert.match((await a.page.textContent(`#my-games li[data-game="${id}"]`)) ?? '', /Review/);
    // Another player creates an open game: A's lobby shows it without a reload.
    const b = await newPlayer(browser, server.url);
    const other = await createGame(b.page, { map: 'square:7', seats: ['open'] });
    await a.page.waitForSelector(`#open-games li[data-game="${other}"]`, { timeout: 20_000 });
    for (const p of [a, b]) await p.context.close();
  });

  test('an invitation: the creator copies the link, a second browser joins through it', async () => {
    const a = await newPlayer(browser, server.url);
    const id = await createGame(a.page, { map: 'square:5', seats: ['invite'] });
    const link = await (await a.page.waitForSelector('#invite-link')).inputValue();
    assert.match(link, new RegExp(`#/game/${id}\\?invite=`));
    assert.match((await a.page.textContent('#players')) ?? '', /waiting for an invited player/);
    // Not in the open list, and not joinable without the link.
    const b = await newPlayer(browser, server.url);
    await b.page.waitForSelector('#open-games');
    assert.equal(await b.page.$(`#open-games li[data-game="${id}"]`), null);
    await b.page.goto(link);
    await b.page.click('#join-button');
    await b.page.waitForFunction(() => /Your turn|to play/.test(document.querySelector('#status')?.textContent ?? ''));
    await a.page.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn.');
    // A third browser watches: it is told so and gets no play controls.
    const c = await newPlayer(browser, server.url);
    await c.page.goto(a.page.url().split('?')[0]);
    await c.page.waitForSelector('#watching:not([hidden])');
    assert.equal(await c.page.isVisible('#place-form'), false);
    assert.equal(await c.page.$('#pass'), null);
    assert.match((await c.page.textContent('#rules-line')) ?? '', /GoBeyond/);
    for (const p of [a, b, c]) await p.context.close();
  });

  test('a rated game between two accounts changes both ratings, shown in the game and on the profiles', async () => {
    const suffix = String(Date.now() % 1e6);
    const a = await newPlayer(browser, server.url);
    const b = await newPlayer(browser, server.url);
    await register(a, `ada${suffix}`);
    await register(b, `bob${suffix}`);
    await a.page.check('#rated');
    const id = await createGame(a.page, { map: 'square:5', seats: ['open'] });
    assert.match((await a.page.textContent('#rules-line')) ?? '', /· rated ·/);
    await b.page.waitForSelector(`#open-games li[data-game="${id}"] .tag`, { timeout: 20_000 });
    await b.page.click(`#open-games li[data-game="${id}"] button`);
    await b.page.waitForURL(/#\/game\/\d+/);
    await a.page.waitForSelector('[data-rating-seat="1"]');
    assert.match((await a.page.textContent('[data-rating-seat="0"]')) ?? '', /1500\?/);
    // Two moves each: a rated game that ends sooner is aborted and changes no rating.
    await a.page.waitForFunction(() => /Your turn|to play/.test(document.querySelector('#status')?.textContent ?? ''));
    const aFirst = (await a.page.textContent('#status')) === 'Your turn.';
    const [first, second] = aFirst ? [a, b] : [b, a];
    for (const [p, node] of [[first, 6], [second, 8], [first, 16], [second, 18]]) await place(p, node);
    await waitMyTurn(b.page).catch(() => undefined);
    b.page.once('dialog', (d) => d.accept());
    await b.page.click('#resign');
    // Both see what the game changed: A gained, B lost.
    await a.page.waitForFunction(() => /\+\d+/.test(document.querySelector('[data-rating-seat="0"]')?.textContent ?? ''));
    await a.page.waitForFunction(() => /−\d+/.test(document.querySelector('[data-rating-seat="1"]')?.textContent ?? ''));
    await screenshot(a.page, 'rated-game-over');
    // A's profile: the rating, its history chart and the game.
    await a.page.click('#whoami a');
    await a.page.waitForSelector('#player-page .rating-chart');
    const gained = Number((await a.page.textContent('#player-page .rating-value'))?.replace('?', ''));
    assert.ok(gained > 1500, `A's rating ${gained}`);
    assert.match((await a.page.textContent('#rating-history')) ?? '', new RegExp(`#${id}`));
    // Wins and losses per system and number of players, and the game with its opponent.
    assert.equal(await a.page.textContent('#player-record tr[data-players="2"] .won'), '1');
    assert.match((await a.page.textContent(`#player-games li[data-game="${id}"]`)) ?? '', new RegExp(`against bob${suffix}.*won`));
    await screenshot(a.page, 'player-profile');
    await b.page.goto(`${server.url}/#/player/bob${suffix}`);
    await b.page.waitForSelector('#player-page .rating-value');
    assert.ok(Number((await b.page.textContent('#player-page .rating-value'))?.replace('?', '')) < 1500);
    assert.equal(await b.page.textContent('#player-record tr[data-players="2"] .lost'), '1');
    for (const p of [a, b]) await p.context.close();
  });

  test('undo by request: one declined, one accepted, in two browsers', async () => {
    const a = await newPlayer(browser, server.url);
    const id = await createGame(a.page, { map: 'square:5', seats: ['invite'], settings: { turn_seconds: 0 } });
    const link = await (await a.page.waitForSelector('#invite-link')).inputValue();
    const b = await newPlayer(browser, server.url);
    await b.page.goto(link);
    await b.page.click('#join-button');
    // Whoever moves first places a stone and asks to take it back.
    await a.page.waitForFunction(() => /Your turn|to play/.test(document.querySelector('#status')?.textContent ?? ''));
    const aFirst = (await a.page.textContent('#status')) === 'Your turn.';
    const [first, second] = aFirst ? [a, b] : [b, a];
    await place(first, 12);
    await first.page.click('#undo');
    await first.page.waitForSelector('#undo-waiting');
    await second.page.waitForSelector('#undo-decline');
    await screenshot(second.page, 'undo-request');
    await second.page.click('#undo-decline');
    await first.page.waitForSelector('#undo-box', { state: 'hidden' });
    assert.ok(await first.page.$('svg.board2d .stone[data-stone="12"]'), 'the move stands');
    // The declined undo cannot be asked again: the button says so instead of offering it.
    await first.page.waitForSelector('#undo[disabled]');
    assert.match((await first.page.getAttribute('#undo', 'title')) ?? '', /declined/);
    // The second player moves, the first moves again and asks: accepted this time.
    await place(second, 6);
    await place(first, 18);
    await first.page.click('#undo');
    await second.page.click('#undo-accept');
    await first.page.waitForSelector('svg.board2d .stone[data-stone="18"]', { state: 'detached' });
    await second.page.waitForSelector('svg.board2d .stone[data-stone="18"]', { state: 'detached' });
    await waitMyTurn(first.page);
    assert.ok(await first.page.$('svg.board2d .stone[data-stone="12"]'));
    assert.ok(await first.page.$('svg.board2d .stone[data-stone="6"]'));
    const record = await first.page.evaluate(async (id) => (await fetch(`/api/games/${id}/record`)).json(), id);
    assert.equal(record.actions.length, 2);
    for (const p of [a, b]) await p.context.close();
  });

  test('the review page follows quick key presses', async () => {
    const { page, context } = await newPlayer(browser, server.url);
    await createGame(page, { map: 'square:5', seats: ['bot:1'], settings: { turn_seconds: 0 } });
    for (const node of [6, 8, 16, 18]) {
      await waitMyTurn(page);
      await page.click(`svg.board2d .hit[data-node="${node}"]`);
      await page.waitForSelector(`svg.board2d .stone[data-stone="${node}"]`);
    }
    await waitMyTurn(page);
    page.once('dialog', (d) => d.accept());
    await page.click('#resign');
    await page.waitForSelector('#ranking');
    await page.click('#review-link');
    await page.waitForSelector('#where');
    await page.keyboard.press('Home');
    await page.waitForFunction(() => document.querySelector('#where')?.textContent?.startsWith('0 /'));
    for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('#where')?.textContent?.startsWith('7 /'));
    await context.close();
  });

  test('the server restarts in mid-game: the page reconnects by itself and play goes on', async () => {
    const a = await newPlayer(browser, server.url);
    await createGame(a.page, { map: 'square:5', seats: ['open'], settings: { turn_seconds: 0 } });
    const b = await newPlayer(browser, server.url);
    await b.page.goto(a.page.url());
    await b.page.click('#join-button');
    await waitMyTurn(a.page);
    await a.page.click('svg.board2d .hit[data-node="12"]');
    await b.page.waitForSelector('svg.board2d .stone[data-stone="12"]');
    await server.restart();
    await a.page.waitForFunction(() => document.querySelector('#connection')?.textContent?.includes('connected'), null, { timeout: 20_000 });
    await b.page.waitForFunction(() => document.querySelector('#connection')?.textContent?.includes('connected'), null, { timeout: 20_000 });
    await waitMyTurn(b.page);
    await b.page.click('svg.board2d .hit[data-node="6"]');
    // A sees B's move, made after the restart, without reloading.
    await a.page.waitForSelector('svg.board2d .stone[data-stone="6"]');
    assert.deepEqual(await stones(a.page), { 12: 0, 6: 1 });
    for (const p of [a, b]) await p.context.close();
  });

  test('the lab page lists the reports the server keeps and shows one', async () => {
    const { page, context } = await newPlayer(browser, server.url);
    await page.goto(`${server.url}/#/lab`);
    await page.waitForSelector('#lab-empty');
    // A real report, made by the program: the life table of Go on 9×9.
    execFileSync(binary, ['lab', 'life', '--map', 'square:9', '--limit', '9', '--html', `${server.reports}/go-life-9x9.html`], { stdio: 'ignore' });
    await page.reload();
    await page.waitForSelector('#lab-reports tr[data-report="go-life-9x9.html"]');
    await page.click('#lab-reports tr[data-report="go-life-9x9.html"] a');
    await page.waitForSelector('#lab-frame');
    const frame = page.frameLocator('#lab-frame');
    await frame.locator('h1').waitFor();
    assert.match((await frame.locator('body').textContent()) ?? '', /corner/i);
    assert.equal(await page.getAttribute('#lab-frame', 'sandbox'), '', 'the report runs sandboxed');
    await screenshot(page, 'lab-report');
    // Names that would leave the directory are refused.
    const r = await page.evaluate(async () => (await fetch('/api/lab/reports/..%2Fe2e.db')).status);
    assert.equal(r, 400);
    await context.close();
  });

  test('the rules for players: diagrams per rule system, the full documents one click away, and a gentle first game', async () => {
    const { page, context } = await newPlayer(browser, server.url);
    await page.goto(`${server.url}/#/rules/gobeyond`);
    await page.waitForSelector('#rules-guide h1');
    assert.match((await page.textContent('#rules-guide h1')) ?? '', /How to play GoBeyond/);
    assert.match((await page.textContent('#rules-guide')) ?? '', /Skip or Pass/);
    // The capture diagram: before, White's two stones; after, the capturing stone marked.
    const diagrams = await page.$$('#rules-guide figure.diagram svg.board2d');
    assert.ok(diagrams.length >= 3, `${diagrams.length} diagrams`);
    assert.doesNotMatch((await page.textContent('#rules-guide')) ?? '', /crates\/|\.rs\b|JSON/, 'no developer words');
    await screenshot(page, 'rules-gobeyond');
    await page.click('a[href="#/rules/classic"]');
    await page.waitForFunction(() => /How to play Classic/i.test(document.querySelector('#rules-guide h1')?.textContent ?? ''));
    await page.click('#rules-reference');
    await page.waitForSelector('#rules-doc h1');
    assert.match((await page.textContent('#rules-doc h1')) ?? '', /Classic/i);
    await page.goto(`${server.url}/#/rules/tribal`);
    await page.waitForFunction(() => /How to play Tribal Go/.test(document.querySelector('#rules-guide h1')?.textContent ?? ''));
    assert.match((await page.textContent('#rules-guide')) ?? '', /spoils/i);
    await page.goto(`${server.url}/#/rules/gengo`);
    await page.waitForFunction(() => /How to play Gengo/.test(document.querySelector('#rules-guide h1')?.textContent ?? ''));
    assert.match((await page.textContent('#rules-guide')) ?? '', /friendly fire/i);
    // Its diagrams draw the stones at their size, with the spaces they cover tinted.
    assert.ok((await page.$$('#rules-guide figure.diagram svg.board2d .covered')).length >= 8);
    await screenshot(page, 'rules-gengo');
    // The Way of Go: destinations in green, a capture ringed; BeSiege: a stack's height written.
    await page.goto(`${server.url}/#/rules/way-of-go`);
    await page.waitForFunction(() => /How to play The Way of Go/.test(document.querySelector('#rules-guide h1')?.textContent ?? ''));
    assert.match((await page.textContent('#rules-guide')) ?? '', /sacrificed/i);
    assert.ok((await page.$$('#rules-guide figure.diagram svg.board2d .hit.reachable')).length >= 8);
    assert.equal((await page.$$('#rules-guide figure.diagram svg.board2d .target-ring')).length, 1);
    await page.goto(`${server.url}/#/rules/besiege`);
    await page.waitForFunction(() => /How to play BeSiege/.test(document.querySelector('#rules-guide h1')?.textContent ?? ''));
    assert.deepEqual(await page.$$eval('#rules-guide svg.board2d text.height', (ts) => ts.map((t) => t.textContent)), ['3', '2']);
    await screenshot(page, 'rules-besiege');
    // A first game: 9×9 against the gentlest bot, no clock, tips on the page.
    await page.goto(`${server.url}/#/`);
    await page.click('#first-game');
    await page.waitForURL(/#\/game\/\d+/);
    await page.waitForSelector('#first-game-tips');
    assert.match((await page.textContent('#rules-line')) ?? '', /Classic/);
    assert.equal(await page.textContent('#clock'), '', 'no clock');
    await waitMyTurn(page);
    assert.equal(await page.$$eval('svg.board2d .hit', (h) => h.length), 81);
    await page.click('#first-game-tips a[href^="#/rules/"]');
    await page.waitForSelector('#rules-guide');
    await context.close();
  });
});
