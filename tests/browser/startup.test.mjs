// Start-up: how soon a learner can use the page, and what blocks the main
// thread on the way. A benchmark, not a timed unit test: it measures several
// loads, saves what it measured with the machine and the method in
// artifacts/bench-startup.json, and checks the issue's target (interactive
// within a second on loopback) on the median. It also reports the longest
// main-thread task of the median load (the load whose longest task is the
// median of the five): issue 10 asks for none over 50 ms. That is reported,
// not checked: on this shared 2-core machine one busy neighbour turns a
// 40 ms task into 150 ms (see the README, "In the browser").
//
// Beside each load of the app it loads a control: the same page as static
// HTML (the app's rendered page, its scripts taken out), so the browser
// parses, styles and lays out the whole page with no wasm and no script.
// Its long tasks are the browser's own cost of showing that page at once,
// measured on the same machine in the same minutes as the app's.

import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './harness.mjs';

const LOADS = 5;

/**
 * Runs in the page before the app: watches long tasks, and as soon as a
 * Play button is on screen, clicks it from a task of its own (so the click
 * waits, as a learner's would, behind whatever holds the main thread) and
 * notes when the click was handled. Times are ms since navigation started.
 */
function probe() {
  window.__startup = { longTasks: [], playShownMs: null, clickedMs: null, handled: false };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.__startup.longTasks.push({ startMs: Math.round(e.startTime), ms: Math.round(e.duration) });
    }
  }).observe({ type: 'longtask', buffered: true });
  const look = () => {
    const play = document.querySelector('[data-testid="play"]');
    if (!play || play.disabled) {
      setTimeout(look, 5);
      return;
    }
    if (window.__startup.playShownMs === null) window.__startup.playShownMs = performance.now();
    // After a frame has been drawn with the button on it.
    requestAnimationFrame(() =>
      setTimeout(() => {
        const before = play.getAttribute('aria-pressed');
        const at = performance.now();
        play.click();
        setTimeout(() => {
          if (play.isConnected && play.getAttribute('aria-pressed') !== before) {
            window.__startup.clickedMs = at;
            window.__startup.handled = true;
          } else {
            look();
          }
        }, 0);
      }, 0),
    );
  };
  look();
}

/** Runs in the control page before it is parsed: watches long tasks. */
function longTaskProbe() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push(Math.round(e.duration));
  }).observe({ type: 'longtask', buffered: true });
}

/**
 * The page at `hash` as the app draws it, as static HTML: its DOM once the
 * start-up has settled, with every script, module preload and the
 * manifest taken out (the style sheets stay).
 */
async function staticCopy(browser, base, hash) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
  context.setDefaultTimeout(10_000);
  try {
    const tab = await context.newPage();
    await tab.goto(`${base}/${hash}`);
    await tab.locator('[data-testid="play"]:not([disabled])').first().waitFor();
    await tab.waitForTimeout(1500);
    const html = await tab.evaluate(() => `<!doctype html>${document.documentElement.outerHTML}`);
    const copy = html
      .replace(/<script[\s\S]*?<\/script>/g, '')
      .replace(/<link[^>]*\b(modulepreload|preload|manifest)\b[^>]*>/g, '');
    assert.ok(!/<script/i.test(copy), 'the static copy still has a script');
    assert.ok(copy.includes('data-testid="play"'), 'the static copy lost the page');
    return copy;
  } finally {
    await context.close();
  }
}

/** One cold load of the static copy (served at `url`): its long tasks, ms. */
async function loadStatic(browser, url, html) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(10_000);
  try {
    const tab = await context.newPage();
    await tab.route(url, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
    await tab.addInitScript(longTaskProbe);
    // `goto` waits for the load event; the copy runs no script, so its
    // parsing, style and first layout are over a few frames later.
    await tab.goto(url);
    await tab.waitForTimeout(400);
    const shown = await tab.evaluate(() => {
      const sheets = [...document.querySelectorAll('link[rel="stylesheet"]')];
      return {
        sheets: sheets.length,
        styled: sheets.every((l) => l.sheet?.cssRules.length > 0),
        play: document.querySelector('[data-testid="play"]') !== null,
      };
    });
    assert.ok(shown.play && shown.sheets > 0, `the static copy did not load: ${JSON.stringify(shown)}`);
    assert.ok(shown.styled, 'a style sheet of the static copy did not load');
    return await tab.evaluate(() => window.__longTasks);
  } finally {
    await context.close();
  }
}

