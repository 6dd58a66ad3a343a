// The engine compiled to WebAssembly: the same scenario and seed give the
// same report as the native CLI, bit for bit; and a side-by-side speed
// benchmark (reported, with the machine, in artifacts/bench-wasm.json).

import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ROOT, tellersCli } from './harness.mjs';

function tellers(...args) {
  return JSON.parse(tellersCli(...args));
}

// The engine's test entry points live in the teacher's wasm (built with the
// app's profile and simulator), so the app students download does not carry
// them: import it as the app does on a teacher page.
async function bindings(page, open) {
  await open('');
  await page.evaluate(async () => {
    const m = await import(new URL('./tellers-teacher.js', location.href).href);
    await m.default();
    window.engineBindings = m;
  });
}

export async function wasmReportsEqualNativeReports({ page, open }) {
  await bindings(page, open);
  const presets = tellers('presets', '--json');
  // One preset for each path the engine has: a pool and its timeouts, a batch,
  // a worker pool beside a loop, keep-alive loops, fixed service, closed
  // clients, retries with jittered backoff and a load schedule, a retry
  // budget, a circuit breaker, adaptive LIFO, a dependency's pool, hedged fan-out calls and
  // 10,000 connections.
  const names = [
    'sale-day',
    'sale-day-timeout',
    'batch-pool-20',
    'node-moderate-pool',
    'waf-offload-unbalanced',
    'md1',
    'node-light-blocking',
    'spike-metastable',
    'spike-retry-budget',
    'spike-breaker',
    'overload-adaptive-lifo',
    'db-pool-limit',
    'fan-out-100-hedged',
    'c10k-event-loop',
  ];
  // And the paths no preset takes: a thread for each request (with and
  // without a cap), evenly spaced arrivals, plain newest-first, and loops
  // that take connections at random.
  const variants = {
    'threads-capped-uniform-lifo': ['sale-day', { model: 'thread-per-request', thread_cap: 30, arrivals: 'uniform', discipline: 'lifo' }],
    'threads-uncapped': ['sale-day', { model: 'thread-per-request', thread_cap: null }],
    'loops-accept-random': ['waf-offload-unbalanced', { accept: 'random' }],
  };
  const runs = [
    ...names.map((name) => [name, { ...presets[name] }]),
    ...Object.entries(variants).map(([name, [from, over]]) => {
      assert.ok(presets[from], `no preset '${from}' to vary`);
      return [name, { ...presets[from], ...over }];
    }),
  ];
  for (const [name, whole] of runs) {
    const scenario = { ...whole, duration_s: Math.min(whole.duration_s, 20) };
    const file = path.join(os.tmpdir(), `tellers-${name}.json`);
    await fs.writeFile(file, JSON.stringify(scenario));
    // The CLI's report adds the scenario that ran and theory's figures.
    const { scenario: ran, theory, ...native } = tellers('simulate', '--scenario', file, '--json');
    assert.deepEqual(ran, scenario, `${name}: the CLI's report names another scenario`);
    assert.ok(theory && 'mean_ms' in theory, `${name}: the CLI's report has no theory`);
    const wasm = JSON.parse(await page.evaluate((s) => window.engineBindings.report_json(s), JSON.stringify(scenario)));
    assert.deepEqual(wasm, native, `${name}: the browser and the CLI disagree`);
  }
}

export async function benchmarkInWasmBesideNative({ page, open }) {
  await bindings(page, open);
  const n = 400_000;
  const timed = await page.evaluate((n) => {
    const b = window.engineBindings;
    b.bench_reference(20_000);
    b.bench_engine(20_000);
    let t = performance.now();
    const refMean = b.bench_reference(n);
    const refMs = performance.now() - t;
    t = performance.now();
    const engMean = b.bench_engine(n);
    const engMs = performance.now() - t;
    return { refMean, refMs, engMean, engMs };
  }, n);
  const native = tellers('bench', '--requests', String(n), '--json');
  const wasmEngineRps = n / (timed.engMs / 1000);
  const result = {
    machine: `${os.cpus()[0].model}, ${os.cpus().length} cores, ${os.platform()} ${os.release()}`,
    method: `M/M/4 at rho 0.9, 10 ms service, ${n} requests, one run each after a 20,000-request warm-up; wasm timed with performance.now() in headless Chromium, native with std::time::Instant`,
    wasm_reference_rps: n / (timed.refMs / 1000),
    wasm_engine_rps: wasmEngineRps,
    wasm_ratio_engine_to_reference: timed.refMs / timed.engMs,
    native_reference_rps: native.reference_rps,
    native_engine_rps: native.engine_rps,
    native_ratio_engine_to_reference: native.ratio,
    wasm_engine_over_native_engine: wasmEngineRps / native.engine_rps,
  };
  await fs.mkdir(path.join(ROOT, 'artifacts'), { recursive: true });
  await fs.writeFile(path.join(ROOT, 'artifacts', 'bench-wasm.json'), JSON.stringify(result, null, 2));
  console.log(
    `    bench: wasm engine ${(wasmEngineRps / 1e6).toFixed(2)} M req/s = ${result.wasm_engine_over_native_engine.toFixed(2)} of native; ` +
      `engine/reference ${result.wasm_ratio_engine_to_reference.toFixed(2)} in wasm, ${native.ratio.toFixed(2)} native`,
  );
  // Correctness, not speed: both contestants simulated the same queue.
  assert.ok(Math.abs(timed.engMean - native.engine_mean_ms) < 1e-9, 'wasm and native engines agree on the mean');
  assert.ok(Math.abs(timed.refMean - timed.engMean) / timed.engMean < 0.05, 'the engine and the minimal loop agree');
}

// A panic leaves the app without its state: the page says so at the top and
// asks for a reload, instead of a frozen figure and buttons that do nothing
// (a run that ran out of memory once did that). The teacher's wasm carries
// the test's trigger; both wasm modules install the same hook.
export async function aPanicSaysSoOnThePage({ page, open, screenshot, expectConsoleError }) {
  expectConsoleError(/a test asked for a panic/);
  await bindings(page, open);
  const threw = await page.evaluate(() => {
    try {
      window.engineBindings.panic_for_test();
      return false;
    } catch {
      return true;
    }
  });
  assert.ok(threw, 'the panic reached JavaScript as an error');
  const note = page.getByTestId('stopped');
  await note.waitFor({ state: 'visible', timeout: 5_000 });
  assert.match(await note.innerText(), /stopped with an error and cannot go on\. Reload the page/);
  assert.equal(await page.locator('[data-testid="stopped"]').count(), 1);
  await screenshot('stopped.png', { fullPage: false });
}
