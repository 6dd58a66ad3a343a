// The playground: controls, the tellers, figures beside theory, the curve,
// shareable links, presenter mode, and the same report as the CLI.

import assert from 'node:assert/strict';
import { expectAccessible, expectNoLongTaskWhenRepeated, expectVisible, tellersCli, watchLongTasks } from './harness.mjs';

const byTestId = (page, id) => page.locator(`[data-testid="${id}"]`);
const cell = (page, row) => byTestId(page, row).locator('td');

/** Opens the playground (paused: reduced motion asks for no auto-play). */
async function openPaused(page, open, query = '') {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await open(`#/playground${query}`);
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Playground' }), 'the Playground heading');
  await expectVisible(byTestId(page, 'tellers-canvas'), 'the tellers canvas');
}

/** Waits until the curve's simulated points are all in. */
async function waitForSweep(page, timeout = 15_000) {
  await page.waitForFunction(
    () => {
      const c = document.querySelector('[data-testid="curve-canvas"]');
      return c && c.dataset.sweeping === 'false' && Number(c.dataset.points) > 0;
    },
    null,
    { timeout },
  );
}

const control = (page, field) => page.locator(`.playground__controls [data-field="${field}"]`);

export async function playgroundShowsControlsTellersFiguresAndCurves({ page, open, screenshot }) {
  await open('#/playground?rps=180&duration_s=30&speed=5');
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Playground' }), 'the Playground heading');
  await expectVisible(page.getByLabel('Cores', { exact: true }), 'the cores slider');
  await expectVisible(page.getByLabel('Concurrency model'), 'the model picker');
  await expectVisible(byTestId(page, 'figures'), 'the figures table');
  await expectVisible(byTestId(page, 'curve-canvas'), 'the curve');
  assert.equal(await page.title(), 'Playground · Tellers');
  // Plays by itself: simulated time moves.
  await page.waitForFunction(() => /Playing: [1-9]/.test(document.querySelector('[data-testid="run-status"]').textContent));
  await waitForSweep(page);
  // Let the warm-up (3 s simulated) pass so the figures show numbers.
  await page.waitForFunction(() => !document.querySelector('[data-testid="fig-mean"]').textContent.includes('warming'));
  await screenshot('playground.png');
  await expectAccessible(page);
}

export async function modelPickerShowsOnlyTheControlsThatMatter({ page, open }) {
  await openPaused(page, open);
  await expectVisible(control(page, 'threads'), 'the pool size for a thread pool');
  assert.equal(await control(page, 'workers').count(), 0, 'no worker slider for a thread pool');
  await page.getByLabel('Concurrency model').selectOption('event-loop-workers');
  await expectVisible(control(page, 'workers'), 'the worker slider');
  await expectVisible(control(page, 'offload_above_ms'), 'the hand-off threshold');
  assert.equal(await control(page, 'threads').count(), 0, 'no pool size for event loops');
  await page.getByLabel('How requests arrive').selectOption('closed');
  await expectVisible(control(page, 'clients'), 'the clients slider');
  assert.equal(await control(page, 'rps').count(), 0, 'no arrival rate for a closed loop');
}

export async function movingASliderChangesFiguresAndTheCurve({ page, open }) {
  await openPaused(page, open);
  await waitForSweep(page);
  assert.match(await cell(page, 'fig-cpu-limit').nth(1).textContent(), /^400\srps/);
  const before = await byTestId(page, 'curve-canvas').evaluate((c) => c.toDataURL());
  // Keyboard: focus the cores slider and press → once.
  const slider = page.getByLabel('Cores', { exact: true });
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await control(page, 'cores').locator('input.control__box').inputValue(), '5');
  assert.match(await cell(page, 'fig-cpu-limit').nth(1).textContent(), /^500\srps/);
  assert.match(page.url(), /cores=5/);
  // The pool size: typing in the number box moves the thread limit.
  const pool = control(page, 'threads').locator('input.control__box');
  await pool.fill('10');
  await pool.press('Enter');
  await expectVisible(cell(page, 'fig-thread-limit').nth(1).filter({ hasText: /100\srps/ }), 'a thread limit of 100 rps');
  await waitForSweep(page);
  const after = await byTestId(page, 'curve-canvas').evaluate((c) => c.toDataURL());
  assert.notEqual(after, before, 'the curve was redrawn');
}

export async function aDraggedSliderWritesTheUrlAFewTimesAndEndsOnItsValue({ page, open }) {
  // Count the address bar's writes: a drag changes the scenario every frame,
  // and the URL follows at most every 300 ms (src/playground.rs, URL_EVERY_MS).
  await page.addInitScript(() => {
    window.__urlWrites = 0;
    const replace = history.replaceState.bind(history);
    history.replaceState = (...args) => {
      window.__urlWrites += 1;
      return replace(...args);
    };
  });
  await openPaused(page, open);
  const slider = control(page, 'rps').locator('input[type="range"]');
  await slider.scrollIntoViewIfNeeded();
  const box = await slider.boundingBox();
  const y = box.y + box.height / 2;
  await page.evaluate(() => {
    window.__urlWrites = 0;
    window.__values = new Set();
    document.addEventListener('input', (e) => window.__values.add(e.target.value), true);
  });
  await page.mouse.move(box.x + 4, y);
  await page.mouse.down();
  for (let i = 0; i <= 30; i += 1) {
    await page.mouse.move(box.x + 4 + ((box.width - 8) * i) / 30, y);
    await page.waitForTimeout(16);
  }
  await page.mouse.up();
  const value = await slider.inputValue();
  const changes = await page.evaluate(() => window.__values.size);
  assert.ok(changes >= 15, `the drag changed the rate ${changes} times`);
  // The drag's end (its `change`) writes the last value at once, not after the pause.
  const inUrl = await page.evaluate(() => new URLSearchParams(location.hash.split('?')[1]).get('rps'));
  assert.equal(inUrl, value, 'the URL holds the value the drag ended on');
  const writes = await page.evaluate(() => window.__urlWrites);
  assert.ok(writes >= 1 && writes <= changes / 3, `${writes} writes of the URL for ${changes} changes`);
  // The number box shows the value the drag ended on, which the URL now holds.
  assert.equal(await control(page, 'rps').locator('input.control__box').inputValue(), value);
}

