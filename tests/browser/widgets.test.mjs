// Lesson widgets as a learner meets them: they wait to be run, show the
// figures their lesson asks about, take a guess and compare it with the run
// once it has ended, keep the learner's settings across the playground and
// Back, and name settings by the labels on screen.

import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { DIST, expectAccessible, expectVisible, tellersCli } from './harness.mjs';

const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

/** The course as the app fetches it. */
async function courseJson() {
  const name = (await fs.readdir(DIST)).find((f) => /^course-[0-9a-f]{16}\.json$/.test(f));
  return JSON.parse(await fs.readFile(path.join(DIST, name), 'utf8'));
}

/** Opens a lesson and waits until all of its parts are drawn. */
async function openLesson(page, open, slug) {
  await open(`#/lessons/${slug}`);
  await expectVisible(page.getByTestId('lesson'), `lesson ${slug}`);
  await page.waitForFunction(() => document.querySelector('.pager'));
  await page.waitForTimeout(300);
}

/** Waits until the widget's run has ended. */
async function waitEnded(widget, timeout = 20_000) {
  await widget.locator('[data-testid="run-status"][data-state="ended"]').waitFor({ timeout });
}

export async function lessonWidgetsWaitForTheLearnerAndShowTheirFigures({ page, open }) {
  await page.setViewportSize(LAPTOP);
  const course = await courseJson();
  let widgets = 0;
  let predicted = 0;
  for (const lesson of course.lessons) {
    await openLesson(page, open, lesson.slug);
    const sims = page.getByTestId('lesson-sim');
    const n = await sims.count();
    await page.waitForTimeout(400);
    for (let i = 0; i < n; i += 1) {
      const sim = sims.nth(i);
      const view = await sim.locator('.sim-widget').getAttribute('data-view');
      if (view === 'curve') continue;
      widgets += 1;
      const where = `lesson ${lesson.slug}, widget ${i + 1} (${view})`;
      assert.match(await sim.getByTestId('run-status').textContent(), /^Not started: /, `${where} started on its own`);
      const table = view === 'stats' ? sim.getByTestId('figures') : sim.getByTestId('figures-row');
      assert.equal(await table.count(), 1, `${where} shows no figures`);
      assert.ok((await table.locator('tbody tr').count()) >= 1, `${where}: an empty figures row`);
      // A stats widget's table holds what the lesson asks about; the rest
      // fold away (all eighteen rows put the answer a screen below Play).
      if (view === 'stats') {
        const rows = await table.locator('tbody tr').count();
        assert.ok(rows <= 6, `${where}: ${rows} rows before "All figures"`);
        assert.equal(await sim.getByTestId('figures-all').count(), 1, `${where} does not fold the other figures`);
      }
      // Theory waits for the run: nothing to copy before predicting.
      const theory = await table.locator('td.figures__theory').allTextContents();
      assert.ok(theory.every((t) => t === 'after the run'), `${where} shows theory before the run: ${theory.join(' | ')}`);
      // Under a predict box, the caption (what the run shows) waits too.
      if (await sim.getByTestId('guess-result').count()) {
        predicted += 1;
        const caption = await sim.getByTestId('widget-caption').textContent();
        assert.match(caption, /^Guess first, then run it to the end/, `${where} gives its result away before the guess`);
      }
    }
  }
  assert.ok(widgets >= 20, `only ${widgets} widgets checked`);
  assert.ok(predicted >= 15, `only ${predicted} widgets under a predict box`);
}

export async function lesson8AnswersItsOwnQuestionAndComparesTheGuess({ page, open, screenshot }) {
  await page.setViewportSize(LAPTOP);
  await openLesson(page, open, 'utilisation-and-response-time');
  const predict = page.getByTestId('predict').first();
  const guess = predict.getByLabel('Your guess: Mean response time (ms)');
  await guess.fill('60');
  const widget = page.getByTestId('lesson-sim').first();
  const row = widget.getByTestId('figures-row');
  await expectVisible(row.locator('[data-testid="fig-mean"]'), 'the mean response time in the widget');
  // Run at the starting 50 rps: the guess is about 90 rps, and the widget says so.
  await widget.getByTestId('run-to-end').click();
  await waitEnded(widget);
  const result = widget.getByTestId('guess-result');
  await expectVisible(result.filter({ hasText: 'the arrival rate at 90 rps (this run: 50 rps)' }), 'word that the guess is for 90 rps');
  // Move the arrival rate to 90, as the predict box asks, and run again.
  const rps = widget.locator('[data-field="rps"] input.control__box');
  await rps.fill('90');
  await rps.press('Enter');
  assert.equal(await row.locator('[data-testid="fig-mean"] td.figures__theory').textContent(), 'after the run');
  await widget.getByTestId('run-to-end').click();
  await waitEnded(widget);
  const mean = await row.locator('[data-testid="fig-mean"] td').allTextContents();
  const simulated = Number(mean[0].replace(/[^\d.]/g, ''));
  // One worker, 10 ms jobs at 90 % busy: theory says 10 ÷ (1 − 0.9) = 100 ms.
  assert.equal(mean[1], '100\u00a0ms', `theory after the run: ${mean[1]}`);
  assert.ok(simulated > 80 && simulated < 125, `the run's mean at 90 %: ${mean[0]}`);
  await expectVisible(
    result.filter({ hasText: /Mean response time \(ms\): you guessed 60; the run measured [\d.,]+\sms\. (Far too low|In the right range, but low)/ }),
    'the guess beside the run',
  );
  await result.scrollIntoViewIfNeeded();
  await screenshot('lesson-widget-guess.png', { fullPage: false });
  await expectAccessible(page);
}

