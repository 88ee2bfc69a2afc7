// End-to-end, mail (issue 42), through a real SMTP server (aiosmtpd, Debian python3-aiosmtpd):
// a registered player adds an address in the lobby's Email panel and confirms it by the mailed
// link; a player who forgot their password gets a link and sets a new one, and the link works
// once. Without SMTP settings, the panel and the forgot-password page say mail is off.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { browser, freePort, newPlayer, screenshot, server, startServer, useServerAndBrowser } from './harness.mjs';

// The shared server has no mail; this file starts one with mail as well.
useServerAndBrowser();

const PHONE = { viewport: { width: 390, height: 844 }, device: { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } };

/** An SMTP server writing what it accepts into a Maildir. */
async function startSink() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gobeyond-smtp-'));
  const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  const child = spawn(python, ['-m', 'aiosmtpd', '-n', '-l', `127.0.0.1:${port}`, '-c', 'aiosmtpd.handlers.Mailbox', join(dir, 'box')], { stdio: 'ignore' });
  for (let i = 0; ; i++) {
    const up = await new Promise((ok) => {
      const s = connect(port, '127.0.0.1', () => { s.end(); ok(true); });
      s.on('error', () => ok(false));
    });
    if (up) break;
    if (child.exitCode !== null || i > 200) throw new Error('the SMTP sink did not start: run scripts/install-test-deps (python3-aiosmtpd)');
    await new Promise((r) => setTimeout(r, 50));
  }
  const messages = () => {
    const box = join(dir, 'box', 'new');
    if (!existsSync(box)) return [];
    return readdirSync(box).map((f) => readFileSync(join(box, f), 'utf8').replace(/\r\n/g, '\n').replace(/=\n/g, ''));
  };
  return {
    port,
    /** The token of the first `#/mail/<what>/` link in a mail to `to` that has none of `seen`. */
    async link(to, what, seen = []) {
      const re = new RegExp(`#/mail/${what}/([A-Za-z0-9_-]+)`);
      for (let i = 0; i < 300; i++) {
        for (const m of messages()) {
          const token = m.match(re)?.[1];
          if (m.includes(`To: ${to}`) && token && !seen.includes(token)) return token;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no ${what} mail to ${to}`);
    },
    stop() {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let sink;
let mailServer;

before(async () => {
  sink = await startSink();
  mailServer = await startServer(['--smtp-url', `smtp://127.0.0.1:${sink.port}`, '--mail-from', 'GoBeyond <games@example.org>', '--public-url', 'http://go.example']);
});

after(async () => {
  await mailServer?.stop();
  sink?.stop();
});

/** A new player who registers `name` from the lobby. */
async function registered(url, name, size = {}) {
  const p = await newPlayer(browser, url, size.viewport, size.device);
  await p.page.click('details.account summary');
  await p.page.fill('#account-form input[name=name]', name);
  await p.page.fill('#account-form input[name=password]', 'correct horse');
  await p.page.click('#register');
  await p.page.waitForSelector('#mail-settings');
  return p;
}

describe('mail', { timeout: 300_000 }, () => {
  test('an address added in the Email panel is confirmed by the mailed link', async () => {
    for (const [label, size] of [['desktop', {}], ['phone', PHONE]]) {
      const name = `mailer${label}${Date.now() % 100000}`;
      const address = `${name}@example.org`;
      const p = await registered(mailServer.url, name, size);
      await p.page.click('#mail-settings summary');
      await p.page.fill('#mail-address', 'not an address');
      await p.page.click('#mail-save');
      await p.page.waitForFunction(() => /email address/.test(document.getElementById('toast')?.textContent ?? ''));
      await p.page.fill('#mail-address', address);
      await p.page.click('#mail-save');
      await p.page.waitForFunction(() => /Waiting for confirmation/.test(document.getElementById('mail-state')?.textContent ?? ''));
      const token = await sink.link(address, 'confirm');
      await p.page.goto(`${mailServer.url}/#/mail/confirm/${token}`);
      await p.page.waitForSelector('#mail-page h2');
      assert.equal(await p.page.textContent('#mail-page h2'), 'Address confirmed');
      await screenshot(p.page, `mail-confirmed-${label}`);
      // Back in the lobby, the panel shows the address confirmed and the notices to choose.
      await p.page.click('text=To the lobby');
      await p.page.click('#mail-settings summary');
      await p.page.waitForFunction((a) => document.getElementById('mail-state')?.textContent === `Confirmed: ${a}`, address);
      await p.page.click('#mail-idle-hours', { clickCount: 3 });
      await p.page.fill('#mail-idle-hours', '3');
      // Tournament round starts: on until turned off, and kept off once saved.
      assert.ok(await p.page.isChecked('#mail-tournament'));
      await p.page.uncheck('#mail-tournament');
      await p.page.click('#mail-prefs-save');
      await p.page.waitForFunction(() => /saved/.test(document.getElementById('toast')?.textContent ?? ''));
      assert.equal(await p.page.isChecked('#mail-tournament'), false);
      await screenshot(p.page, `mail-settings-${label}`);
      // The link works once.
      await p.page.goto(`${mailServer.url}/#/mail/confirm/${token}`);
      await p.page.waitForSelector('#mail-error');
      assert.match(await p.page.textContent('#mail-error'), /used already/);
      await p.context.close();
    }
  });

  test('a forgotten password is reset through the mailed link, once', async () => {
    const name = `forgetful${Date.now() % 100000}`;
    const address = `${name}@example.org`;
    const p = await registered(mailServer.url, name);
    await p.page.click('#mail-settings summary');
    await p.page.fill('#mail-address', address);
    await p.page.click('#mail-save');
    await p.page.waitForSelector('#mail-remove');
    await p.page.goto(`${mailServer.url}/#/mail/confirm/${await sink.link(address, 'confirm')}`);
    await p.page.waitForSelector('#mail-page h2');
    await p.context.close();

    // Another browser, signed out: "Forgot your password?" from the sign-in box.
    const q = await newPlayer(browser, mailServer.url, PHONE.viewport, PHONE.device);
    await q.page.click('details.account summary');
    await q.page.click('#forgot-password');
    await q.page.fill('#forgot-who', name);
    await q.page.click('#forgot-submit');
    await q.page.waitForFunction(() => /on its way/.test(document.getElementById('forgot-answer')?.textContent ?? ''));
    await screenshot(q.page, 'mail-forgot-phone');
    const token = await sink.link(address, 'reset');
    await q.page.goto(`${mailServer.url}/#/mail/reset/${token}`);
    await q.page.fill('#new-password', 'a new horse staple');
    await q.page.click('#reset-submit');
    await q.page.waitForFunction(() => document.querySelector('#mail-page h2')?.textContent === 'Password changed');
    await screenshot(q.page, 'mail-reset-done-phone');
    // The new password signs in; the link is refused the second time, naming why.
    await q.page.click('text=To the lobby');
    await q.page.click('details.account summary');
    await q.page.fill('#account-form input[name=name]', name);
    await q.page.fill('#account-form input[name=password]', 'a new horse staple');
    await q.page.click('#sign-in');
    await q.page.waitForSelector('#mail-settings');
    await q.page.goto(`${mailServer.url}/#/mail/reset/${token}`);
    await q.page.fill('#new-password', 'yet another staple');
    await q.page.click('#reset-submit');
    await q.page.waitForFunction(() => /used already/.test(document.getElementById('mail-error')?.textContent ?? ''));
    await screenshot(q.page, 'mail-reset-reused-phone');
    await q.context.close();
  });

  test('without SMTP settings the panel and forgot-password say mail is off', async () => {
    const p = await registered(server.url, `nomail${Date.now() % 100000}`);
    await p.page.click('#mail-settings summary');
    await p.page.waitForSelector('#mail-off');
    assert.match(await p.page.textContent('#mail-off'), /Mail is off on this server/);
    await screenshot(p.page, 'mail-off-desktop');
    await p.page.goto(`${server.url}/#/mail/forgot`);
    await p.page.waitForSelector('#mail-off');
    assert.match(await p.page.textContent('#mail-off'), /ask its host/);
    await p.context.close();
  });
});
