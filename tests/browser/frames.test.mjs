// Frame rate: the tellers animation with 2,000 and 10,000 requests in flight. A
// benchmark, not a timed unit test: it measures the frames the browser
// actually drew while the scene played, saves the figures with the machine
// and the method in artifacts/bench-frames.json, and checks the issue's
// target (smooth at 60 frames a second) with the margin explained below.
// A scene with a long task is measured once more before it fails (see
// expectNoLongTaskWhenRepeated in the harness for why).

import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ROOT, expectVisible } from './harness.mjs';

const MEASURE_MS = 3000;

/** Both shapes of "2,000 in flight": most in the back office of one event
 * loop, or 2,000 threads that each hold one (the scene shows 256 tellers and
 * sums up the rest). λ = 2,000/s and 1 s of waiting give L = λW ≈ 2,000.
 * And ten thousand threads (λ = 10,000/s), at 1× only: at 100× the run
 * needs more events than a frame's 5 ms slice allows, so it would lag. */
const SCENES = {
  'event-loop': {
    query: '?model=event-loop&loops=1&cores=4&cpu_ms=0.2&wait_ms=1000&rps=2000&duration_s=3600',
    speeds: [1, 100],
    inside: 2000,
  },
  'thread-per-request': {
    query: '?model=thread-per-request&cores=4&cpu_ms=0.2&wait_ms=1000&rps=2000&duration_s=3600',
    speeds: [1, 100],
    inside: 2000,
  },
  'thread-per-request-10k': {
    query: '?model=thread-per-request&cores=8&cpu_ms=0.2&wait_ms=1000&rps=10000&duration_s=3600',
    speeds: [1],
    inside: 10000,
  },
};

/** Runs before the app: times every animation-frame callback, summed per frame. */
function timeFrameCallbacks() {
  const raf = window.requestAnimationFrame.bind(window);
  window.__frameWork = new Map();
  // Callbacks over 20 ms, with when they ran: whether a long task was the
  // page's own frame work (the simulation step, the drawing) or not.
  window.__slowCallbacks = [];
  window.requestAnimationFrame = (cb) =>
    raf((t) => {
      const start = performance.now();
      try {
        cb(t);
      } finally {
        const ms = performance.now() - start;
        window.__frameWork.set(t, (window.__frameWork.get(t) ?? 0) + ms);
        if (ms > 20) window.__slowCallbacks.push({ start, ms });
      }
    });
}

/** Frames drawn in `ms` of wall time: rate and the spread of frame gaps. */
async function frameStats(page, ms) {
  return page.evaluate(
    (ms) =>
      new Promise((resolve) => {
        const stamps = [];
        const tick = (t) => {
          stamps.push(t);
          if (t - stamps[0] < ms) requestAnimationFrame(tick);
          else {
            const gaps = stamps.slice(1).map((s, i) => s - stamps[i]).sort((a, b) => a - b);
            const q = (p) => gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))];
            resolve({
              from_ms: stamps[0],
              to_ms: stamps.at(-1),
              fps: (gaps.length * 1000) / (stamps.at(-1) - stamps[0]),
              median_gap_ms: q(0.5),
              p95_gap_ms: q(0.95),
              max_gap_ms: gaps.at(-1),
            });
          }
        };
        requestAnimationFrame(tick);
      }),
    ms,
  );
}

async function measureScene(page, open, screenshot, name, { query, inside: expected }, speed) {
  await open(`#/playground${query}&speed=${speed}`);
  const canvas = page.locator('[data-testid="tellers-canvas"]');
  await expectVisible(canvas, 'the tellers');
  // Wait for the line and back office to fill, and for the curve's sweep to finish.
  await page.waitForFunction(
    (expected) => {
      const c = document.querySelector('[data-testid="tellers-canvas"]');
      const curve = document.querySelector('[data-testid="curve-canvas"]');
      return Number(c?.dataset.inside) >= 0.9 * expected && curve?.dataset.sweeping === 'false';
    },
    expected,
    { timeout: 20_000 },
  );
  await page.evaluate(() => {
    window.__frameWork.clear();
    window.__slowCallbacks = [];
    window.__long = [];
    // One observer a scene: the scenes share a page, and an observer left
    // from the scene before would report each task again.
    window.__longObserver?.disconnect();
    window.__longObserver = new PerformanceObserver((l) =>
      l.getEntries().forEach((e) => window.__long.push({ start: e.startTime, ms: e.duration })),
    );
    window.__longObserver.observe({ type: 'longtask' });
  });
  const { from_ms, to_ms, ...stats } = await frameStats(page, MEASURE_MS);
  const inside = Number(await canvas.getAttribute('data-inside'));
  const status = await page.locator('[data-testid="run-status"]').textContent();
  assert.match(status, /^Playing/, `still playing when measured (${status})`);
  // Long tasks over the frames measured: those in the test's own round
  // trips before and after (outside the frames) are not the page playing.
  const long = (await page.evaluate(() => window.__long)).filter((t) => t.start < to_ms && t.start + t.ms > from_ms);
  const longTasks = long.map((t) => Math.round(t.ms));
  // For a failure's message: each long task, and the slow frame callbacks inside it.
  const slow = await page.evaluate(() => window.__slowCallbacks);
  const longTaskParts = long.map((t) => {
    const inside = slow.filter((c) => c.start >= t.start && c.start < t.start + t.ms);
    return `${Math.round(t.ms)} ms at ${Math.round(t.start - from_ms)} ms in, of it frame callbacks: ${
      inside.length ? inside.map((c) => `${Math.round(c.ms)} ms`).join(', ') : 'none over 20 ms'
    }`;
  });
  if (speed === 1) {
    await canvas.scrollIntoViewIfNeeded();
    await screenshot(`tellers-in-flight-${name}.png`, { fullPage: false });
  }
  const work = await page.evaluate(() => [...window.__frameWork.values()].sort((a, b) => a - b));
  const q = (p) => work[Math.min(work.length - 1, Math.floor(p * work.length))];
  return {
    speed,
    expected_inside: expected,
    inside,
    ...stats,
    script_ms_per_frame: { median: q(0.5), p95: q(0.95), max: work.at(-1) },
    long_tasks_ms: longTasks,
    long_task_parts: longTaskParts,
  };
}

