// End-to-end, playing without a mouse and on a zoomed phone board (issue 41): the board takes
// the focus, arrow keys walk to neighbouring points and say where the cursor is, Enter plays;
// the log and the status are read out; a zoomed board keeps its coordinates in view.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browser, newPlayer, screenshot, server, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

const cursorText = (page) => page.textContent('#board-cursor');

describe('the board without a mouse', { timeout: 300_000 }, () => {
  test('arrow keys move a cursor that says where it is, and Enter plays there', async () => {
    const p = await newPlayer(browser, server.url);
    await p.page.click('#first-game');
    await p.page.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn.', null, { timeout: 60_000 });
    assert.equal(await p.page.getAttribute('#log', 'role'), 'log', 'moves are read out as they come');
    assert.equal(await p.page.getAttribute('#status', 'aria-live'), 'polite');
    await p.page.focus('.board-holder');
    await p.page.waitForFunction(() => /^E5/.test(document.querySelector('#board-cursor')?.textContent ?? ''));
    await p.page.keyboard.press('ArrowRight');
    assert.match((await cursorText(p.page)) ?? '', /^F5/);
    await p.page.keyboard.press('ArrowUp');
    assert.match((await cursorText(p.page)) ?? '', /^F6/);
    await p.page.keyboard.press('ArrowLeft');
    await p.page.keyboard.press('ArrowLeft');
    assert.match((await cursorText(p.page)) ?? '', /^D6/);
    await screenshot(p.page, 'keyboard-cursor');
    await p.page.keyboard.press('Enter');
    await p.page.waitForFunction(() => /^D6: Black/.test(document.querySelector('#board-cursor')?.textContent ?? ''), null, { timeout: 20_000 });
    assert.match((await p.page.textContent('#log')) ?? '', /D6/);
    // An arrow key on the board moves the cursor, not the page (nor a game shortcut).
    assert.equal(await p.page.evaluate(() => window.scrollY), 0);
    await p.context.close();
  });

  test('a zoomed phone board keeps its coordinates in view', async () => {
    const p = await newPlayer(browser, server.url, { width: 390, height: 844 }, { isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    await p.page.click('#first-game');
    await p.page.waitForSelector('#zoom-in');
    assert.equal(await p.page.isVisible('.ruler-top'), false, 'no rulers at 100 %');
    await p.page.click('#zoom-in');
    await p.page.click('#zoom-in');
    // Scroll the board to its far corner: the drawn coordinates are out of view.
    await p.page.$eval('.board-holder', (e) => e.scrollTo(e.scrollWidth, e.scrollHeight));
    await p.page.waitForFunction(() => (document.querySelector('.ruler-top')?.textContent ?? '').includes('J'));
    const top = await p.page.textContent('.ruler-top');
    const left = await p.page.textContent('.ruler-left');
    assert.match(top ?? '', /J/, `columns in view: ${top}`);
    assert.doesNotMatch(top ?? '', /A/, 'only the columns the board shows');
    assert.match(left ?? '', /1/, `rows in view: ${left}`);
    await screenshot(p.page, 'phone-zoomed-rulers');
    await p.context.close();
  });
});
