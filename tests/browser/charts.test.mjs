// The charts and the tellers scene at the width a learner's screen gives
// them: a desktop, a 390 px phone and a 300 px one, light and dark, on
// high-DPI screens. Each canvas must be drawn for its own size (not drawn
// large and shrunk, which made the labels 4–5 px on a phone), fit the
// screen, and leave nothing to scroll sideways. Screenshots of the curve
// and the time series go to artifacts/screenshots/charts-*.png.

import assert from 'node:assert/strict';
import { SCREENSHOTS, expectVisible } from './harness.mjs';
import path from 'node:path';

const SCENARIO = '#/playground?threads=40&rps=280&duration_s=20';

/** Opens the playground in a fresh context with this screen, runs it to the end. */
async function openOn(page, open, { width, height, dpr, scheme }) {
  await open();
  const base = new URL(page.url()).origin;
  const context = await page.context().browser().newContext({
    viewport: { width, height },
    deviceScaleFactor: dpr,
    colorScheme: scheme,
    reducedMotion: 'reduce',
  });
  const tab = await context.newPage();
  const errors = [];
  tab.on('pageerror', (e) => errors.push(e.message));
  tab.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await tab.goto(`${base}/${SCENARIO}`);
  await expectVisible(tab.locator('[data-testid="tellers-canvas"]'), 'the tellers');
  await tab.locator('[data-testid="run-to-end"]').click();
  await tab.waitForFunction(
    () =>
      document.querySelector('[data-testid="run-status"]')?.dataset.state === 'ended' &&
      document.querySelector('[data-testid="curve-canvas"]')?.dataset.sweeping === 'false',
    null,
    { timeout: 20_000 },
  );
  // The last redraws (after the final report) happen in the next frames.
  await tab.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return { tab, context, errors };
}

/** What each canvas looks like on this screen. */
function measureCanvases(tab) {
  return tab.evaluate(() => {
    const canvases = [
      ['tellers', document.querySelector('[data-testid="tellers-canvas"]')],
      ['curve', document.querySelector('[data-testid="curve-canvas"]')],
      ...[...document.querySelectorAll('.panel--series canvas')].map((c, i) => [`series ${i + 1}`, c]),
    ];
    return {
      viewport: window.innerWidth,
      dpr: window.devicePixelRatio,
      scrollWidth: document.documentElement.scrollWidth,
      canvases: canvases.map(([name, c]) => {
        const r = c.getBoundingClientRect();
        return { name, left: r.left, right: r.right, cssW: r.width, cssH: r.height, pxW: c.width, pxH: c.height };
      }),
    };
  });
}

async function checkScreen(page, open, screen) {
  const tag = `${screen.width}-${screen.scheme}`;
  const { tab, context, errors } = await openOn(page, open, screen);
  try {
    const m = await measureCanvases(tab);
    assert.equal(m.canvases.length, 6, 'the scene, the curve and four time series');
    assert.ok(m.scrollWidth <= m.viewport, `${tag}: the page scrolls sideways (${m.scrollWidth} px in ${m.viewport})`);
    for (const c of m.canvases) {
      assert.ok(c.left >= 0 && c.right <= m.viewport + 0.5, `${tag}: ${c.name} is cut off (${c.left}–${c.right} of ${m.viewport})`);
      // Drawn for the size it is shown at, at the screen's pixel ratio: one
      // CSS pixel of drawing per CSS pixel on screen, so its 12–17 px type
      // (src/charts.rs, src/draw.rs) is that size on the screen too.
      const scale = c.pxW / (c.cssW * m.dpr);
      assert.ok(Math.abs(scale - 1) < 0.02, `${tag}: ${c.name} is drawn ${c.pxW} px wide for ${c.cssW.toFixed(1)} CSS px at ${m.dpr}x`);
      assert.ok(Math.abs(c.pxH / (c.cssH * m.dpr) - 1) < 0.02, `${tag}: ${c.name} is stretched vertically`);
    }
    const curve = m.canvases.find((c) => c.name === 'curve');
    assert.ok(curve.cssH >= 300, `${tag}: the curve is ${curve.cssH} px tall`);
    await tab.locator('.panel--curve').screenshot({ path: path.join(SCREENSHOTS, `charts-curve-${tag}.png`) });
    await tab.locator('.panel--series').screenshot({ path: path.join(SCREENSHOTS, `charts-series-${tag}.png`) });
    await tab.locator('.panel--tellers').screenshot({ path: path.join(SCREENSHOTS, `charts-tellers-${tag}.png`) });
    assert.deepEqual(errors, [], `${tag}: errors on the page`);
  } finally {
    await context.close();
  }
}

export async function chartsAndSceneFitADesktop({ page, open }) {
  for (const scheme of ['light', 'dark']) {
    await checkScreen(page, open, { width: 1280, height: 900, dpr: 1, scheme });
  }
}

