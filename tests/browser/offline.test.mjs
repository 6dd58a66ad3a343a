// Offline for real: after one visit the service worker has the app, its
// course and its assets, so a reload with no network still works through a
// lesson's exercise; a new deployment is offered with a reload; and the lab
// can be installed.
//
// Each test serves the build on a server of its own, so it can take the
// network away (or deploy a "new version") without touching other tests.

import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { threadsBusy } from './exercises.mjs';
import { DIST, expectVisible, launchWithProfile, serveStatic } from './harness.mjs';

/** Waits until the service worker has cached the build and looks after the page. */
async function waitForWorker(page) {
  await page.waitForFunction(() => navigator.serviceWorker?.controller?.state === 'activated', null, {
    timeout: 15_000,
  });
}

/** The names of the caches the page can see. */
const cacheNames = (page) => page.evaluate(() => caches.keys());

export async function theAppReloadsAndChecksAnAnswerWithTheNetworkOff({ page, screenshot }) {
  const server = await serveStatic(DIST);
  let serverClosed = false;
  try {
    await page.goto(`${server.url}/#/lessons/littles-law/threads-busy`);
    await expectVisible(page.locator('#ex-threads-busy'), 'the exercise');
    await waitForWorker(page);
    // The network goes: the server stops and the browser is offline.
    await server.close();
    serverClosed = true;
    await page.context().setOffline(true);
    await page.reload();
    const card = page.locator('#ex-threads-busy');
    await expectVisible(card, 'the exercise, after a reload with no network');
    assert.equal(await page.evaluate(() => navigator.onLine), false, 'the browser is offline');
    const { answer } = await threadsBusy(page);
    await card.getByTestId('answer').fill(String(answer));
    await card.getByTestId('check').click();
    await expectVisible(card.getByTestId('feedback').filter({ hasText: 'Correct.' }), 'the answer checked, offline');
    // The simulator runs offline too.
    await card.getByTestId('sim-check').click();
    await expectVisible(card.getByTestId('sim-check-result'), 'the simulator, offline');
    await card.scrollIntoViewIfNeeded();
    await screenshot('offline-exercise.png', { fullPage: false });
  } finally {
    await page.context().setOffline(false);
    if (!serverClosed) await server.close();
  }
}

export async function aNewVersionIsOfferedWithAReload({ page }) {
  // A copy of the build, so this test can deploy a new version of it.
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tellers-deploy-'));
  await fs.cp(DIST, dir, { recursive: true });
  const server = await serveStatic(dir);
  try {
    await page.goto(`${server.url}/#/lessons`);
    await waitForWorker(page);
    const [first] = await cacheNames(page);
    assert.match(first, /^tellers-[0-9a-f]{16}$/);
    assert.equal(await page.getByTestId('update-notice').count(), 0, 'no notice on the first visit');
    // Deploy: a new build stamps a new version into sw.js, and its page
    // differs (a mark in index.html's head).
    const worker = path.join(dir, 'sw.js');
    const source = await fs.readFile(worker, 'utf8');
    const next = source.replace(/const VERSION ?= ?(['"])([0-9a-f]+)\1;/, "const VERSION = '$2-next';");
    assert.notEqual(next, source, 'sw.js has its stamped VERSION line');
    const index = path.join(dir, 'index.html');
    const html = await fs.readFile(index, 'utf8');
    const marked = html.replace(/<title>/i, '<meta name="tellers-build" content="next"><title>');
    assert.notEqual(marked, html, 'index.html has a <title> to mark the new version beside');
    await fs.writeFile(index, marked);
    await fs.writeFile(worker, next);
    const mark = (p) => p.locator('meta[name="tellers-build"]').count();
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
    const notice = page.getByTestId('update-notice');
    await expectVisible(notice, 'the new-version notice');
    assert.match(await notice.textContent(), /A new version of Tellers is ready/);
    // Until Reload, a page opened now is still the old version, whole.
    const other = await page.context().newPage();
    await other.goto(`${server.url}/#/lessons`);
    await expectVisible(other.locator('.toc__item').first(), 'the lessons in a second tab');
    assert.equal(await mark(other), 0, 'a tab opened before Reload gets the old page');
    await other.close();
    // The new version is cached beside the old one, which the page keeps
    // using until the learner agrees.
    assert.deepEqual((await cacheNames(page)).sort(), [first, `${first}-next`]);
    await Promise.all([page.waitForEvent('load'), notice.getByRole('button', { name: 'Reload' }).click()]);
    await expectVisible(page.locator('.toc__item').first(), 'the lessons, after the reload');
    assert.equal(await mark(page), 1, "after Reload the page is the new version's");
    await page.waitForFunction((name) => caches.keys().then((k) => k.length === 1 && k[0] === name), `${first}-next`);
    assert.equal(await page.getByTestId('update-notice').count(), 0, 'the notice is gone');
  } finally {
    await server.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

export async function theLabCanBeInstalled() {
  // Installing needs a real profile, not the test runner's private contexts.
  const server = await serveStatic(DIST);
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'tellers-profile-'));
  const context = await launchWithProfile(profile);
  try {
    const page = await context.newPage();
    await page.goto(`${server.url}/#/lessons`);
    await waitForWorker(page);
    const cdp = await context.newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    assert.deepEqual(manifest.errors, [], 'the manifest reads');
    assert.equal(JSON.parse(manifest.data).short_name, 'Tellers');
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, [], 'Chromium would install it');
  } finally {
    await context.close();
    await server.close();
    await fs.rm(profile, { recursive: true, force: true });
  }
}
