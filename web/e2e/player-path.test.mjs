// End-to-end: the new player's path of issue 41 (web client) — what a player meets on a first
// visit, signing in, chatting, keys, passes that end play, the players table, the rules pages
// and the 3-D view, on a desktop and a phone.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browser, clickPass, gameId, newPlayer, register, screenshot, server, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

const PHONE = [{ width: 390, height: 844 }, { hasTouch: true, isMobile: true, deviceScaleFactor: 2 }];

/** Creates a game through the API as the page's player and opens it; returns its id. */
async function openGame(page, body) {
  const r = await page.evaluate(async (body) => {
    const res = await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  }, { players: 2, ...body });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const id = r.body.game.id;
  await page.goto(`${server.url}/#/game/${id}`);
  await page.waitForSelector('#players tbody tr');
  return id;
}

/** A second browser joins the game `a` is on. */
async function joined(a) {
  const b = await newPlayer(browser, server.url);
  await b.page.goto(a.page.url());
  await b.page.click('#join-button');
  await b.page.waitForFunction(() => /Your turn|to play/.test(document.querySelector('#status')?.textContent ?? ''));
  return b;
}

const myTurn = (page) => page.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn.', null, { timeout: 60_000 });
const headers = (page) => page.$$eval('#players thead th', (ths) => ths.map((t) => t.textContent ?? ''));
const logLines = (page) => page.$$eval('#log li', (ls) => ls.map((l) => l.textContent ?? ''));