export async function theTheoryUnderLesson4sPredictBoxWaitsForTheRun({ page, open, screenshot }) {
  await page.setViewportSize(PHONE);
  await openLesson(page, open, 'littles-law');
  const widget = page.getByTestId('lesson-sim').first();
  const inside = widget.locator('[data-testid="fig-inside"] td');
  assert.equal(await inside.nth(1).textContent(), 'after the run', 'the answer (40) is not shown before the run');
  const simX = () => inside.first().evaluate((e) => Math.round(e.getBoundingClientRect().left));
  const before = await simX();
  await page.getByTestId('predict').first().getByLabel('Your guess: Requests inside (mean)').fill('40');
  await widget.getByTestId('run-to-end').click();
  await waitEnded(widget);
  assert.match(await inside.nth(1).textContent(), /rps ×/);
  // Theory filling in does not move the simulated column (it moved 320 px at 1920 px).
  assert.equal(await simX(), before, 'the simulated column moved when the run ended');
  await expectVisible(widget.getByTestId('guess-result').filter({ hasText: /(Spot on|Close): within a/ }), 'a close guess');
  // The caption the lesson wrote, held back until now.
  const lesson = (await courseJson()).lessons.find((l) => l.slug === 'littles-law');
  const block = lesson.segments.find((seg) => seg.sim).sim;
  assert.equal(await widget.getByTestId('widget-caption').textContent(), block.caption, 'the caption once the run has ended');
  await widget.getByTestId('guess-result').scrollIntoViewIfNeeded();
  await screenshot('lesson-widget-phone.png', { fullPage: false });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0, `the lesson scrolls sideways by ${overflow} px on a phone`);
  // Each column's heading fits its column ("SIMULATED" ran into "THEORY").
  const spill = await widget.locator('thead th').evaluateAll((ths) =>
    ths.filter((th) => th.scrollWidth > th.clientWidth).map((th) => th.textContent));
  assert.deepEqual(spill, [], 'headings wider than their columns on a phone');
}

export async function thePlaygroundLinkAndBackKeepTheLearnersSettings({ page, open }) {
  await page.setViewportSize(LAPTOP);
  await openLesson(page, open, 'utilisation-and-response-time');
  await page.getByTestId('predict').first().getByLabel(/Your guess/).fill('75');
  const widget = page.getByTestId('lesson-sim').first();
  const rps = widget.locator('[data-field="rps"] input.control__box');
  await rps.fill('90');
  await rps.press('Enter');
  await widget.getByTestId('open-in-playground').click();
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Playground' }), 'the playground');
  const there = page.locator('.playground__controls [data-field="rps"] input.control__box');
  assert.equal(await there.inputValue(), '90', 'the playground opens the learner’s 90 rps, not the lesson’s 50');
  await page.goBack();
  await expectVisible(page.getByTestId('lesson'), 'the lesson again');
  const back = page.getByTestId('lesson-sim').first().locator('[data-field="rps"] input.control__box');
  await expectVisible(back, 'the widget after Back');
  assert.equal(await back.inputValue(), '90', 'Back keeps the learner’s 90 rps');
  assert.equal(await page.getByTestId('predict').first().getByLabel(/Your guess/).inputValue(), '75', 'and the guess');
}

export async function aCaptionSaysWhenTheSettingsAreNoLongerItsOwn({ page, open }) {
  // Lesson 1: the caption is about the first wait; the learner sets 150 ms.
  await page.setViewportSize(LAPTOP);
  await openLesson(page, open, 'work-and-wait');
  const widget = page.getByTestId('lesson-sim').first();
  await expectVisible(widget.getByTestId('widget-caption'), 'the caption');
  assert.equal(await widget.getByTestId('caption-changed').count(), 0, 'nothing changed yet, nothing said');
  const wait = widget.locator('[data-field="wait_ms"] input.control__box');
  const first = await wait.inputValue();
  await wait.fill('150');
  await wait.press('Enter');
  // Under a predict box the caption waits for the run, and so does the note
  // (beside "Guess first…" it named a placeholder as the caption).
  const note = widget.getByTestId('caption-changed');
  assert.equal(await note.count(), 0, 'no note beside the placeholder');
  await widget.getByRole('button', { name: 'Run to the end' }).click();
  await expectVisible(note, 'the note under the caption', 30_000);
  assert.doesNotMatch(await widget.getByTestId('widget-caption').textContent(), /Guess first/);
  assert.match(await note.textContent(), /You changed “Wait off the CPU \(database, disk\)”: the caption above is about the first settings\./);
  await note.getByRole('button', { name: 'Back to the first settings' }).click();
  await page.waitForFunction((el) => !el.querySelector('[data-testid="caption-changed"]'), await widget.elementHandle());
  assert.equal(await wait.inputValue(), first, 'the first wait again');
}