export async function chartsAndSceneFitA390PxPhone({ page, open }) {
  for (const scheme of ['light', 'dark']) {
    await checkScreen(page, open, { width: 390, height: 844, dpr: 3, scheme });
  }
}

export async function chartsAndSceneFitA300PxPhone({ page, open }) {
  for (const scheme of ['light', 'dark']) {
    await checkScreen(page, open, { width: 300, height: 640, dpr: 2, scheme });
  }
}

export async function theSceneShowsTheDependencysConnectionsAndTheirLine({ page, open, screenshot }) {
  // Ten connections to a database, 20 ms a call, 600 rps: 500 calls a
  // second is all ten can carry, so calls queue for a connection.
  await open('#/playground?model=event-loop&cores=4&loops=4&accept=shared&cpu_ms=1&wait_ms=20&dep_pool=10&rps=600&duration_s=4');
  await expectVisible(page.locator('[data-testid="tellers-canvas"]'), 'the tellers');
  await page.locator('[data-testid="run-to-end"]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="run-status"]')?.dataset.state === 'ended', null, {
    timeout: 20_000,
  });
  const summary = await page.getByTestId('tellers-summary').textContent();
  const m = summary.match(/Connections: (\d+) of 10 in use; ([\d,]+) calls? in line\./);
  assert.ok(m, summary);
  assert.equal(m[1], '10', 'every connection is taken');
  assert.ok(Number(m[2].replace(/,/g, '')) > 0, 'calls wait for a connection');
  await page.locator('.panel--tellers').screenshot({ path: path.join(SCREENSHOTS, 'scene-dependency-pool.png') });
}

export async function theTimeSeriesSayTheirValuesToAScreenReader({ page, open }) {
  // A canvas is a picture: a screen reader hears only its label. Each
  // time-series chart's label says, once a run has points, every line's
  // lowest and highest value, when it peaked and where it ended.
  const { tab, context, errors } = await openOn(page, open, { width: 1280, height: 900, dpr: 1, scheme: 'light' });
  try {
    const labels = await tab.evaluate(() =>
      [...document.querySelectorAll('.panel--series canvas')].map((c) => c.getAttribute('aria-label')),
    );
    assert.equal(labels.length, 4);
    assert.match(labels[0], /^Requests in line and inside over simulated time: in line from [\d,.]+ to [\d,.]+, highest at [\d,.]+ s, [\d,.]+ at the end; inside \(line \+ served\) from/);
    assert.match(labels[1], /^Requests per second over simulated time.*: arriving from [\d,.]+ to [\d,.]+,/);
    assert.match(labels[2], /^CPU busy, percent, over simulated time: CPU busy (from [\d,.]+ % to [\d,.]+ %|[\d,.]+ % throughout)/);
    assert.match(labels[3], /^p99 response time per interval, ms, over simulated time: p99 per interval from [\d,.]+ ms to [\d,.]+ ms/);
    for (const l of labels) assert.ok(!/NaN|undefined|∞/.test(l), `a label reads: ${l}`);
    assert.deepEqual(errors, [], 'errors on the page');
  } finally {
    await context.close();
  }
}

/** Two charts side by side start their plots at one height: in lesson 16's
 * retry widget at 1366 px the load chart's four-entry legend wrapped to
 * three lines and put its plot 45 px below its neighbour's. */
export async function chartsSideBySideLineUpTheirPlots({ page, open }) {
  await page.setViewportSize({ width: 1366, height: 900 });
  await open('#/playground?preset=spike-metastable');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await expectVisible(page.locator('[data-testid="tellers-canvas"]'), 'the tellers');
  await page.locator('[data-testid="run-to-end"]').click();
  await page.locator('[data-testid="run-status"][data-state="ended"]').waitFor({ timeout: 30_000 });
  for (const width of [1366, 1100, 900]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(600);
    const charts = await page.locator('.series-grid canvas').evaluateAll((cs) =>
      cs.map((c) => ({ top: Math.round(c.getBoundingClientRect().top), plot: Number(c.dataset.plotTop) })),
    );
    assert.equal(charts.length, 4);
    for (const [a, b] of [[0, 1], [2, 3]]) {
      if (charts[a].top === charts[b].top) {
        assert.equal(charts[a].plot, charts[b].plot, `at ${width} px, charts ${a + 1} and ${b + 1} start their plots at ${charts[a].plot} and ${charts[b].plot} px`);
      }
    }
  }
}

/** Before a run the time series are bare axes, which a phone walk read as
 * placeholders: the panel says they fill in as the run goes, and stops
 * saying it once they have points. */
export async function emptyTimeSeriesSayWhyBeforeARun({ page, open }) {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await open('#/playground?duration_s=5');
  const note = page.getByTestId('series-empty');
  await expectVisible(note, 'the note under the empty charts');
  assert.match(await note.textContent(), /Nothing to draw yet/);
  await page.getByTestId('run-to-end').click();
  await note.waitFor({ state: 'detached', timeout: 20_000 });
}
