// Helpers for the browser tests: a static server for dist/, Chromium,
// screenshots, visibility checks and an axe-core accessibility check.
// The runner (run.mjs) uses them; test files import what they need.

import assert from 'node:assert/strict';
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The repository root. */
export const ROOT = path.resolve(here, '..', '..');
/** What `trunk build` writes and the tests load. */
export const DIST = path.join(ROOT, 'dist');
/** Where screenshots go (git-ignored). */
export const SCREENSHOTS = path.join(ROOT, 'artifacts', 'screenshots');

const AXE = path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves `dir` on 127.0.0.1 at a free port. Resolves to
 * `{ url, close }`, where `url` ends without a slash.
 */
export async function serveStatic(dir = DIST) {
  const server = http.createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = path.join(dir, pathname.endsWith('/') ? `${pathname}index.html` : pathname);
    if (!file.startsWith(dir + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await fs.readFile(file);
      const type = MIME[path.extname(file)] || 'application/octet-stream';
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${pathname}`);
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    // Open connections end too, so a test can take the server away at once.
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  };
}

/** Starts headless Chromium (Debian's, or `$CHROMIUM_PATH`). */
export function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * Starts Chromium with a real profile in `dir` (not an incognito-like
 * context): what checks such as "can this app be installed?" need.
 * Resolves to a browser context; closing it stops that Chromium.
 */
export function launchWithProfile(dir) {
  return chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * Saves a screenshot as artifacts/screenshots/`name`: the full page, or only
 * the window with `{ fullPage: false }` (for pages many screens long).
 */
export async function screenshot(page, name, { fullPage = true } = {}) {
  await fs.mkdir(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, name);
  await page.screenshot({ path: file, fullPage });
  return file;
}

/**
 * Runs the native `tellers` CLI with `args` and returns what it printed.
 * `make test` builds it (stage cli) before the browser tests, so tests
 * compare the browser with the current engine, never a stale binary.
 */
export function tellersCli(...args) {
  const bin = path.join(ROOT, 'target', 'release', 'tellers');
  if (!existsSync(bin)) {
    throw new Error('target/release/tellers is missing: run `cargo build --release -p tellers-sim --bin tellers` (make test does)');
  }
  return execFileSync(bin, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
}

/**
 * The text of each page of a PDF (`page.pdf()`'s bytes), read by Poppler's
 * `pdftotext` (Debian's poppler-utils; `make test-tools` installs it).
 */
export function pdfPageTexts(pdf) {
  if (!existsSync('/usr/bin/pdftotext')) {
    throw new Error('/usr/bin/pdftotext is missing: install poppler-utils (make test-tools does)');
  }
  const text = execFileSync('/usr/bin/pdftotext', ['-layout', '-', '-'], { input: pdf, encoding: 'utf8', maxBuffer: 64 << 20 });
  // pdftotext ends each page with a form feed.
  return text.split('\f').slice(0, -1);
}

/**
 * Waits until `locator` is visible, or throws saying what was missing.
 * `what` names it in the error, e.g. 'the heading "Tellers"'.
 */
export async function expectVisible(locator, what, timeout = 10_000) {
  try {
    await locator.first().waitFor({ state: 'visible', timeout });
  } catch {
    throw new Error(`expected ${what} to be visible within ${timeout} ms`);
  }
}

/** Runs axe-core on the page and returns its violations. */
export async function runAxe(page, options = {}) {
  if (!(await page.evaluate(() => 'axe' in window))) {
    await page.addScriptTag({ path: AXE });
  }
  return page.evaluate(async (opts) => {
    // axe scrolls each element into view to see what is behind it. Lesson
    // blocks are laid out only near the screen (content-visibility: auto,
    // lessons.css), so that scroll lays out blocks it passes and moves the
    // page under the point axe measures: it then reads the colour of
    // whatever moved there (a Check button behind a word of text). Lay out
    // everything while axe runs, and put the page back after.
    const style = document.createElement('style');
    style.textContent = '* { content-visibility: visible !important; }';
    document.head.append(style);
    try {
      return (await window.axe.run(document, { resultTypes: ['violations'], ...opts })).violations;
    } finally {
      style.remove();
    }
  }, options);
}

/**
 * Throws if axe-core finds violations of the given impacts (by default
 * serious and critical), listing each rule and where it failed.
 */
export async function expectAccessible(page, { impacts = ['serious', 'critical'], ...options } = {}) {
  const violations = (await runAxe(page, options)).filter((v) => impacts.includes(v.impact));
  if (violations.length > 0) {
    const lines = violations.map((v) => {
      const where = v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ');
      return `  ${v.impact} ${v.id}: ${v.help} (${v.nodes.length} element(s), e.g. ${where})`;
    });
    throw new Error(`accessibility violations:\n${lines.join('\n')}`);
  }
}

/** A task longer than this freezes the page (the README's invariants: no main-thread task does a whole simulation), ms. */
export const LONG_TASK_MS = 50;

/**
 * Watches the page's long tasks from its first script on. `reset()` forgets
 * those so far (start-up has its own benchmark); `over()` gives the tasks
 * over 50 ms since, ms. A walk of many steps names each with `step(name)`
 * before it does it; `overBySteps()` then gives each long task with the
 * step it came in (`{ step, ms }`), so a task can be told from the machine's
 * stalls by coming back in the same step (`expectNoLongTaskWhenRepeated`).
 */
export async function watchLongTasks(page) {
  await page.addInitScript(() => {
    window.__longTasks = [];
    window.__steps = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  const long = async () => (await page.evaluate(() => window.__longTasks)).filter((t) => t.duration > LONG_TASK_MS);
  return {
    reset: () =>
      page.evaluate(() => {
        window.__longTasks = [];
        window.__steps = [];
      }),
    step: (name) => page.evaluate((n) => window.__steps.push({ name: n, at: performance.now() }), name),
    over: async () => (await long()).map((t) => Math.round(t.duration)),
    overBySteps: async () => {
      const steps = await page.evaluate(() => window.__steps);
      return (await long()).map((t) => ({
        step: steps.findLast((s) => s.at <= t.start)?.name ?? '(before the first step)',
        ms: Math.round(t.duration),
      }));
    },
  };
}

/**
 * Runs `walk` (something a learner does) and fails if it made a task over
 * 50 ms, unless that task does not come back when the walk is done again.
 *
 * Why again: this 2-core machine is shared with the test runner and the
 * browser's other processes, and it stalls pages that run no script at all
 * (the start-up benchmark's static HTML copy of the page has had tasks of
 * 57-161 ms in its loads). A stall like that lands on a random walk now and
 * then (about one full run in four, each time in another test);
 * a task the app makes comes back each time the walk is done. Every long
 * task is printed, so it is said, not hidden.
 * `walk(attempt)` gets 1, 2 or 3 and must reset what it counts itself
 * (e.g. with `watchLongTasks(page).reset()`); it returns `over`, what it
 * saw past its limit (the tasks over 50 ms, ms), and may add `described`,
 * those figures in words for the message.
 *
 * A long walk (fifty steps) is stalled somewhere in both of two walks more
 * often, so it also returns `steps`, the step of each long task (from
 * `overBySteps()`): it then fails only if one step made a long task in each
 * of three walks (a stall landing on the same one of fifty steps twice
 * running is about one in fifty; three times, one in 2,500), and says
 * which.
 */
export async function expectNoLongTaskWhenRepeated(what, walk) {
  const said = (r) =>
    r.described ?? (r.steps ? r.steps.map((s) => `${s.ms} ms in ${s.step}`).join(', ') : r.over.join(', ') + ' ms');
  const first = await walk(1);
  if (first.over.length === 0) return;
  console.log(`     ${what}: long tasks ${said(first)}; doing it again`);
  const second = await walk(2);
  if (!first.steps) {
    assert.deepEqual(second.over, [], `${what}: long tasks both times: ${said(first)}, then ${said(second)}`);
    return;
  }
  const stepsOf = (r) => new Set(r.steps.map((s) => s.step));
  const both = [...stepsOf(first)].filter((s) => stepsOf(second).has(s));
  if (both.length === 0) {
    if (second.over.length > 0) console.log(`     ${what}: long tasks ${said(second)}: in other steps than the first time`);
    return;
  }
  console.log(`     ${what}: long tasks ${said(second)}: in the same step twice (${both.join('; ')}); a third time`);
  const third = await walk(3);
  const each = both.filter((s) => stepsOf(third).has(s));
  assert.deepEqual(
    each,
    [],
    `${what}: a long task in the same step each of three times: ${said(first)}; then ${said(second)}; then ${said(third)}`,
  );
}

/** A page's animation frames, held back from `hold()` until `release()`
 * runs them: what the page draws a few items a frame stays unready as
 * long as a test needs it to. Call before the page opens. */
export async function holdFrames(page) {
  await page.addInitScript(() => {
    const held = [];
    const raf = window.requestAnimationFrame.bind(window);
    window.__holdFrames = false;
    window.requestAnimationFrame = (cb) => {
      if (!window.__holdFrames) return raf(cb);
      held.push(cb);
      return -held.length;
    };
    window.__releaseFrames = () => {
      window.__holdFrames = false;
      for (const cb of held.splice(0)) raf(cb);
    };
  });
  return {
    hold: () => page.evaluate(() => { window.__holdFrames = true; }),
    release: () => page.evaluate(() => window.__releaseFrames()),
  };
}