async function measure(page, hash) {
  const browser = page.context().browser();
  const base = new URL(page.url()).origin;
  const html = await staticCopy(browser, base, hash);
  const loads = [];
  const controls = [];
  for (let i = 0; i < LOADS; i++) {
    // The copy first on odd loads, so whatever one load leaves behind (a
    // context closing) falls on both alike.
    if (i % 2 === 1) controls.push(await loadStatic(browser, `${base}/static-copy.html`, html));
    // A fresh context each time: an empty cache, as on a first visit.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(10_000);
    try {
      const tab = await context.newPage();
      await tab.addInitScript(probe);
      await tab.goto(`${base}/${hash}`);
      await tab.waitForFunction(() => window.__startup?.handled, null, { timeout: 10_000 });
      // Let the first frames and the first sweep slices run.
      await tab.waitForTimeout(1500);
      loads.push(await tab.evaluate(() => window.__startup));
    } finally {
      await context.close();
    }
    if (i % 2 === 0) controls.push(await loadStatic(browser, `${base}/static-copy.html`, html));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const longest = (tasks) => Math.max(0, ...tasks);
  return {
    hash,
    interactive_ms: loads.map((l) => Math.round(l.clickedMs)),
    play_shown_ms: loads.map((l) => Math.round(l.playShownMs)),
    median_interactive_ms: Math.round(median(loads.map((l) => l.clickedMs))),
    long_tasks_ms: loads.map((l) => l.longTasks.map((t) => t.ms)),
    median_load_longest_task_ms: median(loads.map((l) => longest(l.longTasks.map((t) => t.ms)))),
    static_copy_long_tasks_ms: controls,
    static_copy_median_load_longest_task_ms: median(controls.map(longest)),
  };
}

async function save(results) {
  const file = path.join(ROOT, 'artifacts', 'bench-startup.json');
  let all = {};
  try {
    all = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    // first result of this run
  }
  all.machine = `${os.cpus()[0].model}, ${os.cpus().length} cores, ${os.platform()} ${os.release()}`;
  all.method =
    `${LOADS} cold loads from the static server on loopback in headless Chromium (each load in a new browser context, so nothing is cached); ` +
    'interactive = ms from navigation start until a click on Play, posted as its own task once the button is drawn, was handled; ' +
    'long tasks from PerformanceObserver("longtask"); ' +
    'static copy = the same page as static HTML (its rendered DOM, scripts taken out), loaded cold after each load of the app: the browser alone showing the whole page at once';
  all[results.hash || 'home'] = results;
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, JSON.stringify(all, null, 2));
  console.log(
    `    start-up ${results.hash}: interactive ${results.interactive_ms.join(' / ')} ms; ` +
      `long tasks ${results.long_tasks_ms.map((l) => `[${l.join(', ')}]`).join(' ')} ms; ` +
      `longest in the median load ${results.median_load_longest_task_ms} ms; ` +
      `the page as static HTML: long tasks ${results.static_copy_long_tasks_ms.map((l) => `[${l.join(', ')}]`).join(' ')} ms, ` +
      `longest in the median load ${results.static_copy_median_load_longest_task_ms} ms`,
  );
}

export async function thePlaygroundIsInteractiveWithinASecond({ page, open }) {
  await open();
  const r = await measure(page, '#/playground');
  await save(r);
  assert.ok(r.median_interactive_ms < 1000, `median time to a handled click on Play: ${r.median_interactive_ms} ms`);
}

export async function aLessonIsInteractiveWithinASecond({ page, open }) {
  await open();
  const r = await measure(page, '#/lessons/littles-law');
  await save(r);
  assert.ok(r.median_interactive_ms < 1000, `median time to a handled click on Play: ${r.median_interactive_ms} ms`);
}
