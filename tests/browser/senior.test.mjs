// The senior lessons (14–17): each opens with its widgets and exercises,
// its first widget runs to the end, and the page passes the accessibility
// check. Screenshots of each are saved for a person to judge.

import assert from 'node:assert/strict';
import path from 'node:path';
import { SCREENSHOTS, expectAccessible, expectVisible } from './harness.mjs';

/** Each senior lesson: its slug, a piece of its title, and its widget count. */
const LESSONS = [
  { slug: 'overload-and-retries', title: /When the callers push back/, widgets: 4 },
  { slug: 'sizing-pools', title: /Sizing pools when arrivals are random/, widgets: 5 },
  { slug: 'tail-latency-at-scale', title: /Tail latency at scale/, widgets: 3 },
  { slug: 'measuring-honestly', title: /Measuring honestly/, widgets: 3 },
];

/** Clicks "run to the end" in `widget` and waits until its run has ended. */
async function runToEnd(page, widget) {
  await widget.locator('[data-testid="run-to-end"]').click();
  await widget.locator('[data-testid="run-status"][data-state="ended"]').waitFor({ timeout: 20_000 });
}

async function openLesson(page, open, lesson) {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await open(`#/lessons/${lesson.slug}`);
  await expectVisible(page.getByRole('heading', { level: 1, name: lesson.title }), `the heading of ${lesson.slug}`);
  const widgets = page.getByTestId('lesson-sim');
  await expectVisible(widgets.first(), `a widget in ${lesson.slug}`);
  // Long pages are built a few parts per frame: wait for the last exercise.
  await expectVisible(page.locator('.exercise').nth(7), `the eighth exercise of ${lesson.slug}`);
  assert.equal(await widgets.count(), lesson.widgets, `${lesson.slug}: widgets`);
  assert.ok((await page.locator('.exercise').count()) >= 8, `${lesson.slug}: at least eight exercises`);
  return widgets;
}

/** Opens `lesson`, finds its one widget whose text has `text`, runs it to the end. */
async function runWidget(page, open, lesson, text) {
  const widgets = await openLesson(page, open, lesson);
  const w = widgets.filter({ hasText: text });
  assert.equal(await w.count(), 1, `one widget with '${text}' in ${lesson.slug}`);
  await w.scrollIntoViewIfNeeded();
  await runToEnd(page, w);
  return w;
}

export async function eachSeniorLessonShowsItsWidgetsAndExercises({ page, open, screenshot }) {
  for (const lesson of LESSONS) {
    const widgets = await openLesson(page, open, lesson);
    const first = widgets.first();
    await runToEnd(page, first);
    await first.screenshot({ path: path.join(SCREENSHOTS, `senior-${lesson.slug}-widget.png`) });
    await screenshot(`senior-${lesson.slug}.png`);
    await expectAccessible(page);
    // Of any impact: every part of the page in a landmark (the skip link
    // stood outside), no two landmarks of one name (each widget's
    // "Figures" was one), and the report's JSON box, which scrolls,
    // reachable by keyboard.
    const json = page.locator('details.report-json summary');
    if ((await json.count()) > 0) await json.first().click();
    await expectAccessible(page, {
      impacts: ['minor', 'moderate', 'serious', 'critical'],
      runOnly: { type: 'rule', values: ['region', 'landmark-unique', 'scrollable-region-focusable'] },
    });
  }
}

export async function theRetryStormShowsOnTheLoadChart({ page, open }) {
  const widgets = await openLesson(page, open, LESSONS[0]);
  const storm = widgets.first();
  await expectVisible(
    storm.getByRole('img', { name: /Requests per second over simulated time/ }),
    'the requests-per-second chart',
  );
  await runToEnd(page, storm);
  // The spike's retries outlive it: the learner can switch them off.
  await expectVisible(storm.getByText('Retries after a failed try'), 'the retries control');
}

/**
 * Lesson 15's full pool of 40 on 4 cores: the run finishes about 365 a
 * second, theory marks its limits as estimates and names the model that
 * gives that figure, and the signs say more threads help up to the CPU
 * limit, in the widget the lesson points at.
 */