export async function lessonTextNamesSettingsByTheirOnScreenLabels({ page, open }) {
  const course = await courseJson();
  // Every scenario field name (wait_ms, queue_limit…): a preset written in full.
  const presets = JSON.parse(tellersCli('presets', '--json'));
  const fields = new Set(Object.keys(Object.values(presets)[0]));
  const codeNames = [...fields].filter((f) => f.includes('_'));
  assert.ok(codeNames.includes('wait_ms') && codeNames.includes('queue_limit'), codeNames.join(', '));
  const pattern = new RegExp(`\\b(${codeNames.join('|')})\\b`);
  for (const lesson of course.lessons) {
    await openLesson(page, open, lesson.slug);
    // Captions from the course: under a predict box the page holds one back until its run ends.
    const captions = lesson.segments.filter((seg) => seg.sim).map((seg) => seg.sim.caption ?? '');
    const text = [...(await page.locator('.prose, .predict__text').allTextContents()), ...captions];
    const found = text.join('\n').match(pattern);
    assert.equal(found, null, `lesson ${lesson.slug} names a setting by its code name: ${found?.[0]}`);
  }
  // And the label it uses is the one on screen.
  await openLesson(page, open, 'work-and-wait');
  assert.ok((await page.locator('.prose').allTextContents()).join(' ').includes('Wait off the CPU'));
  await expectVisible(page.getByTestId('lesson-sim').first().getByText('Wait off the CPU (database, disk)'), 'the same label on the slider');
}

/** A lesson's figures stay where they are as the run goes and ends: the
 * signs sit under them (above, their lines appearing after the warm-up
 * pushed the table down by up to 87 px mid-run). */
export async function aLessonsFiguresStayPutWhileItsRunGoes({ page, open }) {
  await page.setViewportSize(LAPTOP);
  await openLesson(page, open, 'tail-latency-at-scale');
  const widget = page.getByTestId('lesson-sim').first();
  const row = widget.getByTestId('figures').locator('tbody tr').first();
  const y = () => row.evaluate((e) => Math.round(e.getBoundingClientRect().top + window.scrollY));
  const before = await y();
  await widget.getByTestId('run-to-end').click();
  await waitEnded(widget);
  await expectVisible(widget.locator('.signs .sign').first(), 'the signs after the run');
  assert.equal(await y(), before, 'the figures moved as the run ended');
}

export async function theTheoryNotesFoldStaysOpenWhenTheLearnerRunsAgain({ page, open }) {
  // Lesson 12's first run: theory is approximate, its reasons folded under
  // the figures. A lesson hides theory while a run plays, so the note was
  // drawn anew at each run's end, and a fold the learner had opened to read
  // beside the new figures was closed again.
  await page.setViewportSize(LAPTOP);
  await openLesson(page, open, 'case-waf-offload');
  const widget = page.getByTestId('lesson-sim').first();
  await widget.getByRole('button', { name: 'Run to the end' }).click();
  await waitEnded(widget, 30_000);
  const note = widget.getByTestId('approx-note').first();
  await expectVisible(note, 'the note under the figures');
  const why = note.locator('details p');
  assert.equal(await why.isVisible(), false, 'the reasons folded at first');
  await note.getByText("Why theory's figures are marked (approx.)").click();
  await expectVisible(why, 'the reasons, opened');
  // A new setting and a new run: theory goes while it plays and comes back.
  const share = widget.locator('[data-field="heavy_share"] input.control__box');
  await share.fill('0.1');
  await share.press('Enter');
  await widget.getByRole('button', { name: 'Run to the end' }).click();
  await waitEnded(widget, 30_000);
  await expectVisible(widget.getByTestId('approx-note').first(), 'the note again');
  assert.equal(await widget.getByTestId('approx-note').first().locator('details p').isVisible(), true, 'the reasons still open');
}

/** A lesson's short row of figures says, once the run is measured, the
 * warm-up it leaves out, as the full table's caption does: lesson 12's
 * first table did not, beside two that did. */
export async function aShortRowOfFiguresNamesItsWarmUp({ page, open }) {
  await page.setViewportSize(LAPTOP);
  await openLesson(page, open, 'case-waf-offload');
  const sim = page.getByTestId('lesson-sim').first();
  const note = sim.getByTestId('figures-row-note');
  assert.match(await note.textContent(), /^Press Play/);
  await sim.getByRole('button', { name: 'Run to the end' }).click();
  await waitEnded(sim, 30_000);
  assert.match(await note.textContent(), /^The first [\d.]+ s are warm-up and not measured\.$/);
}