export async function theTellersPlayAt60FramesASecondWithThousandsInFlight({ page, open, screenshot }) {
  await page.addInitScript(timeFrameCallbacks);
  // What this browser draws when the page does nothing: the ceiling.
  await open('#/');
  const idle = await frameStats(page, 1000);
  const results = { idle_page_fps: idle.fps };
  for (const [name, scene] of Object.entries(SCENES)) {
    for (const speed of scene.speeds) {
      let r = await measureScene(page, open, screenshot, name, scene, speed);
      // A long task is measured again before it counts: the rule and its
      // reason are in the harness (expectNoLongTaskWhenRepeated). Both
      // measures are kept in the benchmark's file.
      if (r.long_tasks_ms.length > 0) {
        console.log(`     ${name} at ${speed}x: long tasks ${r.long_task_parts.join('; ')}; measuring again`);
        const first = r;
        r = await measureScene(page, open, screenshot, name, scene, speed);
        r.first_measure = first;
      }
      results[`${name} at ${speed}x`] = r;
    }
  }
  const file = path.join(ROOT, 'artifacts', 'bench-frames.json');
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(
    file,
    JSON.stringify(
      {
        machine: `${os.cpus()[0].model}, ${os.cpus().length} cores, ${os.platform()} ${os.release()}`,
        method:
          `playground playing each scene after the line and back office filled and the curve's sweep ended; ` +
          `requestAnimationFrame timestamps over ${MEASURE_MS} ms in headless Chromium (1280x800, device pixel ratio 1); ` +
          'fps = frames / elapsed; gaps between frames; script per frame = time inside requestAnimationFrame callbacks ' +
          '(the simulation step and the drawing), summed per frame; long tasks from PerformanceObserver',
        ...results,
      },
      null,
      2,
    ),
  );
  for (const [name, r] of Object.entries(results)) {
    if (typeof r !== 'object') continue;
    console.log(
      `    frames ${name}: ${r.inside} in flight, ${r.fps.toFixed(1)} fps, gaps median ${r.median_gap_ms.toFixed(1)} / ` +
        `p95 ${r.p95_gap_ms.toFixed(1)} / max ${r.max_gap_ms.toFixed(1)} ms (idle page ${idle.fps.toFixed(1)} fps); ` +
        `script per frame median ${r.script_ms_per_frame.median.toFixed(1)} / p95 ${r.script_ms_per_frame.p95.toFixed(1)} ms`,
    );
  }
  for (const [name, r] of Object.entries(results)) {
    if (typeof r !== 'object') continue;
    assert.ok(r.inside >= 0.9 * r.expected_inside, `${name}: only ${r.inside} requests in flight`);
    // 60 fps is a frame every 16.7 ms. The median gap shows whether the page
    // keeps the beat; 55 fps over 3 s allows a few frames lost to a machine
    // shared with the test runner, and long tasks must be none at all.
    assert.ok(r.median_gap_ms < 17.5, `${name}: median frame gap ${r.median_gap_ms.toFixed(1)} ms`);
    assert.ok(r.fps >= 55, `${name}: ${r.fps.toFixed(1)} frames a second`);
    assert.deepEqual(
      r.long_tasks_ms,
      [],
      `${name}: long tasks while playing, measured twice: ${r.first_measure?.long_task_parts.join('; ')}, then ${r.long_task_parts.join('; ')} ` +
        `(script per frame p95 ${r.script_ms_per_frame.p95.toFixed(1)}, max ${r.script_ms_per_frame.max.toFixed(1)} ms)`,
    );
  }
}
// Five scenes of about 5 s each, and time to measure one of them again.
theTellersPlayAt60FramesASecondWithThousandsInFlight.timeoutMs = 60_000;