export async function aBoxWithABadValueSaysWhatIsAllowedAndKeepsTheRun({ page, open, screenshot }) {
  await openPaused(page, open);
  const rps = control(page, 'rps').locator('input.control__box');
  const before = page.url();
  for (const [typed, allowed] of [
    ['-1', /allowed 0\.001–1,000,000 rps/],
    ['fast', /not a number/],
    // A decimal comma is refused, not read as 25.
    ['2,5', /'2,5': write decimals with a point/],
  ]) {
    await rps.fill(typed);
    await rps.press('Enter');
    await expectVisible(control(page, 'rps').getByRole('alert').filter({ hasText: allowed }), `the rule for '${typed}'`);
    assert.equal(await rps.inputValue(), typed, 'the box keeps what was typed');
    assert.equal(await rps.getAttribute('aria-invalid'), 'true');
    assert.equal(page.url(), before, 'the scenario did not change');
  }
  const cores = control(page, 'cores').locator('input.control__box');
  await cores.fill('0');
  await cores.press('Enter');
  await expectVisible(control(page, 'cores').getByRole('alert').filter({ hasText: /allowed 1–1,024 cores/ }), 'the cores rule');
  // A negative count is a whole number out of range, not "not a whole number".
  await cores.fill('-2');
  await cores.press('Enter');
  await expectVisible(
    control(page, 'cores').getByRole('alert').filter({ hasText: /(^|\s)-2 is out of range; allowed 1–1,024 cores/ }),
    'the range for -2 cores',
  );
  assert.ok(!(await control(page, 'cores').getByRole('alert').textContent()).includes('whole number'));
  // The seed box too: a seed that is not allowed stays, with the rule.
  const seed = control(page, 'seed').locator('input');
  await seed.scrollIntoViewIfNeeded();
  await seed.fill('1.5');
  await seed.press('Enter');
  await expectVisible(control(page, 'seed').getByRole('alert').filter({ hasText: /whole number/ }), 'the seed rule');
  assert.equal(await seed.getAttribute('aria-invalid'), 'true');
  assert.equal(page.url(), before, 'the seed did not change');
  // The note quotes what was typed: a number box gave '' for these.
  for (const [typed, says] of [
    ['1e400', "'1e400' is out of range; allowed 0–18,446,744,073,709,551,615"],
    ['-', "'-' is not a whole number; allowed 0–"],
  ]) {
    await seed.fill(typed);
    await seed.press('Enter');
    await expectVisible(control(page, 'seed').getByRole('alert').filter({ hasText: says }), `the seed note for '${typed}'`);
  }
  await screenshot('playground-bad-box.png');
  // Fixing it clears the note and applies the value.
  await rps.fill('120');
  await rps.press('Enter');
  assert.equal(await control(page, 'rps').getByRole('alert').count(), 0);
  assert.match(page.url(), /rps=120/);
}

export async function aSliderOrBoxSetsWhatItShowsOrSaysWhyNot({ page, open }) {
  // Closed clients with no think time and no wait: CPU 0 would leave them
  // nothing to do. The slider says why and goes back to the value kept.
  await openPaused(page, open, '?arrivals=closed&wait_ms=0');
  const before = page.url();
  const cpu = control(page, 'cpu_ms').locator('input[type="range"]');
  await cpu.fill('0');
  await expectVisible(control(page, 'cpu_ms').getByRole('alert').filter({ hasText: /think/ }), 'why CPU 0 is refused');
  assert.equal(Number(await cpu.inputValue()), 10, 'the thumb is back at the value the run keeps');
  assert.equal(page.url(), before, 'the scenario did not change');
  // "none" in an optional field's box switches it off, as links write it.
  await openPaused(page, open, '?queue_limit=50');
  const limit = control(page, 'queue_limit').locator('input.control__box');
  await limit.fill('none');
  await limit.press('Enter');
  await page.waitForFunction(() => !location.hash.includes('queue_limit'));
  assert.equal(await control(page, 'queue_limit').getByRole('alert').count(), 0);
  // Its slider at 0 is read out as its label says 0 means, not as "0".
  const thumb = control(page, 'queue_limit').locator('input[type="range"]');
  await page.waitForFunction(
    () => document.querySelector('.playground__controls [data-field="queue_limit"] input[type="range"]')
      ?.getAttribute('aria-valuetext') === 'no limit',
  );
  await thumb.fill('50');
  await page.waitForFunction(
    () => document.querySelector('.playground__controls [data-field="queue_limit"] input[type="range"]')
      ?.getAttribute('aria-valuetext') === '50 requests',
  );
}

export async function everyPresetLoadsFromTheMenu({ page, open }) {
  await openPaused(page, open);
  const menu = byTestId(page, 'presets');
  const names = (await menu.locator('option').evaluateAll((os) => os.map((o) => o.value))).filter(Boolean);
  assert.ok(names.length >= 20, `only ${names.length} presets`);
  for (const name of names) {
    await menu.selectOption(name);
    assert.equal(await menu.inputValue(), name, `the menu shows ${name}`);
    await page.waitForFunction(() => !location.hash.endsWith('#/playground'));
    await byTestId(page, 'step').click();
    await expectVisible(byTestId(page, 'fig-throughput'), `the figures of ${name}`);
  }
}

