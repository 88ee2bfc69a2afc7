// Starts a real `gobeyond serve` (the debug build, on a fresh SQLite file and a free port) and
// Debian's Chromium through playwright-core, for the end-to-end tests.

import { after, before } from 'node:test';
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '../..');
export const binary = process.env.GOBEYOND_BIN ?? join(repo, 'target/debug/gobeyond');
export const screenshots = process.env.GOBEYOND_SCREENSHOTS ?? join(repo, 'target/screenshots');

export function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
    s.on('error', fail);
  });
}

/** A running server; `restart()` kills it (SIGKILL) and starts it again on the same port and
 *  database; `stop()` ends it and removes its database. `extraArgs` go to `gobeyond serve`. */
export async function startServer(extraArgs = []) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gobeyond-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const database = `sqlite://${join(dir, 'e2e.db')}`;
  let log = '';
  let child;
  const launch = async () => {
    child = spawn(
      binary,
      ['serve', '--listen', `127.0.0.1:${port}`, '--database', database, '--auth-rate', '0', '--test-hooks', '--reports', join(dir, 'reports'), ...extraArgs],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child.stderr.on('data', (d) => (log += d));
    for (let i = 0; ; i++) {
      try {
        const r = await fetch(`${url}/api/health`);
        if (r.ok) return;
      } catch {
        // not up yet
      }
      if (child.exitCode !== null || i > 300) {
        throw new Error(`the server did not start (${binary}; run \`cargo build -p gobeyond\`):\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const exited = () => new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
  await launch();
  return {
    url,
    /** The directory of lab reports the server lists. */
    reports: join(dir, 'reports'),
    /** Gives `name` a role with the command line (`gobeyond admin grant`), on the running
     *  server's database: how a test makes a moderator. */
    grant(name, role) {
      return new Promise((ok, fail) => {
        execFile(binary, ['admin', 'grant', name, role, '--database', database], (err, stdout, stderr) =>
          err ? fail(new Error(`gobeyond admin grant failed: ${stderr || err.message}`)) : ok(stdout));
      });
    },
    log: () => log,
    async restart(downtimeMs = 1000) {
      child.kill('SIGKILL');
      await exited();
      await new Promise((r) => setTimeout(r, downtimeMs));
      await launch();
    },
    async stop() {
      child.kill('SIGTERM');
      await exited();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function startBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      '--enable-unsafe-swiftshader',
    ],
  });
}

/** A fresh browser context (its own cookies: its own guest) with a page on the lobby;
 *  `device` adds context options (`{ hasTouch: true, isMobile: true }` for a touch phone). */
/** Claims `name` for the guest in page `p` (Account form), waiting until the page shows it. */
export async function register(p, name) {
  await p.page.click('details.account summary');
  await p.page.fill('details.account input[name="name"]', name);
  await p.page.fill('details.account input[name="password"]', 'correct horse');
  await p.page.click('#register');
  await p.page.waitForFunction((n) => document.querySelector('#me-name')?.textContent === n, name);
}

export async function newPlayer(browser, url, viewport = { width: 1280, height: 900 }, device = {}) {
  const context = await browser.newContext({ viewport, ...device });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(url);
  const first = await page.waitForSelector('#me-name, #page-error');
  if ((await first.getAttribute('id')) === 'page-error') throw new Error(`the lobby failed: ${await first.textContent()}`);
  return { context, page, name: await first.textContent() };
}

export async function screenshot(page, name) {
  mkdirSync(screenshots, { recursive: true });
  await page.screenshot({ path: join(screenshots, `${name}.png`) });
}

/** The game id of a game page. */
export function gameId(page) {
  const m = page.url().match(/#\/game\/(\d+)/);
  if (!m) throw new Error(`not on a game page: ${page.url()}`);
  return Number(m[1]);
}

/** Waits until the page's game log has a line matching `re`; returns it. */
export async function waitForLog(page, re, timeout = 30_000) {
  const handle = await page.waitForFunction(
    (source) => [...document.querySelectorAll('#log li')].map((l) => l.textContent).find((t) => new RegExp(source).test(t ?? '')),
    re.source,
    { timeout },
  );
  return handle.jsonValue();
}

/** Stones on a 2-D board: node → seat. */
export async function stones(page) {
  return page.$$eval('svg.board2d .stone', (els) =>
    Object.fromEntries(els.map((e) => [Number(e.getAttribute('data-stone')), Number([...e.classList].find((c) => /^p\d$/.test(c))?.slice(1))])),
  );
}

/** Clicks Pass; a pass that would end play asks for a second press (the button arms), which
 *  this gives. */
export async function clickPass(page) {
  await page.click('#pass');
  if (await page.$('#pass[data-armed]')) await page.click('#pass[data-armed]');
}

export async function waitMyTurn(page, timeout = 60_000) {
  await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn.', null, { timeout });
}

/** `p` places a stone on `node` when it is their turn, and sees it on the board. */
export async function place(p, node) {
  await waitMyTurn(p.page);
  await p.page.click(`svg.board2d .hit[data-node="${node}"]`);
  await p.page.waitForSelector(`svg.board2d .stone[data-stone="${node}"]`);
}

/** `p` passes when it is their turn. */
export async function pass(p) {
  await waitMyTurn(p.page);
  await clickPass(p.page);
  await p.page.waitForFunction(() => document.querySelector('#status')?.textContent !== 'Your turn.');
}

/** Chooses the lobby's rules option whose label matches. */
export async function selectRules(page, label) {
  const value = await page.$$eval('#rules option', (os, src) => os.find((o) => new RegExp(src).test(o.textContent ?? ''))?.value, label.source);
  if (value === undefined) throw new Error(`no rules option matches ${label}`);
  await page.selectOption('#rules', value);
}

/** The server and browser of a test file: started before its tests, stopped after them. Read
 *  as live bindings (`server.url`, `newPlayer(browser, …)`) once the tests run. */
export let server;
export let browser;

export function useServerAndBrowser() {
  before(async () => {
    server = await startServer();
    browser = await startBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
}