export async function aFullPoolSaysItsThreadsWaitForCores({ page, open }) {
  const full = await runWidget(page, open, LESSONS[1], 'a pool of 40 on 4 cores');
  const cells = (row) => full.getByTestId(row).locator('td');
  const done = Number((await cells('fig-throughput').nth(0).textContent()).replace(/[^\d.]/g, ''));
  assert.ok(done >= 352 && done <= 378, `the pool of 40 finished ${done} rps`);
  assert.match(await cells('fig-thread-limit').nth(1).textContent(), /^400\srps \(approx\.\)/);
  assert.match(await cells('fig-throughput').nth(1).textContent(), /\(approx\.\)$/);
  // Theory's reasons, opened from their fold under the table.
  const note = full.getByTestId('approx-note');
  await note.locator('summary').click();
  await expectVisible(note.locator('details p'), 'the reasons, opened');
  assert.match(
    await note.locator('details p').textContent(),
    /40\sthreads on 4\scores finish about 365\srps when all are busy, not 400 \(a finite-source model\)/,
  );
  // The signs say so too, as the lesson tells.
  await expectVisible(
    full.getByText(/More threads help only up to the CPU limit: 40 threads that also wait for a core finish about 365\s+rps/),
    'the CPU sign that says more threads help up to the CPU limit',
  );
}

export async function theContentsListTheSeniorLessonsAndCountTheirProgress({ page, open }) {
  await open('#/lessons');
  const items = page.locator('.toc__item');
  await expectVisible(items.first(), 'the contents');
  assert.equal(await items.count(), 17);
  const titles = [/When the callers push back/, /Sizing pools/, /Tail latency at scale/, /Measuring honestly/];
  for (const [i, title] of titles.entries()) {
    assert.match(await items.nth(13 + i).innerText(), title);
  }
  // Solve the first exercise of lesson 17; its line in the contents counts it.
  const right = 'Most requests are quick, but a few percent wait most of a second.';
  await open('#/lessons/measuring-honestly/read-load-output');
  const card = page.locator('#ex-read-load-output');
  await card.locator('.exercise__option', { hasText: right }).locator('input').check();
  await card.getByTestId('check').click();
  await expectVisible(card.getByTestId('feedback').filter({ hasText: 'Correct.' }), 'the "Correct." message');
  await open('#/lessons');
  assert.match(await page.locator('.toc__item').nth(16).innerText(), /1 \/ 10/);
}

export async function theAnswerKeyHasTheSeniorExercisesWithEachStudentsNumbers({ page, open }) {
  await open('#/lessons');
  await page.getByTestId('class-code').fill('R12');
  await page.getByTestId('student-name').fill('Ana');
  await page.getByRole('button', { name: 'Use my numbers' }).click();
  await open('#/lessons/overload-and-retries/retry-amplification');
  const prompt = await page.locator('#ex-retry-amplification .exercise__prompt').textContent();
  const m = prompt.match(/make ([\d,]+) calls per second with a retry limit of (\d+)/);
  assert.ok(m, `prompt not as expected: ${prompt}`);
  const [calls, retries] = m.slice(1).map((x) => Number(x.replace(/,/g, '')));

  await open('#/lessons/answer-key?class=R12');
  await page.getByTestId('key-names').fill('Ana');
  await expectVisible(page.getByRole('heading', { level: 2, name: 'Ana' }), "Ana's section");
  const row = (id) => page.locator('.key__student').first().locator(`tr[data-exercise="${id}"]`);
  const shown = Number((await row('retry-amplification').locator('.key__answer').textContent()).replace(/[^\d.]/g, ''));
  assert.equal(shown, calls * (1 + retries), `the key says ${shown} for ${calls} calls and ${retries} retries`);
  // Every senior lesson is in the key, down to the last exercise of lesson 17.
  for (const id of ['db-pool-limit', 'hedge-cost', 'use-method-order', 'sale-day-step-7']) {
    await expectVisible(row(id), `the key's row for ${id}`);
  }
}