export async function playPauseAndStep({ page, open }) {
  await openPaused(page, open);
  const status = byTestId(page, 'run-status');
  assert.match(await status.textContent(), /^Not started: /, 'reduced motion: no auto-play');
  const summary = byTestId(page, 'tellers-summary');
  const first = await summary.textContent();
  for (let i = 0; i < 5; i += 1) await byTestId(page, 'step').click();
  await page.keyboard.press('ArrowRight');
  assert.notEqual(await summary.textContent(), first, 'stepping moved the run');
  // Play turning into Pause moves none of the buttons beside it.
  const stepAt = async () => (await byTestId(page, 'step').boundingBox()).x;
  const before = await stepAt();
  await byTestId(page, 'play').click();
  await page.waitForFunction(() => /^Playing: [0-9.]+ s/.test(document.querySelector('[data-testid="run-status"]').textContent));
  assert.equal((await byTestId(page, 'play').textContent()).trim(), 'Pause');
  assert.equal(await stepAt(), before, 'Step stays where it was when Play reads Pause');
  await page.waitForTimeout(600);
  await byTestId(page, 'play').click();
  const paused = await status.textContent();
  assert.match(paused, /^Paused: /);
  await page.waitForTimeout(400);
  assert.equal(await status.textContent(), paused, 'paused: time stands still');
  // Space plays and pauses from the keyboard.
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('Space');
  await page.waitForFunction(() => /^Playing/.test(document.querySelector('[data-testid="run-status"]').textContent));
  await byTestId(page, 'restart').click();
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('Space');
  await page.waitForFunction(() => /^Paused/.test(document.querySelector('[data-testid="run-status"]').textContent));
}

export async function aSharedLinkOpensTheSameScenario({ page, open }) {
  await openPaused(page, open, '?cores=8&model=event-loop&rps=300&seed=7&cpu_dist=const&speed=2.5');
  assert.equal(await page.getByLabel('Concurrency model').inputValue(), 'event-loop');
  assert.equal(await control(page, 'cores').locator('input.control__box').inputValue(), '8');
  assert.equal(await control(page, 'rps').locator('input.control__box').inputValue(), '300');
  assert.equal(await page.getByLabel('CPU times are').inputValue(), 'const');
  assert.equal(await control(page, 'seed').locator('input').inputValue(), '7');
  assert.equal(await byTestId(page, 'speed').textContent(), '2.5×');
  assert.equal(await byTestId(page, 'link-notice').count(), 0, 'a good link has no notice');
  const link = await byTestId(page, 'share-link').inputValue();
  await byTestId(page, 'copy-link').click();
  await expectVisible(page.getByRole('status').filter({ hasText: /copied|copy it/ }), 'word that the link was copied');
  // The link written back opens the very same scenario in a new page.
  const again = await page.context().newPage();
  await again.emulateMedia({ reducedMotion: 'reduce' });
  await again.goto(link);
  await expectVisible(again.getByLabel('Concurrency model'), 'the model picker in the new page');
  assert.equal(await again.locator('[data-testid="share-link"]').inputValue(), link);
  assert.equal(await again.getByLabel('Concurrency model').inputValue(), 'event-loop');
  await again.close();
}

export async function aLinkOpensAPresetWithItsOwnChanges({ page, open }) {
  // As a teacher writes it on the board: the preset, one change, presenter mode off.
  await openPaused(page, open, '?preset=sale-day&rps=300');
  assert.equal(await byTestId(page, 'link-notice').count(), 0, 'a good link has no notice');
  assert.equal(await control(page, 'rps').locator('input.control__box').inputValue(), '300', "the link's change");
  assert.equal(await byTestId(page, 'presets').inputValue(), '', 'changed, so not the preset itself');
  // The link written back is the usual form, and without the change it is the preset.
  assert.ok(!(await byTestId(page, 'share-link').inputValue()).includes('preset='));
  await openPaused(page, open, '?preset=sale-day');
  assert.equal(await byTestId(page, 'presets').inputValue(), 'sale-day', 'the menu shows the preset');
  // A misspelt name says the name it likely meant, and which names there are.
  await openPaused(page, open, '?preset=sael-day&cores=3');
  const text = await byTestId(page, 'link-notice').textContent();
  assert.match(text, /preset: no preset 'sael-day' \(did you mean 'sale-day'\?\); the defaults were used; allowed: .*sale-day/);
  assert.equal(await control(page, 'cores').locator('input.control__box').inputValue(), '3', 'the other fields stand');
  // A bad value keeps the preset's: M/M/1 stays on one core.
  await openPaused(page, open, '?preset=mm1&cores=abc');
  const kept = await byTestId(page, 'link-notice').textContent();
  assert.match(kept, /The preset's values are shown instead/);
  assert.match(kept, /the preset's value was used/);
  assert.equal(await control(page, 'cores').locator('input.control__box').inputValue(), '1', "the preset's value");
  assert.equal(await byTestId(page, 'presets').inputValue(), 'mm1', 'still the preset');
}

export async function aCurveWithNoPointsSaysWhy({ page, open }) {
  // No CPU on an event loop: its capacity is unlimited, so there is no utilisation to sweep.
  await openPaused(page, open, '?model=event-loop&cpu_ms=0&wait_ms=100');
  await page.waitForFunction(() => document.querySelector('[data-testid="curve-canvas"]')?.dataset.sweeping === 'false');
  assert.match(
    await byTestId(page, 'sweep-progress').textContent(),
    /^No simulated points: the scenario's capacity is unlimited/,
  );
  // Keep-alive connections that think for 100 s never bring a point up to
  // its rate: no point is drawn, and the panel says why.
  await openPaused(page, open, '?model=event-loop&conn_requests=100000&think_ms=100000');
  await page.waitForFunction(() => document.querySelector('[data-testid="curve-canvas"]')?.dataset.sweeping === 'false', null, { timeout: 30_000 });
  assert.equal(
    await byTestId(page, 'sweep-progress').textContent(),
    "0 simulated points; the points at 10 %, 20 %, 30 %, 40 %, 50 %, 60 %, 70 %, 80 %, 90 % and 95 % are not drawn: requests arrived at under half the point's rate, so the run never reached its load.",
  );
}

export async function aTamperedLinkSaysWhatWasWrongAndStillWorks({ page, open }) {
  await openPaused(page, open, '?cores=abc&rps=NaN&model=%3Cscript%3Ewindow.pwned%3D1%3C%2Fscript%3E&bogus=1&threads=99999999999&wait_ms=50');
  const notice = byTestId(page, 'link-notice');
  await expectVisible(notice, 'the notice about the bad link');
  const text = await notice.textContent();
  for (const field of ['cores', 'rps', 'model', 'bogus', 'threads']) {
    assert.ok(text.includes(field), `the notice names ${field}: ${text}`);
  }
  assert.ok(!text.includes('wait_ms'), 'good fields are not in the notice');
  assert.equal(await notice.locator('script').count(), 0, 'no markup from the link');
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.equal(await control(page, 'cores').locator('input.control__box').inputValue(), '4', 'the default is used');
  assert.equal(await control(page, 'wait_ms').locator('input.control__box').inputValue(), '50', 'good fields are kept');
  await byTestId(page, 'step').click();
  await expectVisible(byTestId(page, 'fig-throughput'), 'the figures');
}

export async function aRepeatedSettingIsSaidToKeepItsFirstValue({ page, open }) {
  await openPaused(page, open, '?cores=6&cores=8');
  const notice = byTestId(page, 'link-notice');
  await expectVisible(notice, 'the notice about the repeated setting');
  const text = await notice.textContent();
  assert.match(text, /cores: given twice; the first value was kept/);
  assert.ok(!text.includes('default'), `no default is claimed: ${text}`);
  assert.equal(await control(page, 'cores').locator('input.control__box').inputValue(), '6', 'the first value is shown');
  // Defaults only: said so.
  await openPaused(page, open, '?cores=abc');
  assert.match(await byTestId(page, 'link-notice').textContent(), /Their defaults are shown instead/);
}

export async function aValuePastTheSliderSaysWhatTheBoxTakes({ page, open }) {
  await openPaused(page, open, '?cores=1024&threads=100000');
  assert.equal(await byTestId(page, 'link-notice').count(), 0, 'the values are allowed');
  for (const [field, value, note] of [
    ['cores', '1024', 'Slider 1–64; the box takes 1–1,024 cores'],
    ['threads', '100000', 'Slider 1–400; the box takes 1–100,000 threads'],
  ]) {
    assert.equal(await control(page, field).locator('input.control__box').inputValue(), value);
    assert.equal((await control(page, field).locator('.control__range').textContent()).trim(), note);
  }
  // On the slider, the slider's span alone.
  await openPaused(page, open, '?cores=8');
  assert.equal((await control(page, 'cores').locator('.control__range').textContent()).trim(), '1–64');
}

export async function noLongTaskWhileTheCurveIsSimulated({ page, open }) {
  const longTasks = await watchLongTasks(page);
  await expectNoLongTaskWhenRepeated('the curve simulated four times and a run to the end', async () => {
    await open('#/playground?rps=150&speed=100');
    await waitForSweep(page);
    await page.waitForTimeout(200);
    // Start-up (compiling the wasm) is not the playground's work: count from here.
    await longTasks.reset();
    for (const value of ['120', '60', '170']) {
      const rps = control(page, 'rps').locator('input.control__box');
      await rps.fill(value);
      await rps.press('Enter');
      await waitForSweep(page);
    }
    await byTestId(page, 'run-to-end').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="run-status"]').dataset.state === 'ended', null, {
      timeout: 20_000,
    });
    return { over: await longTasks.over() };
  });
}

