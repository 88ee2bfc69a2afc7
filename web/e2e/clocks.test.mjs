// End-to-end, clocks across days (issue 42): a correspondence game made from the form reads its
// clock in days; a custom clock out of range is refused with its field named; a player starts
// and ends a vacation from their page.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browser, newPlayer, screenshot, selectRules, server, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

const PHONE = { viewport: { width: 390, height: 844 }, device: { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } };

describe('clocks across days', { timeout: 300_000 }, () => {
  test('a correspondence game from the form reads its clock in days', async () => {
    for (const [name, size] of [['desktop', {}], ['phone', PHONE]]) {
      const p = await newPlayer(browser, server.url, size.viewport, size.device);
      await selectRules(p.page, /^Classic Go/);
      await p.page.fill('#map-spec', 'square:9');
      await p.page.selectOption('#time', 'correspondence_3');
      await p.page.waitForSelector('#weekends-off', { state: 'visible' });
      await p.page.check('#weekends-off');
      await screenshot(p.page, `clocks-form-${name}`);
      await p.page.click('#create');
      await p.page.waitForURL(/#\/game\/\d+/);
      // Against the default bot the game starts at once, with the creator to move.
      await p.page.waitForFunction(() => /^\d+ d( \d+ h)?$/.test(document.querySelector('#clock')?.textContent ?? ''));
      const rules = (await p.page.textContent('#rules-line')) ?? '';
      assert.match(rules, /3 days per move \(at most 7 days\), weekends off/);
      await p.page.waitForSelector('.player-clock');
      assert.match((await p.page.textContent('.player-clock')) ?? '', /^\d+ d/, 'the bank in days');
      await screenshot(p.page, `clocks-game-${name}`);
      // The lobby lists it with its clock.
      await p.page.click('text=Lobby');
      await p.page.waitForSelector('#my-games .time-tag');
      assert.match((await p.page.textContent('#my-games .time-tag')) ?? '', /3 days per move/);
      await p.context.close();
    }
  });

  test('a custom clock out of range is refused, naming the field', async () => {
    const p = await newPlayer(browser, server.url);
    await selectRules(p.page, /^Classic Go/);
    await p.page.selectOption('#time', 'custom');
    await p.page.selectOption('#time-kind', 'correspondence');
    await p.page.fill('#time-fields input[data-field="move_seconds"]', '1000000000');
    await p.page.click('#create');
    await p.page.waitForFunction(() => /Days per move: at most 30/.test(document.querySelector('#toast')?.textContent ?? ''));
    assert.match(p.page.url(), /#\/?$|#\/lobby|\/$/, 'no game was made');
    // A custom Canadian clock within range makes a game.
    await p.page.selectOption('#time-kind', 'canadian');
    await p.page.fill('#time-fields input[data-field="stones"]', '500');
    await p.page.click('#create');
    await p.page.waitForFunction(() => /Moves per period: at most 100/.test(document.querySelector('#toast')?.textContent ?? ''));
    await p.page.fill('#time-fields input[data-field="stones"]', '15');
    await p.page.click('#create');
    await p.page.waitForURL(/#\/game\/\d+/);
    assert.match((await p.page.textContent('#rules-line')) ?? '', /10 min \+ 15 moves in 5 min/);
    await p.context.close();
  });

  test('a player starts and ends a vacation from their page', async () => {
    const p = await newPlayer(browser, server.url, PHONE.viewport, PHONE.device);
    const name = `vac${Date.now() % 1_000_000}`;
    const r = await p.page.request.post(`${server.url}/api/register`, { data: { name, password: 'correct horse' } });
    assert.equal(r.status(), 200);
    await p.page.goto(`${server.url}/#/player/${name}`);
    await p.page.reload();
    await p.page.waitForSelector('#vacation-toggle');
    assert.match((await p.page.textContent('#vacation-text')) ?? '', /30 d of this year's 30 vacation days left/);
    await p.page.click('#vacation-toggle');
    await p.page.waitForFunction(() => /^On vacation/.test(document.querySelector('#vacation-text')?.textContent ?? ''));
    await screenshot(p.page, 'clocks-vacation-phone');
    await p.page.click('#vacation-toggle');
    await p.page.waitForFunction(() => /^Away for a while/.test(document.querySelector('#vacation-text')?.textContent ?? ''));
    await p.context.close();
  });
});
