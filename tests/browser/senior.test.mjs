// The senior lessons (14–17): each opens with its widgets and exercises,
// its first widget runs to the end, and the page passes the accessibility
// check. Screenshots of each are saved for a person to judge.

import assert from 'node:assert/strict';
import path from 'node:path';
import { SCREENSHOTS, expectAccessible, expectVisible } from './harness.mjs';

/** Each senior lesson: its slug, a piece of its title, and its widget count. */
const LESSONS = [
  { slug: 'overload-and-retries', title: /When the callers push back/, widgets: 3 },
  { slug: 'sizing-pools', title: /Sizing pools when arrivals are random/, widgets: 4 },
  { slug: 'tail-latency-at-scale', title: /Tail latency at scale/, widgets: 2 },
  { slug: 'measuring-honestly', title: /Measuring honestly/, widgets: 2 },
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

export async function eachSeniorLessonShowsItsWidgetsAndExercises({ page, open, screenshot }) {
  for (const lesson of LESSONS) {
    const widgets = await openLesson(page, open, lesson);
    const first = widgets.first();
    await runToEnd(page, first);
    await first.screenshot({ path: path.join(SCREENSHOTS, `senior-${lesson.slug}-widget.png`) });
    await screenshot(`senior-${lesson.slug}.png`);
    await expectAccessible(page);
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