export async function noLongTaskWhileExploringPresetsModelsAndPages({ page, open }) {
  const longTasks = await watchLongTasks(page);
  const explore = async () => {
    await open('#/playground');
    await waitForSweep(page);
    // Start-up is measured by startup.test.mjs: count from here.
    await longTasks.reset();
    const presets = byTestId(page, 'presets');
    const names = await presets.locator('option').evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
    assert.ok(names.length >= 20, `presets: ${names.length}`);
    for (const name of names) {
      await longTasks.step(`the preset ${name}`);
      await presets.selectOption(name);
      await page.waitForTimeout(150);
    }
    await longTasks.step('a model picked');
    await page.getByLabel('Concurrency model').selectOption('event-loop-workers');
    await longTasks.step('presenter mode on and off');
    await byTestId(page, 'presenter').click();
    await byTestId(page, 'presenter').click();
    await longTasks.step('the lessons');
    await page.getByRole('link', { name: 'Lessons' }).first().click();
    await expectVisible(page.locator('.toc__item').first(), 'the contents');
    await longTasks.step('the first lesson');
    await page.locator('.toc__link').first().click();
    await page.waitForTimeout(800);
    await longTasks.step('the lesson scrolled');
    await page.mouse.wheel(0, 4000);
    await longTasks.step('back to the playground');
    await page.getByRole('link', { name: 'Playground' }).first().click();
    await waitForSweep(page);
  };
  // About fifty changes of page and scenario: a long task must come back in
  // the same step to fail (the harness says why).
  await expectNoLongTaskWhenRepeated('every preset, a model, presenter mode and the lessons', async () => {
    await explore();
    const steps = await longTasks.overBySteps();
    return { over: steps.map((s) => s.ms), steps };
  });
}

// About 10 s a walk, and time to walk twice more.
noLongTaskWhileExploringPresetsModelsAndPages.timeoutMs = 60_000;

