// End-to-end, moderation (issue 46): a player reports another's chat line from the game page; a
// moderator (made with `gobeyond admin grant`) reads it in context in the queue, mutes the
// author with a reason and deletes the line (which leaves the open chats); the muted player's
// next line is refused with the reason, and their account page shows the mute. Screenshots on
// a phone and a desktop.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browser, newPlayer, screenshot, server, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

const PHONE = { viewport: { width: 390, height: 844 }, device: { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } };
const DESKTOP = { width: 1280, height: 900 };
const RUDE = 'you play like a potato, idiot';
const REASON = 'Insults in the chat of game';

/** A browser whose guest registers as an account. */
async function member(prefix, size = {}) {
  const p = await newPlayer(browser, server.url, size.viewport, size.device);
  const name = `${prefix}${Math.floor(Math.random() * 1e6)}`;
  const status = await p.page.evaluate(async (n) => {
    const r = await fetch('/api/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: n, password: 'correct horse' }) });
    return r.status;
  }, name);
  assert.equal(status, 200);
  await p.page.reload();
  await p.page.waitForFunction((n) => document.querySelector('#me-name')?.textContent === n, name);
  return { ...p, name };
}

/** `a` opens a two-player game with an open seat that `b` takes; both end on its page. */
async function gameBetween(a, b) {
  const r = await a.page.evaluate(async () => {
    const res = await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rules: 'chinese', map: 'square:9', players: 2, seats: [{ kind: 'me' }, { kind: 'open' }] }) });
    return { status: res.status, body: await res.json() };
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const id = r.body.game.id;
  await a.page.goto(`${server.url}/#/game/${id}`);
  await b.page.goto(`${server.url}/#/game/${id}`);
  await b.page.click('#join-button');
  await b.page.waitForSelector('#players tbody tr.me');
  await b.page.waitForSelector('#chat-input');
  return id;
}

/** Says `text` in the game's chat. */
async function say(p, text) {
  await p.page.fill('#chat-input', text);
  await p.page.press('#chat-input', 'Enter');
}