export async function aSeniorLessonPrintsWithoutItsWidgets({ page, open, screenshot }) {
  await open('#/lessons/tail-latency-at-scale');
  await expectVisible(page.locator('.exercise').nth(7), 'the last exercise');
  await page.emulateMedia({ media: 'print' });
  assert.equal(await page.getByTestId('lesson-sim').first().isVisible(), false, 'widgets are left out of the print');
  await expectVisible(page.locator('.exercise').first(), 'the exercises, in print');
  await expectVisible(page.locator('.prose math').first(), 'the formulas, in print');
  await screenshot('senior-print.png', { fullPage: false });
}

/**
 * Lesson 17's pauses: switched to random arrivals, the widget shows the
 * arrival rate the text relies on (the same 100 a second) in place of the
 * clients, which random arrivals do not use; and back.
 */
export async function switchingArrivalsShowsTheControlsTheyUse({ page, open }) {
  const widgets = await openLesson(page, open, LESSONS[3]);
  const pauses = widgets.nth(1);
  const control = (name) => pauses.locator(`.control[data-field="${name}"]`);
  await expectVisible(control('clients'), 'the clients control of a closed test');
  assert.equal(await control('rps').count(), 0, 'no arrival rate for a closed test');
  await control('arrivals').locator('select').selectOption('poisson');
  await expectVisible(control('rps'), 'the arrival rate under random arrivals');
  assert.equal(await control('rps').locator('.control__box').inputValue(), '100');
  assert.equal(await control('clients').count(), 0, 'no clients under random arrivals');
  await control('arrivals').locator('select').selectOption('closed');
  await expectVisible(control('clients'), 'the clients again');
}

/**
 * Lesson 16's timeout at the healthy p90: at a steady 160 a second with no
 * spike, the widget's run ends with no answer in time (the load chart
 * says so to a screen reader too); at 500 ms, above the healthy p99, the
 * same load holds. The lesson's claims check the figures on twenty seeds;
 * this checks the learner's widget shows it.
 */
export async function aTimeoutAtTheP90BringsThePoolDownInItsWidget({ page, open }) {
  const w = await runWidget(page, open, LESSONS[2], 'give up after 220 ms');
  const load = w.getByRole('img', { name: /^Requests per second over simulated time/ });
  const said = await load.getAttribute('aria-label');
  assert.match(said, /finished in time \(goodput\) from 0 to [\d,.]+, highest at [\d,.]+ s, 0 at the end/, said);
  assert.match(said, /retries from /, said);
  await w.screenshot({ path: path.join(SCREENSHOTS, 'senior-timeout-p90-widget.png') });
  // Above the healthy p99: the same load holds.
  const box = w.locator('.control[data-field="timeout_ms"] .control__box');
  await box.fill('500');
  await box.press('Enter');
  await runToEnd(page, w);
  const held = await load.getAttribute('aria-label');
  assert.match(held, /finished in time \(goodput\) from [\d,.]+ to [\d,.]+, highest at [\d,.]+ s, 1[4-7]\d at the end/, held);
  await w.screenshot({ path: path.join(SCREENSHOTS, 'senior-timeout-p99-widget.png') });
}

/**
 * Lesson 17's burst: 400 a second for 5 s from 30 s. Its widget's line
 * peaks during or just after the burst, in the hundreds, and is empty
 * again by the end, as the text says (a screen reader hears it from the
 * chart's label).
 */
export async function aBurstShowsInTheLineOverTime({ page, open }) {
  const w = await runWidget(page, open, LESSONS[3], '400 a second for 5 s from 30 s');
  const said = await w.getByRole('img', { name: /^Requests in line and inside/ }).getAttribute('aria-label');
  const m = said.match(/in line from 0 to ([\d,]+), highest at ([\d.]+) s, 0 at the end/);
  assert.ok(m, said);
  const peak = Number(m[1].replace(/,/g, ''));
  assert.ok(peak >= 500 && peak <= 1200, `the line peaked at ${peak}: ${said}`);
  assert.ok(Number(m[2]) >= 30 && Number(m[2]) <= 40, `the line peaked at ${m[2]} s: ${said}`);
  await w.screenshot({ path: path.join(SCREENSHOTS, 'senior-burst-widget.png') });
}