export async function aRetryStormPlaysRunsToTheEndAndItsScheduleCanBeEdited({ page, open, screenshot }) {
  const longTasks = await watchLongTasks(page);
  const schedule = control(page, 'rps_schedule');
  await expectNoLongTaskWhenRepeated('a retry storm played and run to the end', async () => {
    await open('#/playground?speed=100');
    await waitForSweep(page);
    await byTestId(page, 'presets').selectOption('spike-metastable');
    await waitForSweep(page);
    await longTasks.reset();
    // The load schedule editor shows the preset's three steps.
    await expectVisible(schedule.getByRole('table'), 'the load schedule');
    assert.equal(await schedule.locator('tbody tr').count(), 3);
    assert.equal(await schedule.getByLabel('Step 2: rate, requests per second').inputValue(), '400');
    // Play a 60 s spike at 100x for a few seconds, then run it to the end.
    await byTestId(page, 'play').click();
    await page.waitForTimeout(3000);
    await byTestId(page, 'run-to-end').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="run-status"]').dataset.state === 'ended', null, {
      timeout: 30_000,
    });
    return { over: await longTasks.over() };
  });
  await expectVisible(byTestId(page, 'signs').filter({ hasText: 'A retry storm' }), 'the retry storm named');
  // Theory's steady figures say which rate they are for.
  assert.match(await byTestId(page, 'figures').locator('thead th').nth(2).textContent(), /^Theory at 150\srps, the first step$/);
  await expectVisible(byTestId(page, 'fig-retries'), 'the retries row');
  await page.locator('.panel--series').scrollIntoViewIfNeeded();
  await screenshot('playground-retry-storm.png');
  // A bad step says which step is wrong and keeps the run; Steady rate removes the schedule.
  const t2 = schedule.getByLabel('Step 2: from, seconds');
  await t2.fill('0');
  await t2.press('Enter');
  await expectVisible(schedule.getByRole('alert').filter({ hasText: /step 2/ }), 'the bad step named');
  assert.match(page.url(), /rps_schedule=0%3A150%2C10%3A400%2C15%3A150/);
  await t2.fill('12');
  await t2.press('Enter');
  await expect(() => assert.match(page.url(), /rps_schedule=0%3A150%2C12%3A400%2C15%3A150/));
  assert.equal(await schedule.getByRole('alert').count(), 0, 'the note is gone once fixed');
  // Add a step adds a row (its label once held the macro's own code: a
  // bare `>=` in an attribute had ended the tag, and the click did nothing).
  const add = byTestId(page, 'schedule-add-step');
  assert.equal((await add.textContent()).trim(), 'Add a step');
  await add.click();
  await expectVisible(schedule.locator('tbody tr').nth(3), 'a fourth step');
  await expect(() => assert.match(page.url(), /rps_schedule=0%3A150%2C12%3A400%2C15%3A150%2C[0-9.]+%3A/));
  await byTestId(page, 'schedule-steady').click();
  await expect(() => assert.doesNotMatch(page.url(), /rps_schedule/));
}

/** Retries `check` (which throws until it holds) for up to two seconds. */
async function expect(check) {
  const until = Date.now() + 2000;
  for (;;) {
    try {
      return check();
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export async function presenterModeIsLargeAndFoldsTheControls({ page, open, screenshot }) {
  await open('#/playground?presenter=1&model=event-loop&loops=1&cores=4&rps=60&cpu_ms=10&heavy_share=0.05&heavy_cpu_ms=60&duration_s=30&speed=4');
  await expectVisible(byTestId(page, 'tellers-canvas'), 'the tellers');
  assert.equal(await page.locator('.playground__controls').isVisible(), false, 'controls folded away');
  await waitForSweep(page);
  await page.waitForTimeout(2500);
  await screenshot('playground-presenter.png');
  // A bad value typed in the strip is said there, as outside presenter mode
  // (its box only turned red: the note holding it was folded away).
  const rps = page.locator('.presenter-strip [data-field="rps"] input.control__box');
  await rps.fill('3p00');
  await rps.press('Enter');
  await expectVisible(page.locator('.presenter-strip .control__problem').filter({ hasText: /'3p00' is not a number/ }), 'the bad value said');
  await rps.fill('60');
  await rps.press('Enter');
  await rps.evaluate((e) => e.blur());
  await page.keyboard.press('p');
  await expectVisible(page.locator('.playground__controls'), 'the controls after leaving presenter mode');
  assert.ok(!page.url().includes('presenter=1'));
}

export async function playgroundIsReadableInDarkMode({ page, open, screenshot }) {
  await page.emulateMedia({ colorScheme: 'dark' });
  await open('#/playground?threads=40&rps=280&duration_s=20&speed=4');
  await expectVisible(byTestId(page, 'tellers-canvas'), 'the tellers');
  await waitForSweep(page);
  await page.waitForTimeout(2500);
  await screenshot('playground-dark.png');
  await expectAccessible(page);
}

/** Relative difference of two numbers (0 when both are 0). */
function relDiff(a, b) {
  if (a === b) return 0;
  return Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
}

/** Every leaf of `want` must match `got`: numbers to 1e-9 relative, the rest exactly. */
function compareReports(got, want, where = 'report') {
  if (want === null || typeof want !== 'object') {
    if (typeof want === 'number' && typeof got === 'number') {
      assert.ok(relDiff(got, want) <= 1e-9, `${where}: ${got} in the browser, ${want} from the CLI`);
    } else {
      assert.deepEqual(got, want, where);
    }
    return;
  }
  for (const key of Object.keys(want)) {
    compareReports(got?.[key], want[key], `${where}.${key}`);
  }
}

const COUNTS = ['arrived', 'completed', 'refused', 'dropped', 'timed_out', 'finished_after_timeout', 'in_flight_end', 'queue_len_end', 'peak_threads', 'peak_connections', 'events'];

/** The CLI's report of a preset, without the scenario and theory it adds. */
function cliReport(preset) {
  const { scenario, theory, ...report } = JSON.parse(tellersCli('simulate', '--preset', preset, '--json'));
  return report;
}

export async function runToTheEndGivesTheCliReport({ page, open }) {
  const want = cliReport('sale-day');
  await openPaused(page, open);
  await byTestId(page, 'presets').selectOption('sale-day');
  await byTestId(page, 'run-to-end').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="run-status"]').dataset.state === 'ended', null, {
    timeout: 20_000,
  });
  assert.equal(await byTestId(page, 'report-json').getAttribute('data-final'), 'true');
  const got = JSON.parse(await byTestId(page, 'report-json').textContent());
  const cli = await want;
  for (const key of COUNTS) assert.equal(got[key], cli[key], `${key}: the browser and the CLI differ`);
  compareReports(got, cli);
  await expectVisible(page.locator('[data-sign="pool-limit"]'), 'the verdict "the pool is the limit"');
}

export async function theCurvesSimulatedPointsAreTheClisSweep({ page, open }) {
  await openPaused(page, open);
  await byTestId(page, 'presets').selectOption('sale-day');
  await page.waitForFunction(() => location.hash.includes('rps='));
  await waitForSweep(page);
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="curve-canvas"]').dataset.points) === 10);
  const shown = JSON.parse(await byTestId(page, 'curve-canvas').getAttribute('data-sweep'));
  const cli = JSON.parse(tellersCli('sweep', '--preset', 'sale-day', '--json'));
  assert.equal(shown.length, cli.length, 'as many points as the CLI');
  cli.forEach((row, i) => {
    assert.deepEqual(shown[i], [row.rho, row.sim_mean_ms, row.sim_p99_ms], `point ${i} (ρ = ${row.rho})`);
  });
}

