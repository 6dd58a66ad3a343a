#!/usr/bin/env node
// Runs the browser tests: serves dist/, opens headless Chromium, and runs
// every exported function of tests/browser/*.test.mjs as one test, each
// with a fresh page. A test fails if it throws, or if the page logged a
// console error or threw an uncaught error.
//
//   node tests/browser/run.mjs          all tests
//   node tests/browser/run.mjs home     only files whose name contains "home"
//   node tests/browser/run.mjs home keys   only tests in those whose name contains "keys"
//
// A test receives { page, open, screenshot }; a failing test also leaves
// artifacts/screenshots/FAILED-<file>-<test>.png.
//   open(hash)        loads the app, e.g. open('#/lessons'); '' for the home page
//   screenshot(name)  saves artifacts/screenshots/<name>
//   expectConsoleError(re)  a console or page error matching re is part of the test
// Helpers such as expectVisible and expectAccessible are in harness.mjs.

import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DIST, SCREENSHOTS, launchBrowser, screenshot, serveStatic } from './harness.mjs';

/** A test's time limit, unless it sets its own `timeoutMs` (a walk done twice). */
const TEST_TIMEOUT_MS = 30_000;
const here = path.dirname(fileURLToPath(import.meta.url));

async function main() {
  const filter = process.argv[2] ?? '';
  // A second argument keeps only the tests whose name holds it.
  const only = process.argv[3] ?? '';
  try {
    await fs.access(path.join(DIST, 'index.html'));
  } catch {
    console.error('browser: dist/index.html not found; build the app first (make build)');
    return 1;
  }

  const files = (await fs.readdir(here))
    .filter((f) => f.endsWith('.test.mjs') && f.includes(filter))
    .sort();
  // Screenshots of failures from an earlier run would only mislead.
  await fs.mkdir(SCREENSHOTS, { recursive: true });
  for (const old of await fs.readdir(SCREENSHOTS)) {
    if (old.startsWith('FAILED-')) await fs.rm(path.join(SCREENSHOTS, old));
  }

  const server = await serveStatic(DIST);
  const browser = await launchBrowser();
  let passed = 0;
  let failed = 0;

  try {
    for (const file of files) {
      const module = await import(pathToFileURL(path.join(here, file)).href);
      for (const [name, test] of Object.entries(module)) {
        if (typeof test !== 'function' || !name.includes(only)) continue;
        const stem = file.replace(/\.test\.mjs$/, '');
        const label = `${stem} › ${name}`;
        const started = Date.now();
        const problems = await runOne(browser, server.url, test, `${stem}-${name}`);
        const ms = Date.now() - started;
        if (problems.length === 0) {
          passed += 1;
          console.log(`PASS ${label} (${ms} ms)`);
        } else {
          failed += 1;
          console.log(`FAIL ${label} (${ms} ms)`);
          for (const p of problems) console.log(`     ${p.replaceAll('\n', '\n     ')}`);
        }
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }

  if (passed + failed === 0) {
    console.log(`browser: no tests found in tests/browser/*${filter}*.test.mjs`);
    return 1;
  }
  console.log(`browser: ${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

/** Runs one test in a fresh context; returns what went wrong (empty: passed). */
async function runOne(browser, baseUrl, test, name) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const problems = [];
  const expectedErrors = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    if (expectedErrors.some((re) => re.test(msg.text()))) return;
    const where = msg.location()?.url;
    problems.push(`console error: ${msg.text()}${where ? ` (${where})` : ''}`);
  });
  page.on('pageerror', (err) => {
    if (expectedErrors.some((re) => re.test(err.message))) return;
    problems.push(`page error: ${err.message}`);
  });

  const t = {
    page,
    open: (hash = '') => page.goto(`${baseUrl}/${hash}`, { waitUntil: 'load' }),
    screenshot: (file, options) => screenshot(page, file, options),
    expectConsoleError: (re) => expectedErrors.push(re),
  };
  const limit = test.timeoutMs ?? TEST_TIMEOUT_MS;
  let timer;
  try {
    await Promise.race([
      test(t),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${limit} ms`)), limit);
      }),
    ]);
  } catch (err) {
    problems.unshift(err?.message ?? String(err));
    await screenshot(page, `FAILED-${name}.png`).catch(() => {});
  } finally {
    clearTimeout(timer);
    await context.close();
  }
  return problems;
}

process.exitCode = await main();