describe('the new player\'s path', { timeout: 300_000 }, () => {
  test('a first visit makes a guest without an error response or a console error', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const failures = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failures.push(`${r.status()} ${r.url()}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error') failures.push(`console: ${m.text()}`);
    });
    await page.goto(server.url);
    await page.waitForSelector('#me-name');
    assert.match((await page.textContent('#me-name')) ?? '', /^guest-/);
    await page.reload();
    await page.waitForSelector('#me-name');
    assert.deepEqual(failures, []);
    await context.close();
  });

  test('Enter in the sign-in form signs a returning player in', async () => {
    const name = `rita${Date.now() % 1e6}`;
    const a = await newPlayer(browser, server.url);
    await a.page.click('details.account summary');
    await a.page.fill('details.account input[name="name"]', name);
    await a.page.fill('details.account input[name="password"]', 'correct horse');
    await a.page.click('#register');
    await a.page.waitForFunction((n) => document.querySelector('#me-name')?.textContent === n, name);
    await a.context.close();
    // Another day, another browser: name, password, Enter.
    const b = await newPlayer(browser, server.url);
    await b.page.click('details.account summary');
    await b.page.fill('details.account input[name="name"]', name);
    await b.page.fill('details.account input[name="password"]', 'correct horse');
    await b.page.press('details.account input[name="password"]', 'Enter');
    await b.page.waitForFunction((n) => document.querySelector('#me-name')?.textContent === n, name);
    await b.context.close();
  });

  test('the rules pages show players no code paths, and the lab is a designers\' link, not in the navigation', async () => {
    const { page, context } = await newPlayer(browser, server.url);
    assert.deepEqual(await page.$$eval('header nav a', (as) => as.map((a) => a.textContent)), ['Lobby', 'Tournaments', 'Rules']);
    assert.ok(await page.isVisible('footer #lab-link'), 'the lab stays one click away for designers');
    const systems = await page.evaluate(async () => (await (await fetch('/api/rules')).json()).systems.map((s) => s.name));
    for (const system of systems) {
      await page.goto(`${server.url}/#/rules/${system}/reference`);
      await page.waitForSelector('#rules-doc h1');
      const text = (await page.textContent('#rules-doc')) ?? '';
      for (const word of ['crates/', 'shared/', 'web/src', '.rs']) assert.ok(!text.includes(word), `${system}'s page shows ${word}`);
    }
    await page.goto(`${server.url}/#/rules/gobeyond/reference`);
    await page.waitForSelector('#rules-doc h1');
    await screenshot(page, 'player-path-rules-reference');
    await context.close();
  });

  test('an untimed game has no Time column; a timed one has', async () => {
    const { page, context } = await newPlayer(browser, server.url, ...PHONE);
    await openGame(page, { rules: 'chinese', map: 'square:9', seats: [{ kind: 'me' }, { kind: 'bot', level: 1 }], time: { kind: 'none' } });
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn.');
    assert.ok(!(await headers(page)).includes('Time'), `no Time column: ${await headers(page)}`);
    await screenshot(page, 'player-path-untimed-phone');
    await openGame(page, { rules: 'chinese', map: 'square:9', seats: [{ kind: 'me' }, { kind: 'bot', level: 1 }], time: { kind: 'fischer', main_seconds: 600, increment_seconds: 10 } });
    await page.waitForFunction(() => [...document.querySelectorAll('#players thead th')].some((t) => t.textContent === 'Time'));
    await context.close();
  });

  test('chat: a guest spectator only reads, a named one talks with spectators, lines have times, and a refused line (the rate limit) is shown', async () => {
    const a = await newPlayer(browser, server.url);
    await openGame(a.page, { rules: 'chinese', map: 'square:9', seats: [{ kind: 'me' }, { kind: 'bot', level: 1 }] });
    const c = await newPlayer(browser, server.url);
    await c.page.goto(a.page.url());
    await c.page.waitForSelector('#watching:not([hidden])');
    assert.equal(await c.page.isVisible('#chat-input'), false, 'no chat box for a guest spectator');
    assert.match((await c.page.textContent('#chat-closed')) ?? '', /choose a name/);
    // A spectator with a name talks with the other spectators; the player does not hear it.
    const d = await newPlayer(browser, server.url, { width: 390, height: 844 }, { isMobile: true, hasTouch: true });
    await register(d, `fan${Date.now() % 1e6}`);
    await d.page.goto(a.page.url());
    await d.page.waitForSelector('#chat-input');
    assert.match((await d.page.getAttribute('#chat-input', 'placeholder')) ?? '', /with spectators/);
    await d.page.fill('#chat-input', 'Black should cut');
    await d.page.press('#chat-input', 'Enter');
    await c.page.waitForSelector('#chat-log li.chat-spectators');
    assert.match((await c.page.textContent('#chat-log li.chat-spectators')) ?? '', /\d{1,2}:\d{2}.*spectator: Black should cut/);
    await screenshot(d.page, 'player-path-spectator-chat-phone');
    await screenshot(c.page, 'player-path-spectator-chat');
    // The player speaks; the sixth line within 10 s is refused, and says so.
    assert.ok(await a.page.isVisible('#chat-input'));
    for (let i = 1; i <= 6; i++) {
      await a.page.fill('#chat-input', `line ${i}`);
      await a.page.press('#chat-input', 'Enter');
    }
    await a.page.waitForSelector('#chat-log .chat-refused');
    assert.match((await a.page.textContent('#chat-log .chat-refused')) ?? '', /Not sent: .*5 chat messages per 10 seconds/);
    assert.match((await a.page.textContent('#toast')) ?? '', /chat messages per 10 seconds/);
    await c.page.waitForFunction(() => /line 5/.test(document.querySelector('#chat-log')?.textContent ?? ''));
    assert.equal(await a.page.$('#chat-log li.chat-spectators'), null, 'the player never got the spectators\' line');
    for (const p of [a, c, d]) await p.context.close();
  });

  test('keys: P in the chat box types, ? lists the keys, and a pass that would end play asks to be pressed again', async () => {
    const a = await newPlayer(browser, server.url);
    await openGame(a.page, { rules: 'chinese', map: 'square:5', seats: [{ kind: 'me' }, { kind: 'open' }] });
    const b = await joined(a);
    await myTurn(a.page);
    await a.page.click('#chat-input');
    await a.page.keyboard.type('pp');
    assert.equal(await a.page.inputValue('#chat-input'), 'pp');
    assert.equal(await a.page.textContent('#status'), 'Your turn.', 'no pass from the chat box');
    // "?" away from a field shows the keys; Escape hides them.
    await a.page.evaluate(() => document.activeElement?.blur());
    await a.page.keyboard.press('?');
    await a.page.waitForSelector('#key-help:not([hidden])');
    assert.match((await a.page.textContent('#key-help')) ?? '', /Pass/);
    await screenshot(a.page, 'player-path-keys');
    await a.page.keyboard.press('Escape');
    await a.page.waitForSelector('#key-help', { state: 'hidden' });
    // The first pass passes at once; the second would end play: P arms, P again passes.
    await a.page.keyboard.press('p');
    await myTurn(b.page);
    await b.page.evaluate(() => document.activeElement?.blur());
    const resignBefore = await b.page.locator('#resign').boundingBox();
    await b.page.keyboard.press('p');
    await b.page.waitForSelector('#pass[data-armed]');
    assert.deepEqual(await b.page.locator('#resign').boundingBox(), resignBefore, 'arming the pass moves no button');
    assert.equal(await b.page.textContent('#pass'), 'Confirm pass');
    assert.match((await b.page.textContent('#toast')) ?? '', /This pass ends play/);
    assert.equal((await logLines(b.page)).filter((l) => /passed/.test(l)).length, 1, 'one pass so far');
    await screenshot(b.page, 'player-path-pass-confirm');
    // Escape keeps playing; then the button, pressed twice, ends play.
    await b.page.keyboard.press('Escape');
    await b.page.waitForSelector('#pass:not([data-armed])');
    await clickPass(b.page);
    await b.page.waitForFunction(() => !/Your turn/.test(document.querySelector('#status')?.textContent ?? ''));
    assert.equal((await logLines(b.page)).filter((l) => /passed/.test(l)).length, 2);
    // A clicked button gives its focus back: Space presses nothing.
    assert.equal(await b.page.evaluate(() => document.activeElement?.tagName), 'BODY');
    for (const p of [a, b]) await p.context.close();
  });

  test('GoBeyond: an empty board says nothing is disputed; after the end the points are final, with no "At end" projection', async () => {
    const a = await newPlayer(browser, server.url);
    await openGame(a.page, { rules: { system: 'gobeyond', turn_seconds: 0, cleanup_seconds: 0 }, map: 'square:5', seats: [{ kind: 'me' }, { kind: 'open' }] });
    const b = await joined(a);
    await myTurn(a.page);
    await a.page.hover('svg.board2d .hit[data-node="12"]');
    await a.page.waitForFunction(() => /C3/.test(document.querySelector('#hover')?.textContent ?? ''));
    assert.doesNotMatch((await a.page.textContent('#hover')) ?? '', /disputed/);
    assert.ok((await headers(a.page)).includes('At end'), 'the projection shows during play');
    await a.page.click('svg.board2d .hit[data-node="0"]');
    await myTurn(b.page);
    await b.page.click('svg.board2d .hit[data-node="24"]');
    for (const p of [a, b, a]) {
      await myTurn(p.page);
      await clickPass(p.page);
      await p.page.waitForFunction(() => document.querySelector('#status')?.textContent !== 'Your turn.');
    }
    for (const p of [a, b]) {
      await p.page.waitForSelector('#cleanup:not([hidden]) #surrender');
      await p.page.click('#surrender');
    }
    await a.page.waitForSelector('#ranking');
    await a.page.waitForFunction(() => ![...document.querySelectorAll('#players thead th')].some((t) => t.textContent === 'At end'));
    const id = gameId(a.page);
    const outcome = await a.page.evaluate(async (id) => (await (await fetch(`/api/games/${id}`)).json()).outcome, id);
    const shown = await a.page.$$eval('#players tbody tr .points', (cs) => cs.map((c) => Number(c.textContent)));
    assert.deepEqual(shown, outcome.scores.map(Number), 'the table shows the final scores');
    await screenshot(a.page, 'player-path-gobeyond-end');
    // The review's last step words what was done: nothing was surrendered.
    await a.page.goto(`${server.url}/#/review/${id}`);
    await a.page.waitForFunction(() => /surrendered nothing/.test(document.querySelector('#what')?.textContent ?? ''));
    for (const p of [a, b]) await p.context.close();
  });

  test('dark mode: the players table and links use the theme\'s colours', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.waitForSelector('#me-name');
    await openGame(page, { rules: { system: 'gobeyond', turn_seconds: 0 }, map: 'hex:4', seats: [{ kind: 'me' }, { kind: 'bot', level: 1 }] });
    await page.waitForSelector('#players td.projected');
    const colours = await page.evaluate(() => {
      const muted = getComputedStyle(document.documentElement).getPropertyValue('--muted').trim();
      return { projected: getComputedStyle(document.querySelector('#players td.projected')).color, link: getComputedStyle(document.querySelector('#rules-line a')).color, muted };
    });
    assert.notEqual(colours.projected, 'rgb(85, 85, 85)', 'not the hard-coded #555');
    assert.equal(colours.link, 'rgb(79, 195, 154)', 'links in the dark theme\'s accent');
    // A few stones down: claims over the node names, no grey discs on disputed nodes.
    for (const node of [0, 9, 18]) {
      await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn.');
      const free = await page.$$eval('svg.board2d .hit:not(.occupied)', (hs) => hs.map((h) => Number(h.getAttribute('data-node'))));
      await page.click(`svg.board2d .hit[data-node="${free.includes(node) ? node : free[0]}"]`);
    }
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn.');
    await screenshot(page, 'player-path-dark-game');
    await context.close();
  });

  test('the lobby says before creating that The Way of Go needs straight lines; a private game\'s seat waits for an invited player', async () => {
    const { page, context } = await newPlayer(browser, server.url);
    const value = await page.$$eval('#rules option', (os) => os.find((o) => /The Way of Go/.test(o.textContent ?? ''))?.value);
    await page.selectOption('#rules', value);
    await page.fill('#map-spec', 'honeycomb:3');
    await page.waitForSelector('#map-warning:not([hidden])');
    assert.match((await page.textContent('#map-warning')) ?? '', /needs a map with straight lines, e\.g\. square:13/);
    assert.ok(await page.isDisabled('#create'));
    await screenshot(page, 'player-path-wayofgo-map');
    await page.fill('#map-spec', 'square:13');
    await page.waitForSelector('#map-warning', { state: 'hidden' });
    assert.ok(!(await page.isDisabled('#create')));
    // The server's own refusal reads for players too.
    const refusal = await page.evaluate(async () => {
      const res = await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rules: 'way-of-go', map: 'honeycomb:3', players: 2 }) });
      return (await res.json()).error;
    });
    assert.match(refusal, /^The Way of Go needs a map with straight lines/);
    await openGame(page, { rules: 'chinese', map: 'square:9', seats: [{ kind: 'me' }, { kind: 'open' }], public: false });
    assert.match((await page.textContent('#players')) ?? '', /waiting for an invited player/);
    assert.doesNotMatch((await page.textContent('#players')) ?? '', /open seat/);
    await context.close();
  });

  test('3-D: "Reset view" brings back the first view after a zoom', async () => {
    const { page, context } = await newPlayer(browser, server.url, ...PHONE);
    await openGame(page, { rules: { system: 'gobeyond', turn_seconds: 0 }, map: 'cube:3', seats: [{ kind: 'me' }, { kind: 'bot', level: 1 }] });
    await page.waitForSelector('#board .board3d canvas');
    await page.waitForSelector('#reset-view:not([hidden])');
    const where = () => page.evaluate(() => {
      const b = document.querySelector('#board .board3d canvas').gobeyondBoard;
      for (let n = 0; n < 54; n++) {
        const p = b.screenPosition(n);
        if (p) return { n, ...p };
      }
      return null;
    });
    const first = await where();
    assert.ok(first);
    const box = await page.locator('#board .board3d canvas').boundingBox();
    await page.evaluate(({ x, y }) => {
      const canvas = document.querySelector('#board .board3d canvas');
      for (let i = 0; i < 5; i++) canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: -200, clientX: x, clientY: y, bubbles: true, cancelable: true }));
    }, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
    // The view is drawn on the next frame.
    await page.waitForTimeout(300);
    const zoomed = await page.evaluate((n) => document.querySelector('#board .board3d canvas').gobeyondBoard.screenPosition(n), first.n);
    assert.ok(!zoomed || Math.abs(zoomed.x - first.x) + Math.abs(zoomed.y - first.y) > 2, `the wheel zoomed: ${JSON.stringify({ first, zoomed })}`);
    await page.click('#reset-view');
    await page.waitForTimeout(300);
    const back = await page.evaluate((n) => document.querySelector('#board .board3d canvas').gobeyondBoard.screenPosition(n), first.n);
    assert.ok(back && Math.abs(back.x - first.x) < 1 && Math.abs(back.y - first.y) < 1, `back to the first view: ${JSON.stringify({ first, back })}`);
    await screenshot(page, 'player-path-3d-reset-phone');
    // "Show last move" also undoes a zoom: the stone and its neighbour are as far apart on the
    // screen after a wheel zoom as without one.
    await page.mouse.click(first.x, first.y);
    // Touch screens confirm before placing.
    await page.click('#confirm-place:not([disabled])');
    await page.waitForFunction(() => /^1\. Black/.test(document.querySelector('#log li')?.textContent ?? ''));
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn.');
    const spacing = async () => {
      await page.click('#show-last');
      await page.waitForTimeout(300);
      return page.evaluate(async () => {
        const id = Number(location.hash.match(/game\/(\d+)/)[1]);
        const [record, map] = await Promise.all([`/api/games/${id}/record`, `/api/games/${id}/map`].map(async (u) => (await fetch(u)).json()));
        const last = record.actions.at(-1).node;
        const b = document.querySelector('#board .board3d canvas').gobeyondBoard;
        const p = b.screenPosition(last);
        for (const [x, y] of map.edges) {
          const other = x === last ? y : y === last ? x : null;
          const q = other === null ? null : b.screenPosition(other);
          if (p && q) return Math.hypot(p.x - q.x, p.y - q.y);
        }
        return null;
      });
    };
    const unzoomed = await spacing();
    await page.evaluate(({ x, y }) => {
      const canvas = document.querySelector('#board .board3d canvas');
      for (let i = 0; i < 5; i++) canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: -200, clientX: x, clientY: y, bubbles: true, cancelable: true }));
    }, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
    await page.waitForTimeout(300);
    const again = await spacing();
    assert.ok(unzoomed && again && Math.abs(again - unzoomed) < 1, `show last move at the first zoom: ${JSON.stringify({ unzoomed, again })}`);
    await context.close();
  });
});