export async function playgroundFitsAPhoneScreen({ page, open }) {
  await page.setViewportSize({ width: 375, height: 740 });
  await openPaused(page, open);
  await byTestId(page, 'step').click();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0, `the playground scrolls sideways by ${overflow} px on a 375 px screen`);
  // The run's buttons come first and the scene right after them, then the
  // scenario's settings, then the figures and the charts (after the
  // charts, the settings were 4,900 px below Play; after the figures,
  // 2,500 px, three screens from the scene a slider changes).
  await expectVisible(page.locator('.panel--series'), 'the time series');
  const top = (sel) => page.evaluate((s) => document.querySelector(s).getBoundingClientRect().top + window.scrollY, sel);
  assert.ok((await top('[data-testid="play"]')) < 740, 'Play is on the first screen');
  assert.ok((await top('[data-testid="tellers-canvas"]')) < 2 * 740, 'the scene is within two screens');
  const order = ['[data-testid="tellers-canvas"]', '.playground__controls', '[data-testid="figures"]', '.panel--curve', '.panel--series'];
  const tops = [];
  for (const sel of order) tops.push(await top(sel));
  assert.deepEqual(
    order.filter((_, i) => i > 0 && tops[i] <= tops[i - 1]),
    [],
    `on a phone: scene, settings, figures, curve, time series; tops ${tops.map(Math.round).join(', ')} px`,
  );
  const fromScene = tops[1] - tops[0];
  assert.ok(fromScene < 1.5 * 740, `the settings are within a screen and a half of the scene: ${Math.round(fromScene)} px`);
}

export async function aPresenterLinkOpenedOnAPhoneFitsItsWidth({ page, open, screenshot }) {
  // The link a teacher shares from the board (README: "On the projector"),
  // opened on a student's phone: the tools in one row made the page 649 px
  // wide at 390, "Leave presenter mode" over the preset's label.
  await page.setViewportSize({ width: 390, height: 844 });
  await open('#/playground?preset=sale-day&rps=300&presenter=1');
  await expectVisible(byTestId(page, 'presenter-strip'), 'presenter mode');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0, `presenter mode scrolls sideways by ${overflow} px on a 390 px screen`);
  const box = async (sel) => page.locator(sel).boundingBox();
  const label = await box('.playground__preset > span');
  const leave = await box('[data-testid="presenter"]');
  const apart = label.x + label.width <= leave.x || leave.y >= label.y + label.height || leave.y + leave.height <= label.y;
  assert.ok(apart, `"Leave presenter mode" covers the preset's label: ${JSON.stringify({ label, leave })}`);
  for (const id of ['presets', 'presenter', 'full-screen']) {
    const b = await box(`[data-testid="${id}"]`);
    assert.ok(b.x >= 0 && b.x + b.width <= 390, `${id} within the screen: ${JSON.stringify(b)}`);
  }
  await screenshot('presenter-link-390.png');
}