describe('moderation', { timeout: 300_000 }, () => {
  test('a reported chat line is read in context, its author muted with a reason, and the author is told', async () => {
    const a = await member('ana', { viewport: DESKTOP });
    const b = await member('ben', PHONE);
    const game = await gameBetween(a, b);

    // B says something rude; A sees it with a flag to report it.
    await say(b, RUDE);
    const line = await a.page.waitForSelector(`#chat-log li:has-text("${RUDE}")`);
    const chatId = Number(await line.getAttribute('data-chat'));
    assert.ok(chatId > 0, 'the chat line carries its id');
    assert.equal(await b.page.$(`#chat-log li[data-chat="${chatId}"] .chat-report`), null, 'no flag on one\'s own line');
    await a.page.click(`#chat-log li[data-chat="${chatId}"] .chat-report`);
    await a.page.waitForSelector('#report-dialog[open]');
    assert.match(await a.page.textContent('#report-dialog blockquote'), new RegExp(RUDE));
    await a.page.selectOption('#report-reason', 'abuse');
    await a.page.fill('#report-text', 'Insults after my first move.');
    await screenshot(a.page, 'moderation-report-dialog-desktop');
    await a.page.click('#report-send');
    await a.page.waitForFunction(() => /Reported — a moderator will look at it/.test(document.querySelector('#report-answer')?.textContent ?? ''));
    await a.page.click('#report-close');
    await a.page.waitForSelector('#report-dialog', { state: 'detached' });
    await screenshot(b.page, 'moderation-game-chat-phone');

    // The report dialog on a phone, from the player's page (the second report of A).
    const bOnPhone = await newPlayer(browser, server.url, PHONE.viewport, PHONE.device);
    await bOnPhone.page.goto(`${server.url}/#/player/${a.name}`);
    await bOnPhone.page.click('#report-player');
    await bOnPhone.page.waitForSelector('#report-dialog[open]');
    await screenshot(bOnPhone.page, 'moderation-report-dialog-phone');
    await bOnPhone.page.click('#report-cancel');
    await bOnPhone.page.waitForSelector('#report-dialog', { state: 'detached' });
    await bOnPhone.context.close();

    // A moderator made on the command line finds the link, the queue and the line in context.
    const m = await member('mod', { viewport: DESKTOP });
    assert.equal(await m.page.isVisible('#nav-moderation'), false, 'no link before the role');
    await server.grant(m.name, 'moderator');
    await m.page.reload();
    await m.page.waitForSelector('#nav-moderation');
    await m.page.click('#nav-moderation');
    const card = `.report-card[data-status="open"]:has(.context-lines li[data-chat="${chatId}"])`;
    await m.page.waitForSelector(card);
    assert.match(await m.page.textContent(`${card} .context-lines li.reported`), new RegExp(RUDE));
    assert.match(await m.page.textContent(`${card} .report-who`), new RegExp(`${a.name} reported ${b.name} in game #${game}`));
    await screenshot(m.page, 'moderation-queue-desktop');

    // Mute B for three days, keeping the report open, then delete the line (closing it).
    await m.page.click(`${card} button[data-action="mute"]`);
    await m.page.fill(`${card} form[data-action="mute"] textarea`, `${REASON} #${game}`);
    await m.page.fill(`${card} form[data-action="mute"] input[name="days"]`, '3');
    await m.page.uncheck(`${card} form[data-action="mute"] input[name="close"]`);
    await m.page.setViewportSize(PHONE.viewport);
    await screenshot(m.page, 'moderation-mute-form-phone');
    await m.page.setViewportSize(DESKTOP);
    await m.page.click(`${card} form[data-action="mute"] button[data-confirm="mute"]`);
    await m.page.waitForSelector(`#audit-log li[data-action="mute"][data-user="${b.name}"]`);
    await m.page.click(`${card} button[data-action="delete_chat"]`);
    await m.page.fill(`${card} form[data-action="delete_chat"] textarea`, 'An insult');
    await m.page.click(`${card} form[data-action="delete_chat"] button[data-confirm="delete_chat"]`);
    await m.page.waitForSelector(card, { state: 'detached' });
    await m.page.waitForSelector(`#audit-log li[data-action="delete_chat"]`);
    await screenshot(m.page, 'moderation-log-desktop');
    await m.page.click('#reports-closed');
    await m.page.waitForSelector(`.report-card[data-status="closed"] .context-lines li.reported.deleted[data-chat="${chatId}"]`);

    // The deleted line leaves A's chat as it stands.
    await a.page.waitForSelector(`#chat-log li[data-chat="${chatId}"]`, { state: 'detached' });

    // B's next line is refused with the reason; B's account page shows the mute and why.
    await say(b, 'sorry');
    await b.page.waitForSelector('#chat-log .chat-refused');
    assert.match(await b.page.textContent('#chat-log .chat-refused'), new RegExp(REASON));
    await screenshot(b.page, 'moderation-chat-refused-phone');
    await b.page.goto(`${server.url}/#/account`);
    await b.page.waitForSelector('#my-moderation li[data-action="mute"]');
    assert.match(await b.page.textContent('#my-moderation li[data-action="mute"]'), new RegExp(`Muted until .*${REASON}`));
    assert.match(await b.page.textContent('#account-standing'), /Muted until/);
    await b.page.waitForSelector('#standing-banner [data-kind="muted"]');
    await b.page.waitForSelector('#toast:not(.show)', { state: 'attached', timeout: 10_000 });
    await screenshot(b.page, 'moderation-account-phone');

    // B's data downloads as a file.
    const exported = await b.page.evaluate(async () => {
      const r = await fetch('/api/me/export');
      return { status: r.status, disposition: r.headers.get('content-disposition') ?? '' };
    });
    assert.equal(exported.status, 200);
    assert.match(exported.disposition, /attachment/);
    for (const p of [a, b, m]) await p.context.close();
  });

  test('a player deletes their account: a wrong password is refused, the right one signs them out', async () => {
    const p = await member('del', { viewport: DESKTOP });
    p.page.on('dialog', (d) => void d.accept());
    await p.page.goto(`${server.url}/#/account`);
    await p.page.fill('#delete-password', 'not my password');
    await p.page.click('#delete-account');
    await p.page.waitForFunction(() => /wrong password/.test(document.querySelector('#delete-error')?.textContent ?? ''));
    await screenshot(p.page, 'moderation-delete-refused-desktop');
    await p.page.fill('#delete-password', 'correct horse');
    await p.page.click('#delete-account');
    await p.page.waitForFunction(() => /^guest-/.test(document.querySelector('#me-name')?.textContent ?? ''));
    const gone = await p.page.evaluate(async (n) => (await fetch(`/api/players/${n}`)).status, p.name);
    assert.equal(gone, 404, 'the name is free again');
    await p.context.close();
  });

  test('a player who is not a moderator is told the page is not theirs, until an admin grants the role', async () => {
    const p = await member('pat', PHONE);
    await p.page.goto(`${server.url}/#/moderation`);
    await p.page.waitForSelector('#not-moderator');
    await p.page.goto(`${server.url}/#/account`);
    await p.page.waitForSelector('#account-standing.good');
    await screenshot(p.page, 'moderation-account-good-phone');
    const admin = await member('root', { viewport: DESKTOP });
    await server.grant(admin.name, 'admin');
    await admin.page.goto(`${server.url}/#/moderation`);
    await admin.page.fill('#grant-user', p.name);
    await admin.page.selectOption('#grant-role', 'moderator');
    await admin.page.click('#grant-form button[type="submit"]');
    await admin.page.waitForSelector(`#audit-log li[data-action="grant"][data-user="${p.name}"]`);
    await p.page.goto(`${server.url}/#/moderation`);
    await p.page.waitForSelector('#moderation-page');
    assert.equal(await p.page.$('#grant-card'), null, 'granting roles is for admins');
    await screenshot(p.page, 'moderation-queue-phone');
    for (const q of [p, admin]) await q.context.close();
  });
});