export async function aTouchPhoneShowsNoKeyLegendNoBlankRowAndNoPresenterMode({ page, open }) {
  await open('#/playground');
  const url = page.url();
  const context = await page.context().browser().newContext({ viewport: { width: 375, height: 667 }, hasTouch: true, isMobile: true });
  try {
    const phone = await context.newPage();
    await phone.goto(url);
    await expectVisible(phone.locator('[data-testid="presets"]'), 'the tools');
    // No keys to press on a touch screen: no legend of them.
    assert.equal(await phone.locator('.playground__keys').isVisible(), false, 'the keyboard legend on a touch screen');
    // The "Copied" status takes no line until there is something to say.
    const copied = await phone.locator('.playground__copied').evaluate((e) => e.getBoundingClientRect().height);
    assert.equal(copied, 0, `the empty status is ${copied} px tall`);
    // A phone is not a projector: no presenter mode offered, on the
    // playground or on a lesson (its print buttons stay).
    assert.equal(await phone.getByTestId('presenter').isVisible(), false, "the playground's presenter mode on a phone");
    await phone.goto(url.replace(/#.*$/, '#/lessons/littles-law'));
    await expectVisible(phone.getByTestId('worksheet-link'), 'the worksheet link');
    assert.equal(await phone.getByTestId('lesson-presenter').isVisible(), false, "a lesson's presenter mode on a phone");
  } finally {
    await context.close();
  }
}

/** On a laptop the scenario panel scrolls on its own; a shadow at its
 * edge says there is more (a Mac draws no scrollbar until one scrolls):
 * covers that scroll with the settings, over shadows that stay put. */
export async function theScenarioPanelShowsThereIsMoreToScroll({ page, open }) {
  await page.setViewportSize({ width: 1366, height: 768 });
  await openPaused(page, open);
  const panel = page.locator('.playground__controls');
  await expectVisible(panel.locator('select').first(), 'the selects');
  const s = await panel.evaluate((e) => ({
    more: e.scrollHeight - e.clientHeight,
    attachment: getComputedStyle(e).backgroundAttachment,
    images: getComputedStyle(e).backgroundImage.match(/gradient\(/g)?.length ?? 0,
  }));
  assert.ok(s.more > 100, `the panel scrolls on a laptop (${s.more} px more)`);
  assert.match(s.attachment, /^local, local, scroll, scroll\b/);
  assert.equal(s.images, 4, 'two covers and two shadows');
}

export async function theControlsStayInsideTheirPanel({ page, open }) {
  for (const width of [1366, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await openPaused(page, open);
    await expectVisible(page.locator('.playground__controls select').first(), 'the selects');
    const spill = await page.evaluate(() => {
      // The panel's content edge: inside its padding and border.
      const el = document.querySelector('.playground__controls');
      const cs = getComputedStyle(el);
      const edge = el.getBoundingClientRect().right - parseFloat(cs.borderRightWidth) - parseFloat(cs.paddingRight);
      return [...el.querySelectorAll('select, .control__unit')]
        .map((c) => [c.closest('[data-field]')?.dataset.field, Math.round(c.getBoundingClientRect().right - edge)])
        .filter(([, over]) => over > 0);
    });
    assert.deepEqual(spill, [], `controls past the scenario panel's edge at ${width} px`);
  }
}

/** The tellers picture turns dark with the page at its next frame, idle or
 * not, in presenter mode too (an idle picture kept its light colours for up
 * to a second, its dark text unreadable on the now dark page). */
export async function theTellersPictureFollowsTheColourSchemeAtOnce({ page, open }) {
  await page.emulateMedia({ colorScheme: 'light' });
  await openPaused(page, open, '?duration_s=5&presenter=1');
  await byTestId(page, 'run-to-end').click();
  await page.waitForSelector('[data-testid="run-status"][data-state="ended"]');
  const picture = () => page.evaluate(() => document.querySelector('[data-testid="tellers-canvas"]').toDataURL());
  // Let any drawing after the end settle, then switch three times: asked
  // once a second, the old picture stayed for up to 1 s each time.
  await page.waitForTimeout(300);
  // Timed in the page, from the browser's own change of scheme to the
  // first frame whose picture differs: what the app takes, not the test
  // driver's round trips (on a busy host those alone passed 250 ms).
  for (const scheme of ['dark', 'light', 'dark']) {
    const before = await picture();
    await page.evaluate(() => {
      window.__schemeAt = null;
      matchMedia('(prefers-color-scheme: dark)').addEventListener(
        'change',
        () => {
          window.__schemeAt = performance.now();
        },
        { once: true },
      );
    });
    await page.emulateMedia({ colorScheme: scheme });
    const took = await page.waitForFunction(
      (old) =>
        window.__schemeAt !== null &&
        document.querySelector('[data-testid="tellers-canvas"]').toDataURL() !== old && {
          ms: performance.now() - window.__schemeAt,
        },
      before,
      { timeout: 2_000, polling: 'raf' },
    );
    const { ms } = await took.jsonValue();
    assert.ok(ms < 250, `the picture turned ${scheme} ${Math.round(ms)} ms after the scheme changed`);
  }
}

export async function theSceneAndTheCurveAreDescribedOnceByTheirCaptions({ page, open }) {
  await openPaused(page, open);
  await byTestId(page, 'step').click();
  // The canvas is hidden from screen readers; its caption says what it shows
  // (labelled too, the summary was read twice).
  for (const id of ['tellers-canvas', 'curve-canvas']) {
    const canvas = byTestId(page, id);
    await expectVisible(canvas, id);
    assert.equal(await canvas.getAttribute('aria-hidden'), 'true', `${id} is hidden from screen readers`);
    assert.equal(await canvas.getAttribute('aria-label'), null, `${id} has no label of its own`);
    const caption = (await canvas.locator('xpath=ancestor::figure[1]/figcaption').textContent()).trim();
    assert.ok(caption.length > 20, `${id}'s caption: ${caption}`);
  }
}

export async function theRunIsSaidByItsStateNotWithEveryFrame({ page, open }) {
  await openPaused(page, open, '?duration_s=3');
  const heard = byTestId(page, 'run-heard');
  assert.equal(await heard.getAttribute('role'), 'status');
  await byTestId(page, 'play').click();
  await page.waitForTimeout(800);
  assert.equal(await heard.textContent(), 'Playing', 'a word while it plays, not the time');
  await byTestId(page, 'run-to-end').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="run-status"]').dataset.state === 'ended');
  assert.match(await heard.textContent(), /^Finished: .*The figures are final\.$/);
}

/** What has the keyboard focus, as a test reads it: its test id or its label. */
const focused = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el?.dataset.testid ?? el?.getAttribute('aria-label') ?? el?.tagName;
  });

/** Waits (up to a second) for the focus to be on `want`, then says where it is. */
async function focusLandsOn(page, want, what) {
  await page
    .waitForFunction(
      (w) => {
        const el = document.activeElement;
        return (el?.dataset.testid ?? el?.getAttribute('aria-label')) === w;
      },
      want,
      { timeout: 1_000 },
    )
    .catch(() => {});
  assert.equal(await focused(page), want, what);
}

/** "Add a load schedule" and "Steady rate" each replace the button
 * pressed: the focus goes on to what replaced it (it fell to the page's
 * body, and the next Tab started from the top). */
export async function theScheduleButtonsHandTheFocusToWhatReplacedThem({ page, open }) {
  await openPaused(page, open);
  const schedule = control(page, 'rps_schedule');
  await schedule.getByTestId('schedule-add-spike').focus();
  await page.keyboard.press('Enter');
  await expectVisible(schedule.getByRole('table'), 'the load schedule');
  await focusLandsOn(page, 'Step 1: from, seconds', "the schedule's first box");
  await schedule.getByTestId('schedule-steady').focus();
  await page.keyboard.press('Enter');
  await expectVisible(schedule.getByTestId('schedule-add-spike'), 'the steady rate');
  await focusLandsOn(page, 'schedule-add-spike', 'the button that adds a schedule again');
}

/** p on a control that presenter mode folds away (a slider of the
 * scenario panel) leaves the focus on Play, where Space plays, not on the
 * page; p again leaves it there. */
export async function presenterModeByKeyHandsAFoldedControlsFocusToPlay({ page, open }) {
  await page.setViewportSize({ width: 1366, height: 768 });
  await openPaused(page, open);
  await control(page, 'cores').locator('input[type="range"]').focus();
  await page.keyboard.press('p');
  await page.waitForFunction(() => document.querySelector('.playground--presenter'));
  assert.equal(await page.locator('.playground__controls').isVisible(), false, 'the panel is folded away');
  await focusLandsOn(page, 'play', 'the focus after presenter mode folded the slider away');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.querySelector('[data-testid="run-status"]').dataset.state === 'playing');
  await page.keyboard.press('p');
  await page.waitForFunction(() => !document.querySelector('.playground--presenter'));
  await focusLandsOn(page, 'play', 'the focus after leaving presenter mode');
}

/** The outline skips no level, and "Reading the signs" (an h3) sits under
 * the figures' heading on the playground, not under the scenario panel's
 * "Scenario"; in presenter mode (where that panel is folded away, and the
 * h3 came straight after the h1) too; in a lesson, under the lesson's
 * section. */
export async function theHeadingsSkipNoLevel({ page, open }) {
  const outline = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('main :is(h1, h2, h3, h4, h5, h6)')]
        .filter((h) => h.checkVisibility())
        .map((h) => [Number(h.tagName[1]), h.textContent.trim(), Boolean(h.closest('[data-testid="signs"]'))]),
    );
  // Each heading's level is at most one below the one before; returns the
  // heading the signs' heading sits under, [level, text] (a lesson may
  // share its title with the signs' heading).
  const skipsNone = (headings, where) => {
    assert.ok(headings.length > 2, `${where}: ${headings.length} headings`);
    headings.forEach(([level, text], i) => {
      const before = i === 0 ? 1 : headings[i - 1][0];
      assert.ok(level <= before + 1, `${where}: "${text}" (h${level}) comes after an h${before}`);
    });
    const signs = headings.findIndex(([, , inSigns]) => inSigns);
    assert.ok(signs >= 0, `${where}: the signs' heading`);
    return headings
      .slice(0, signs)
      .findLast(([level]) => level < headings[signs][0])
      ?.slice(0, 2);
  };
  await page.setViewportSize({ width: 1366, height: 768 });
  await openPaused(page, open);
  await expectVisible(page.getByRole('heading', { name: 'The run over time' }), 'the last part');
  assert.deepEqual(skipsNone(await outline(), 'the playground'), [2, 'Figures']);
  await byTestId(page, 'presenter').click();
  await page.waitForFunction(() => document.querySelector('.playground--presenter'));
  assert.deepEqual(skipsNone(await outline(), 'presenter mode'), [2, 'Figures']);
  await open('#/lessons/reading-the-signs');
  await expectVisible(byTestId(page, 'signs').first(), "a lesson widget's signs");
  assert.equal(skipsNone(await outline(), 'a lesson')[0], 2, "under the lesson's section");
}

/** Each preset's whole description fits the closed menu, from a 1024 px
 * projector up (at 1280 px the menu beside the buttons showed "A 5 s spike
 * with 3 retries per call: th", cut mid-word), and the scenario panel's
 * number boxes line up in one column whatever their unit. */
export async function thePresetMenuShowsWholeDescriptionsAndTheBoxesLineUp({ page, open }) {
  for (const width of [1024, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await openPaused(page, open);
    await expectVisible(page.locator('.playground__controls select').first(), 'the selects');
    const cut = await page.evaluate(() => {
      const menu = document.querySelector('[data-testid="presets"]');
      const cs = getComputedStyle(menu);
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      // The room for text: inside the padding, less about 24 px for the arrow.
      const room = menu.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 24;
      return [...menu.options]
        .map((o) => [o.text, Math.round(ctx.measureText(o.text).width - room)])
        .filter(([, over]) => over > 0);
    });
    assert.deepEqual(cut, [], `preset descriptions cut in the menu at ${width} px (text, px over)`);
  }
  // Every field a model shows ("connections", the longest unit, is the dependency's).
  for (const query of ['', '?model=event-loop', '?model=event-loop-workers']) {
    await openPaused(page, open, query);
    await expectVisible(page.locator('.playground__controls select').first(), 'the selects');
    const lefts = await page.evaluate(() =>
      [...document.querySelectorAll('.playground__controls .control__row > .control__box')]
        .filter((b) => b.offsetParent !== null)
        .map((b) => [b.closest('[data-field]')?.dataset.field, Math.round(b.getBoundingClientRect().left)]),
    );
    assert.ok(lefts.length >= 8, `only ${lefts.length} number boxes`);
    const off = lefts.filter(([, x]) => x !== lefts[0][1]);
    assert.deepEqual(off, [], `number boxes out of line with ${lefts[0][0]}'s at ${lefts[0][1]} px (${query || 'defaults'})`);
  }
}

// The first reading of the signs takes the place of the note before it:
// a one-line verdict pushed the figures under it down by 16 px mid-run,
// on every scenario, while a learner read them.
export async function theFirstSignTakesThePlaceOfTheNoteBeforeIt({ page, open }) {
  await page.setViewportSize({ width: 1366, height: 768 });
  await open('#/playground?preset=mm1&speed=20');
  const tableTop = () => page.evaluate(() => document.querySelector('table[data-testid="figures"]').getBoundingClientRect().top + window.scrollY);
  await page.waitForFunction(() => document.querySelector('[data-testid="signs"] .signs__empty'));
  const before = await tableTop();
  await page.waitForFunction(() => document.querySelector('[data-testid="signs"] [data-sign="healthy"]'), null, { timeout: 30_000 });
  assert.equal(await tableTop(), before, 'the figures stay where they were when the first sign comes');
}

/** Play was the 51st Tab stop, after every scenario control. A link at
 * the head of the scenario panel, seen once it has the focus, takes a
 * keyboard user there in a few presses. */
export async function aKeyboardUserReachesPlayInAFewTabs({ page, open }) {
  await page.setViewportSize({ width: 1366, height: 900 });
  await openPaused(page, open);
  const skip = page.getByRole('link', { name: 'Skip to Play' });
  await expectVisible(page.locator('.playground__controls .control').first(), 'the scenario controls');
  assert.ok((await skip.boundingBox()).width <= 1, 'the link is out of sight until focused');
  await page.evaluate(() => document.activeElement?.blur());
  let presses = 0;
  while (presses < 20 && !(await skip.evaluate((e) => e === document.activeElement))) {
    await page.keyboard.press('Tab');
    presses += 1;
  }
  assert.ok(presses < 20, 'the link to Play is within the first 20 Tab stops');
  assert.ok((await skip.boundingBox()).width > 50, 'the focused link is seen');
  await page.keyboard.press('Enter');
  await focusLandsOn(page, 'play', 'Enter on the link puts the focus on Play');
  assert.match(page.url(), /#\/playground/, 'the page stays the playground');
}
