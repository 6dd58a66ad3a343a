// The course: contents, a lesson, exercises checked on the spot, progress
// kept across reloads, per-student numbers and the teacher's answer key.

import assert from 'node:assert/strict';
import { threadsBusy } from './exercises.mjs';
import { expectAccessible, expectVisible, pdfPageTexts } from './harness.mjs';


export async function contentsListsEveryLessonInOrder({ page, open, screenshot }) {
  await open('#/lessons');
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Lessons' }), 'the Lessons heading');
  const items = page.locator('.toc__item');
  assert.equal(await items.count(), 17);
  assert.match(await items.first().innerText(), /Work and wait/);
  await screenshot('lessons-contents.png');
  await expectAccessible(page);
}

export async function answerWrongThenRightAndProgressSurvivesReload({ page, open, screenshot }) {
  await open('#/lessons/littles-law/threads-busy');
  await expectVisible(page.getByRole('heading', { level: 1, name: "Little's law" }), 'the lesson heading');
  // A link to an exercise takes the focus there too: the next Tab is inside it.
  await page.waitForFunction(() => document.activeElement?.id === 'ex-threads-busy', null, { timeout: 5_000 });
  await page.keyboard.press('Tab');
  assert.ok(await page.evaluate(() => document.getElementById('ex-threads-busy').contains(document.activeElement)), 'Tab from the linked exercise stays in it');
  const { card, answer } = await threadsBusy(page);
  const box = card.getByTestId('answer');
  const check = card.getByTestId('check');
  const feedback = card.getByTestId('feedback');

  await box.fill(String(answer * 2));
  await check.click();
  await expectVisible(feedback.filter({ hasText: 'too high' }), 'a "too high" message');

  await box.fill(`${answer} ms`);
  await check.click();
  await expectVisible(feedback.filter({ hasText: "Wrong unit: 'ms'" }), 'a wrong-unit message');

  await card.getByRole('button', { name: /Hint/ }).click();
  await expectVisible(card.locator('.exercise__hints li').first(), 'the first hint');
  await card.getByRole('button', { name: 'Show the worked solution' }).click();
  await expectVisible(card.locator('.exercise__solution li').first(), 'the worked solution');

  await box.fill(`${answer} threads`);
  await check.click();
  await expectVisible(feedback.filter({ hasText: 'Correct.' }), 'the "Correct." message');
  await expectVisible(card.getByText('✓ solved'), 'the solved mark');
  await screenshot('lesson-exercise.png');
  // The verdict goes once the answer it checked is changed.
  await box.fill(String(answer * 3));
  await feedback.waitFor({ state: 'detached', timeout: 5_000 });
  await expectVisible(card.getByText('✓ solved'), 'the solved mark, kept');
  // Checked, the wrong answer says why the mark stays beside "Not quite".
  await check.click();
  await expectVisible(feedback.filter({ hasText: 'You solved it before, and that stays in your progress.' }), 'the solve standing');
  // Words it cannot read are no answer: nothing about the solve beside them.
  await box.fill('no idea');
  await check.click();
  await expectVisible(feedback.filter({ hasText: 'Type a number' }), 'the unreadable answer told');
  assert.ok(!(await feedback.textContent()).includes('You solved it before'), 'no word of the solve beside an unread answer');

  await page.reload();
  const again = page.locator('#ex-threads-busy');
  await expectVisible(again.getByText('✓ solved'), 'the solved mark after a reload');
  // The help opened before solving, which the teacher's file counts, is
  // open again: one hint and the worked solution.
  assert.equal(await again.locator('.exercise__hints li').count(), 1, 'the hint opened before the reload');
  await expectVisible(again.locator('.exercise__solution li').first(), 'the worked solution after a reload');
  await open('#/lessons');
  assert.match(await page.locator('.toc__item').nth(3).innerText(), /1 \/ \d+/);
}

export async function workInTwoTabsIsAllKept({ page, open }) {
  // Two tabs of one browser, each opened before the other saved anything.
  await open('#/lessons/littles-law/threads-busy');
  const other = await page.context().newPage();
  await other.goto(page.url(), { waitUntil: 'load' });
  await expectVisible(other.locator('#ex-time-inside-from-count'), 'the other tab\'s lesson');
  // Tab one solves an exercise.
  const { card, answer } = await threadsBusy(page);
  await card.getByTestId('answer').fill(String(answer));
  await card.getByTestId('check').click();
  await expectVisible(card.getByText('✓ solved'), 'the solved mark');
  // Tab two hears of it, then saves an answer of its own.
  await expectVisible(other.locator('#ex-threads-busy').getByText('✓ solved'), 'the solved mark in the other tab');
  const second = other.locator('#ex-time-inside-from-count');
  await second.getByTestId('answer').fill('1');
  await second.getByTestId('check').click();
  await expectVisible(second.getByTestId('feedback'), 'feedback in the other tab');
  await other.close();
  // Both are kept: tab two's save did not write over tab one's.
  await page.reload();
  await expectVisible(page.locator('#ex-threads-busy').getByText('✓ solved'), 'the solved mark after the other tab saved');
  const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('tellers.progress')));
  const mine = stored.identities[''];
  assert.equal(mine['threads-busy'].solved, true);
  assert.equal(mine['time-inside-from-count'].attempts, 1);
}

export async function aTabThatMissedTheOthersSaveStillKeepsIt({ page, open }) {
  // As above, but neither tab hears the other (their storage events are
  // stopped before the app sees them), so only each save's merge with what
  // is stored keeps the other tab's work: a save that wrote its own copy
  // over the store would lose it.
  const deaf = () => window.addEventListener('storage', (e) => e.stopImmediatePropagation(), true);
  await page.addInitScript(deaf);
  await open('#/lessons/littles-law/threads-busy');
  const other = await page.context().newPage();
  await other.addInitScript(deaf);
  await other.goto(page.url(), { waitUntil: 'load' });
  await expectVisible(other.locator('#ex-time-inside-from-count'), "the other tab's lesson");
  const { card, answer } = await threadsBusy(page);
  await card.getByTestId('answer').fill(String(answer));
  await card.getByTestId('check').click();
  await expectVisible(card.getByText('✓ solved'), 'the solved mark');
  await other.waitForTimeout(300);
  assert.equal(await other.locator('#ex-threads-busy').getByText('✓ solved').count(), 0, 'tab two did not hear of it');
  const second = other.locator('#ex-time-inside-from-count');
  await second.getByTestId('answer').fill('1');
  await second.getByTestId('check').click();
  await expectVisible(second.getByTestId('feedback'), 'feedback in the other tab');
  await other.close();
  const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('tellers.progress')));
  const mine = stored.identities[''];
  assert.equal(mine['threads-busy']?.solved, true, 'tab one\'s solved exercise is still stored');
  assert.equal(mine['time-inside-from-count']?.attempts, 1);
}

export async function theSimulatorConfirmsAnAnswer({ page, open }) {
  await open('#/lessons/littles-law/threads-busy');
  const { card, answer } = await threadsBusy(page);
  // The run shows the formula's answer: it is offered once the exercise
  // is solved (or its solution opened), not before.
  const simCheck = card.getByTestId('sim-check');
  assert.ok(await simCheck.isDisabled(), 'not before an answer');
  // It looks it: dimmed, unlike the Hint button beside it.
  const opacity = (l) => l.evaluate((e) => Number(getComputedStyle(e).opacity));
  assert.ok((await opacity(simCheck)) < 0.7, `a disabled button is dimmed: opacity ${await opacity(simCheck)}`);
  // Why not is said on the page, and describes the button: a title was
  // reached by no keyboard, touch screen or screen reader.
  assert.equal(await simCheck.getAttribute('title'), null, 'no title');
  const why = page.locator(`#${await simCheck.getAttribute('aria-describedby')}`);
  await expectVisible(why, 'why the run is not offered yet');
  assert.match(await why.textContent(), /^Solve it first \(or open the worked solution\), then compare your answer with a run\.$/);
  await card.getByTestId('answer').fill(String(answer));
  await card.getByTestId('check').click();
  await expectVisible(card.getByTestId('feedback').filter({ hasText: 'Correct.' }), 'the answer checked');
  assert.equal(await why.isVisible(), false, 'once offered, the reason goes');
  assert.equal((await why.textContent()).trim(), '', 'and no longer describes it');
  await card.getByTestId('sim-check').click();
  const result = card.getByTestId('sim-check-result');
  await expectVisible(result, 'the simulator result');
  assert.match(await result.textContent(), /The simulator measured requests inside \(mean\): [\d.,]+; the formula gives [\d.,]+/);
}

export async function aLessonReadsWellAndIsAccessible({ page, open, screenshot }) {
  await open('#/lessons/utilisation-and-response-time');
  await expectVisible(page.getByTestId('lesson'), 'the lesson');
  assert.ok((await page.locator('.prose math').count()) > 0, 'formulas render as MathML');
  await expectVisible(page.locator('.predict').first(), 'a predict box');
  await expectVisible(page.getByTestId('lesson-sim').first(), 'an embedded simulation');
  await screenshot('lesson.png');
  await expectAccessible(page);
  // Lesson 5's two predict boxes and five figures panels are groups, not
  // landmarks of one name each.
  await open('#/lessons/event-loop');
  await expectVisible(page.locator('.predict').nth(1), 'the second predict box');
  await expectAccessible(page, {
    impacts: ['minor', 'moderate', 'serious', 'critical'],
    runOnly: { type: 'rule', values: ['region', 'landmark-unique'] },
  });
  await open('#/lessons/utilisation-and-response-time');
  await page.getByRole('link', { name: /Next/ }).click();
  await expectVisible(page.getByRole('heading', { level: 1, name: 'The line that grows without limit' }), 'the next lesson');
}

export async function classmatesGetTheirOwnNumbers({ page, open }) {
  await open('#/lessons');
  await page.getByTestId('class-code').fill('R12');
  await page.getByTestId('student-name').fill('Ana');
  await page.getByRole('button', { name: 'Use my numbers' }).click();
  await open('#/lessons/littles-law/threads-busy');
  const ana = (await threadsBusy(page)).prompt;
  await open('#/lessons');
  await page.getByTestId('student-name').fill('Ben');
  await page.getByRole('button', { name: 'Use my numbers' }).click();
  const prompts = new Set([ana]);
  for (const name of ['Ben', 'Chloe', 'Dev', 'Eve']) {
    await open('#/lessons');
    await page.getByTestId('student-name').fill(name);
    await page.getByRole('button', { name: 'Use my numbers' }).click();
    await open('#/lessons/littles-law/threads-busy');
    prompts.add((await threadsBusy(page)).prompt);
  }
  assert.ok(prompts.size >= 3, `five students should not share one set of numbers: ${[...prompts].join(' | ')}`);
}

export async function theAnswerKeyMatchesAStudentsNumbers({ page, open, screenshot }) {
  await open('#/lessons');
  await page.getByTestId('class-code').fill('R12');
  await page.getByTestId('student-name').fill('Ana');
  await page.getByRole('button', { name: 'Use my numbers' }).click();
  await open('#/lessons/littles-law/threads-busy');
  const { answer } = await threadsBusy(page);

  await open('#/lessons/answer-key?class=R12');
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Answer key' }), 'the answer key');
  await page.getByTestId('key-names').fill('Ana\nBen');
  await expectVisible(page.getByRole('heading', { level: 2, name: 'Ana' }), "Ana's section");
  const row = page
    .locator('.key__student')
    .first()
    .locator('tr[data-exercise="threads-busy"]');
  const shown = Number((await row.locator('.key__answer').textContent()).replace(/[^\d.]/g, ''));
  assert.ok(Math.abs(shown - answer) / answer < 0.01, `key says ${shown}, the student's answer is ${answer}`);
  await screenshot('answer-key.png', { fullPage: false });
}

export async function damagedProgressIsResetWithANotice({ page, open }) {
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem('tellers.progress', '{not json');
      sessionStorage.setItem('seeded', '1');
    }
  });
  await open('#/lessons');
  await expectVisible(page.getByTestId('progress-notice'), 'the reset notice');
  assert.match(await page.getByTestId('progress-notice').innerText(), /could not be read/);
  await expectVisible(page.locator('.toc__item').first(), 'the contents, still usable');
  // What could not be read is kept aside before it is saved over.
  assert.equal(await page.evaluate(() => localStorage.getItem('tellers.progress.damaged')), '{not json');
}

/** Damaged progress found while a teacher's page is open (it does not
 * show the learner's notice) is still said on the next learner's page,
 * after a reload too, and only once: it was reset without a word. */
export async function damagedProgressFoundOnATeachersPageIsSaidOnTheNextLessonPage({ page, open }) {
  await page.addInitScript(() => {
    if (location.protocol.startsWith('http') && !sessionStorage.getItem('seeded')) {
      localStorage.setItem('tellers.progress', '{not json');
      sessionStorage.setItem('seeded', '1');
    }
  });
  await open('#/lessons/teacher');
  await expectVisible(page.getByRole('heading', { level: 1 }), "the teacher's page");
  assert.equal(await page.getByTestId('progress-notice').count(), 0, "not on the teacher's page");
  // The teacher's page closed; the lessons opened afresh later.
  const lessons = new URL('#/lessons', page.url()).href;
  await page.goto('about:blank');
  await page.goto(lessons);
  await expectVisible(page.getByTestId('progress-notice'), 'the reset notice on the lessons');
  assert.match(await page.getByTestId('progress-notice').innerText(), /could not be read.*reset\. A copy of it stays/);
  await page.reload();
  await expectVisible(page.locator('.toc__item').first(), 'the contents');
  assert.equal(await page.getByTestId('progress-notice').count(), 0, 'said once');
}

/** One record of the wrong type wiped every class's progress, the class
 * code and the name; now only that record is left out, and the teacher's
 * pages do not show the learner's notice. */
export async function oneDamagedRecordCostsOnlyThatRecord({ page, open }) {
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem(
        'tellers.progress',
        JSON.stringify({
          version: 2,
          student: { class: 'R12', name: 'Ana' },
          identities: {
            'r12/ana': {
              'threads-busy': { solved: true, attempts: 1, hints: 0 },
              'cores-busy': { solved: false, attempts: '2', hints: 0 },
            },
          },
        }),
      );
      sessionStorage.setItem('seeded', '1');
    }
  });
  await open('#/lessons/teacher');
  await expectVisible(page.getByRole('heading', { level: 1 }), "the teacher's page");
  assert.equal(await page.getByTestId('progress-notice').count(), 0, "no learner's notice on the teacher's page");
  await open('#/lessons/littles-law');
  await expectVisible(page.getByTestId('progress-notice'), 'the notice');
  assert.match(await page.getByTestId('progress-notice').innerText(), /1 exercise record left out; the rest is kept/);
  const kept = JSON.parse(await page.evaluate(() => localStorage.getItem('tellers.progress')));
  assert.equal(kept.student.name, 'Ana', 'the name is kept');
  assert.equal(kept.identities['r12/ana']['threads-busy'].solved, true, 'the record that reads is kept');
}

export async function blockedSiteDataSaysProgressIsNotKept({ page, open }) {
  // Site data blocked: reading localStorage throws, as browsers do then.
  await page.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', {
      get() {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
  });
  await open('#/lessons/littles-law/threads-busy');
  await expectVisible(page.getByTestId('progress-notice'), 'the notice that progress is not kept');
  assert.match(await page.getByTestId('progress-notice').innerText(), /does not let Tellers keep your progress.*Save progress to a file/s);
  // The lesson still works: an answer is checked.
  const { card, answer } = await threadsBusy(page);
  await card.getByTestId('answer').fill(String(answer));
  await card.getByTestId('check').click();
  await expectVisible(card.getByText('✓ solved'), 'the solved mark');
}

export async function lessonsThatCannotBeLoadedSaySoAndThePlaygroundStillWorks({ page, open, expectConsoleError }) {
  // A server that lost the course file (or a network that dropped it).
  await page.route(/course-[0-9a-f]{16}\.json$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
  expectConsoleError(/status of 404/); // the browser logs the failed fetch, as it should
  await open('#/lessons/littles-law');
  const error = page.getByTestId('course-error');
  await expectVisible(error, 'the notice that the lessons could not be loaded');
  assert.match(await error.textContent(), /could not be loaded.*HTTP 404.*playground works without them/s);
  await page.getByRole('link', { name: 'Playground' }).first().click();
  await expectVisible(page.locator('[data-testid="tellers-canvas"]'), 'the playground');
}

export async function afterAFailedLoadTryAgainBringsTheLessons({ page, open, expectConsoleError }) {
  // The network drops the course once, then is back.
  let refused = 0;
  await page.route(/course-[0-9a-f]{16}\.json$/, (route) => {
    if (refused++ === 0) return route.fulfill({ status: 503, body: 'busy' });
    return route.continue();
  });
  expectConsoleError(/status of 503/);
  await open('#/lessons');
  await expectVisible(page.getByTestId('course-error'), 'the notice that the lessons could not be loaded');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expectVisible(page.locator('.toc__item').first(), 'the contents, on the second try');
  assert.equal(await page.getByTestId('course-error').count(), 0, 'the notice is gone');
}

export async function theCourseIsFetchedAfterStartUpOrAtOnceForALesson({ page, open }) {
  const course = /course-[0-9a-f]{16}\.json$/;
  // The playground does not need the course: it follows about 2 s later.
  let fetched = page.waitForRequest(course, { timeout: 10_000 });
  await open('#/playground');
  let loaded = Date.now();
  await fetched;
  const later = Date.now() - loaded;
  assert.ok(later >= 1500, `the course was fetched ${later} ms after the playground loaded, during start-up`);
  // A lesson needs it at once.
  const lesson = await page.context().newPage();
  fetched = lesson.waitForRequest(course, { timeout: 10_000 });
  await lesson.goto(page.url().replace(/#.*$/, '#/lessons/littles-law'), { waitUntil: 'load' });
  loaded = Date.now();
  await fetched;
  const soon = Date.now() - loaded;
  assert.ok(soon < 1000, `the course was fetched ${soon} ms after a lesson loaded`);
  await expectVisible(lesson.getByTestId('lesson'), 'the lesson');
}

export async function lessonsOpenOfflineOnceTheAppHasLoaded({ page, open }) {
  // The course is fetched in the background after start-up.
  const fetched = page.waitForResponse(/course-[0-9a-f]{16}\.json$/, { timeout: 10_000 });
  await open('#/playground');
  assert.equal((await fetched).status(), 200);
  await page.waitForTimeout(300);
  await page.context().setOffline(true);
  await page.getByRole('link', { name: 'Lessons' }).first().click();
  await expectVisible(page.locator('.toc__item').first(), 'the contents, offline');
  await page.locator('.toc__link').first().click();
  await expectVisible(page.locator('.exercise').first(), 'a lesson with its exercises, offline');
}

export async function aLessonWidgetRunsToTheEndBesideItsTheory({ page, open }) {
  // Little's law lesson: its widget is a figures table (simulated | theory).
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await open('#/lessons/littles-law');
  const widget = page.getByTestId('lesson-sim').first();
  await expectVisible(widget, 'the lesson widget');
  const runToEnd = widget.locator('[data-testid="run-to-end"]');
  // From the keyboard: the button keeps the focus while the run goes to
  // its end (disabled, it dropped it to the page).
  await runToEnd.focus();
  // Whether the button was ever marked unavailable (the run may end fast).
  await runToEnd.evaluate((b) => {
    window.wasUnavailable = false;
    new MutationObserver(() => {
      if (b.getAttribute('aria-disabled') === 'true') window.wasUnavailable = true;
    }).observe(b, { attributes: true });
  });
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    () => document.querySelector('[data-testid="lesson-sim"] [data-testid="run-status"]')?.dataset.state === 'ended',
    null,
    { timeout: 20_000 },
  );
  assert.ok(await page.evaluate(() => window.wasUnavailable), 'unavailable while running');
  assert.ok(await runToEnd.evaluate((b) => b === document.activeElement), 'Run to the end kept the focus');
  const row = widget.locator('[data-testid="fig-inside"] td');
  const simulated = Number((await row.nth(0).textContent()).replace(/[^\d.]/g, ''));
  // 400 requests per second × 0.1 s inside = 40 requests inside, by Little's law.
  assert.ok(Math.abs(simulated - 40) / 40 < 0.1, `requests inside after the run: ${simulated}, expected about 40`);
}

/** The options of a choice card, in the order this student sees them. */
async function optionTexts(card) {
  // A lesson's exercises are drawn a few steps after its page opens.
  await expectVisible(card.locator('.exercise__option span').first(), "the exercise's options");
  return card.locator('.exercise__option span').allTextContents();
}

export async function eachStudentSeesTheOptionsInTheirOwnOrder({ page, open, screenshot }) {
  // Little's law, recall: the right option is the same text for everyone,
  // at a letter that depends on the student.
  const right = 'On average, requests inside = arrival rate × time each spends inside';
  const orders = new Set();
  let answered = false;
  for (const name of ['Ana', 'Ben', 'Chloe', 'Dev', 'Eve']) {
    await open('#/lessons');
    await page.getByTestId('class-code').fill('R12');
    await page.getByTestId('student-name').fill(name);
    await page.getByRole('button', { name: 'Use my numbers' }).click();
    await open('#/lessons/littles-law/littles-law-says');
    const card = page.locator('#ex-littles-law-says');
    await expectVisible(card.locator('.exercise__option').first(), 'the options');
    // The linked card focused: the lesson scrolls to it and focuses it once
    // the whole lesson is drawn. Under a loaded fresh-clone run a click on
    // an option once did not take ('did not change its state'): a scroll
    // between the mouse's press and release moves the option from under
    // it (no card is drawn again: no option node is ever replaced).
    await page.waitForFunction(() => document.activeElement?.id === 'ex-littles-law-says');
    const options = await optionTexts(card);
    assert.equal(options.length, 4, `four options: ${options.join(' | ')}`);
    assert.ok(options.includes(right), `the right option is among them: ${options.join(' | ')}`);
    orders.add(options.join(' | '));
    // Answer as the first student whose right option is not the first one shown.
    if (!answered && options[0] !== right) {
      answered = true;
      const wrong = options.find((o) => o !== right);
      await card.locator('.exercise__option', { hasText: wrong }).locator('input').check();
      await card.getByTestId('check').click();
      await expectVisible(card.getByTestId('feedback').filter({ hasText: 'Not this one.' }), 'the wrong-option message');
      await card.locator('.exercise__option', { hasText: right }).locator('input').check();
      await card.getByTestId('check').click();
      await expectVisible(card.getByTestId('feedback').filter({ hasText: 'Correct.' }), 'the "Correct." message');
      await card.scrollIntoViewIfNeeded();
      await screenshot('lesson-choice-shuffled.png', { fullPage: false });
      // Another option picked: the "Correct." of the last one goes.
      await card.locator('.exercise__option', { hasText: wrong }).locator('input').check();
      await card.getByTestId('feedback').waitFor({ state: 'detached', timeout: 5_000 });
    }
  }
  assert.ok(answered, 'some student sees the right option further down');
  assert.ok(orders.size >= 3, `five students should not all share one order: ${[...orders].join(' || ')}`);
}

export async function theAnswerKeyFollowsEachStudentsOptionOrder({ page, open }) {
  const right = 'On average, requests inside = arrival rate × time each spends inside';
  await open('#/lessons');
  await page.getByTestId('class-code').fill('R12');
  await page.getByTestId('student-name').fill('Ben');
  await page.getByRole('button', { name: 'Use my numbers' }).click();
  await open('#/lessons/littles-law/littles-law-says');
  const options = await optionTexts(page.locator('#ex-littles-law-says'));
  const letter = String.fromCharCode(65 + options.indexOf(right));

  await open('#/lessons/answer-key?class=R12');
  await page.getByTestId('key-names').fill('Ben');
  await expectVisible(page.getByRole('heading', { level: 2, name: 'Ben' }), "Ben's section");
  const row = page
    .locator('.key__student')
    .first()
    .locator('tr[data-exercise="littles-law-says"]');
  assert.equal((await row.locator('.key__answer').textContent()).trim(), `${letter}. ${right}`);
  // The lesson letters its options as the key does.
  await open('#/lessons/littles-law/littles-law-says');
  const shown = page.locator('#ex-littles-law-says .exercise__option', { hasText: right }).locator('.exercise__letter');
  await expectVisible(shown, 'the right option\'s letter');
  assert.equal((await shown.textContent()).trim(), `${letter}.`);
}

export async function leavingTheLessonsBeforeTheCourseArrivesIsHarmless({ page, open }) {
  // A slow network: the course arrives after the learner has moved on.
  await page.route(/course-[0-9a-f]{16}\.json$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await route.continue();
  });
  await open('#/lessons');
  await expectVisible(page.getByText('Loading the lessons…'), 'the loading note');
  await page.getByRole('link', { name: 'Playground' }).first().click();
  await expectVisible(page.locator('[data-testid="tellers-canvas"]'), 'the playground');
  await page.waitForTimeout(1500);
  await page.getByRole('link', { name: 'Lessons' }).first().click();
  await expectVisible(page.locator('.toc__item').first(), 'the contents, once the course has come');
  await page.locator('.toc__link').first().click();
  await expectVisible(page.getByTestId('lesson'), 'a lesson');
  await page.getByRole('link', { name: 'Playground' }).first().click();
  await expectVisible(page.locator('[data-testid="tellers-canvas"]'), 'the playground again');
}

export async function aLinkToAnExerciseBringsItIntoView({ page, open }) {
  // A lesson is drawn a few parts a step; a link to one of its last
  // exercises still lands on it once every part is there.
  await open('#/lessons/littles-law/littles-law-says');
  const card = page.locator('#ex-littles-law-says');
  await expectVisible(card, 'the linked exercise');
  await page.waitForFunction(
    () => {
      const box = document.getElementById('ex-littles-law-says')?.getBoundingClientRect();
      return box && window.scrollY > 0 && box.top >= -1 && box.top < window.innerHeight / 2;
    },
    null,
    { timeout: 10_000 },
  );
}

export async function aLessonHasAPresenterModeForAProjector({ page, open, screenshot }) {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await open('#/lessons/utilisation-and-response-time');
  await expectVisible(page.locator('.prose').first(), 'the lesson text');
  const measure = () =>
    page.evaluate(() => ({
      text: parseFloat(getComputedStyle(document.querySelector('.prose p')).fontSize),
      width: document.querySelector('[data-testid="lesson"]').getBoundingClientRect().width,
      header: getComputedStyle(document.querySelector('.site-header')).display,
    }));
  const before = await measure();
  await page.getByTestId('lesson-presenter').click();
  const on = await measure();
  assert.equal(on.header, 'none', 'the site header is hidden');
  assert.ok(on.text >= 1.25 * before.text, `text ${before.text} px → ${on.text} px`);
  assert.ok(on.width >= 1.25 * before.width, `column ${before.width} px → ${on.width} px`);
  await screenshot('lesson-presenter-1080p.png', { fullPage: false });
  // It stays on from one lesson to the next, and goes off again.
  await page.locator('.pager__link[rel="next"]').click();
  await expectVisible(page.getByRole('heading', { level: 1, name: /The line that grows without limit/ }), 'the next lesson');
  assert.equal(await page.getByTestId('lesson-presenter').getAttribute('aria-pressed'), 'true');
  await page.getByTestId('lesson-presenter').click();
  assert.notEqual((await measure()).header, 'none', 'the header is back');
}

/** On a 1024×768 projector a lesson's simulation shows its slider, Play
 * and the whole scene on one screen: the scene stacked above the figures
 * is drawn at its plain size (enlarged with the type, it ran 826 px from
 * the slider to its foot, the cores and the legend below the screen). */
export async function aLessonsSimulationFitsA1024By768Projector({ page, open }) {
  await page.setViewportSize({ width: 1024, height: 768 });
  await open('#/lessons/work-and-wait?presenter=1');
  const widget = page.locator('.sim-widget').filter({ has: page.locator('.scene') }).first();
  await expectVisible(widget.locator('.scene'), 'the scene');
  await page.waitForFunction(() => document.querySelector('.sim-widget .scene')?.dataset.zoom, null, { timeout: 5_000 });
  const m = await widget.evaluate((w) => {
    const slider = w.querySelector('.control').getBoundingClientRect();
    const scene = w.querySelector('.scene').getBoundingClientRect();
    return { span: scene.bottom - slider.top, width: scene.width, playAbove: w.querySelector('[data-testid=play]').getBoundingClientRect().bottom <= scene.top };
  });
  assert.ok(m.span <= 740, `from the slider to the scene's foot: ${m.span} px on a 768 px screen`);
  assert.ok(m.width >= 700, `the scene keeps its three columns: ${m.width} px wide`);
  assert.ok(m.playAbove, 'Play sits between the slider and the scene');
}

/** A link to an exercise the lesson does not have opens the lesson and
 * says so (it opened at the start without a word); a real one does not. */
export async function aLinkToAMissingExerciseSaysSo({ page, open }) {
  await open('#/lessons/littles-law/no-such-exercise');
  await expectVisible(page.getByRole('heading', { level: 1 }), 'the lesson heading');
  const notice = page.getByTestId('no-such-exercise');
  await expectVisible(notice, 'the missing exercise notice');
  assert.match(await notice.textContent(), /names an exercise, 'no-such-exercise', that this lesson does not have/);
  await open('#/lessons/littles-law/threads-busy');
  await expectVisible(page.locator('#ex-threads-busy'), 'the linked exercise');
  assert.equal(await page.getByTestId('no-such-exercise').count(), 0);
}

export async function theLastHintKeepsTheFocusOnItsButton({ page, open }) {
  await open('#/lessons/littles-law/threads-busy');
  const card = page.locator('#ex-threads-busy');
  const hint = card.getByRole('button', { name: /Hint/ });
  await expectVisible(hint, 'the hint button');
  await hint.focus();
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('Enter');
  assert.equal(await card.locator('.exercise__hints li').count(), 3, 'three hints');
  assert.equal(await hint.getAttribute('aria-disabled'), 'true', 'no more hints');
  assert.ok(await hint.evaluate((b) => b === document.activeElement), 'the hint button keeps the focus');
  // Pressed again, it shows nothing more.
  await page.keyboard.press('Enter');
  assert.equal(await card.locator('.exercise__hints li').count(), 3, 'still three hints');
  // A wrong answer now points past the hints (it said "Try a hint." with
  // every hint open), and to the solution's steps once that is open.
  await card.getByTestId('answer').fill('1');
  await card.getByTestId('check').click();
  const said = card.getByTestId('feedback');
  await expectVisible(said, 'the feedback');
  assert.match(await said.textContent(), /Every hint is open: read them again, or open the worked solution\./);
  assert.doesNotMatch(await said.textContent(), /Try a hint/);
  // Opening the solution moves the pointer without a second check (the
  // words of the check before stayed, pointing to help already read).
  await card.getByRole('button', { name: /worked solution/ }).click();
  await page.waitForFunction(
    (el) => /Compare your steps with the worked solution/.test(el.textContent),
    await card.elementHandle(),
  );
}

export async function aNumberAListedMistakeGivesIsNamedAsThatSlip({ page, open }) {
  // Lesson 4's busy threads for everyone's numbers: 150 requests per second,
  // 10 ms of CPU and a 40 ms wait. 1.5 threads is the CPU time alone.
  await open('#/lessons/littles-law/threads-busy');
  const card = page.locator('#ex-threads-busy');
  await expectVisible(card.getByTestId('answer'), 'the answer box');
  assert.match(await card.locator('[id^="prompt-"]').first().textContent(), /150\srequests per second.*10\sms of CPU.*40\sms/);
  await card.getByTestId('answer').fill('1.5');
  await card.getByTestId('check').click();
  const said = card.getByTestId('feedback');
  await expectVisible(said, 'the feedback');
  const text = await said.textContent();
  assert.match(text, /^Not quite: that .*CPU.* Try a hint\.$/, text);
  assert.doesNotMatch(text, /too low/);
  // A number no listed mistake gives is only too low.
  await card.getByTestId('answer').fill('2');
  await card.getByTestId('check').click();
  await page.waitForFunction((el) => /that is too low/.test(el.textContent), await card.elementHandle());
}

export async function aChoiceIsAGroupNamedByItsQuestion({ page, open }) {
  await open('#/lessons/littles-law');
  const group = page.getByRole('radiogroup').first();
  await expectVisible(group, 'the choices of an exercise');
  const prompt = await page.locator(`#${await group.getAttribute('aria-labelledby')}`).textContent();
  assert.ok(prompt.length > 20 && prompt.endsWith('?'), `the group is named by its question: ${prompt}`);
  assert.ok((await group.getByRole('radio').count()) >= 3, 'its options are in it');
  // A number box is described by its question too.
  const box = page.getByTestId('answer').first();
  const described = await page.locator(`#${await box.getAttribute('aria-describedby')}`).textContent();
  assert.ok(described.length > 20, `the answer box is described by its question: ${described}`);
}

export async function feedbackIsSaidInAStatusThereFromTheStartAndSaidAgainOnASecondCheck({ page, open }) {
  await open('#/lessons/littles-law/threads-busy');
  const card = page.locator('#ex-threads-busy');
  await expectVisible(card.getByTestId('answer'), 'the answer box');
  const status = card.locator('.exercise__said[role="status"]');
  assert.equal(await status.count(), 1, 'a status before any check');
  assert.equal((await status.textContent()).trim(), '', 'empty before any check');
  // Count what is put into the status: a second check of the same wrong
  // answer puts the same words in again (else nothing would be said).
  await status.evaluate((el) => {
    window.said = 0;
    new MutationObserver((rs) => {
      if (rs.some((r) => [...r.addedNodes].some((n) => n.textContent.trim()))) window.said += 1;
    }).observe(el, { childList: true, subtree: true, characterData: true });
  });
  await card.getByTestId('answer').fill('1');
  await card.getByTestId('check').click();
  await expectVisible(status.getByTestId('feedback'), 'the feedback, in the status');
  await page.waitForFunction(() => window.said === 1);
  await card.getByTestId('check').click();
  await page.waitForFunction(() => window.said === 2, null, { timeout: 2_000 });
  // Opening the solution says it is open.
  const solution = card.getByRole('button', { name: /worked solution/ });
  assert.equal(await solution.getAttribute('aria-expanded'), 'false');
  await solution.click();
  assert.equal(await card.getByRole('button', { name: /Hide the solution/ }).getAttribute('aria-expanded'), 'true');
}

export async function aScreenReaderReachesEveryHeadingAndButtonOfALesson({ page, open }) {
  await open('#/lessons/littles-law');
  await expectVisible(page.locator('.exercise').last(), 'the last exercise');
  await page.waitForTimeout(300);
  // What the accessibility tree exposes, against what the page has: text
  // far below the screen was once left out (content-visibility: auto).
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  const exposed = (role) => nodes.filter((n) => !n.ignored && n.role?.value === role).length;
  const headings = await page.locator('main h1, main h2, main h3').count();
  const buttons = await page.locator('main button:visible').count();
  assert.ok(exposed('heading') >= headings, `${exposed('heading')} headings exposed of ${headings}`);
  assert.ok(exposed('button') >= buttons, `${exposed('button')} buttons exposed of ${buttons}`);
  await cdp.detach();
}

/** A page has several exercises, each with Check, Hint and a link: each
 * is named for its exercise, by the number the card shows (and the key
 * and the results use), so a list of a page's buttons tells them apart. */
export async function eachExercisesButtonsAndLinkAreNamedForIt({ page, open }) {
  await open('#/lessons/littles-law');
  const cards = page.getByTestId('exercise');
  await expectVisible(page.getByRole('heading', { name: 'In the interview' }), 'the section after the exercises');
  const count = await cards.count();
  assert.ok(count >= 3, `${count} exercises`);
  const first = cards.first();
  assert.match(await first.locator('.exercise__kind').textContent(), /^Exercise 4\.1 · /, 'the number shown');
  // Each is a heading under the lesson's Exercises, named by its number.
  const headings = await page.getByRole('heading', { level: 3, name: /^Exercise 4\.\d+ · / }).allTextContents();
  assert.equal(headings.length, count, `exercise headings: ${headings.join(' | ')}`);
  // What is written on them stays as it was.
  assert.equal((await first.getByTestId('check').textContent()).trim(), 'Check');
  assert.equal((await first.locator('.exercise__link').textContent()).trim(), '#');
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  const names = nodes
    .filter((n) => !n.ignored && ['button', 'link'].includes(n.role?.value))
    .map((n) => n.name?.value ?? '')
    .filter((n) => /^(Check|Hint|Show the worked solution|Link to)/.test(n));
  assert.ok(names.includes('Show the worked solution for exercise 4.2'), names.join(' | '));
  assert.ok(names.includes('Check it in the simulator for exercise 4.2'), names.join(' | '));
  for (const [what, re] of [
    ['Check e', /^Check exercise 4\.\d+$/],
    ['Hint', /^Hint \(\d of \d\) for exercise 4\.\d+$/],
    ['Link', /^Link to exercise 4\.\d+$/],
  ]) {
    const these = names.filter((n) => n.startsWith(what));
    assert.equal(these.length, count, `${what}: ${these.join(' | ')}`);
    these.forEach((n) => assert.match(n, re));
  }
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  assert.deepEqual(twice, [], 'no two buttons or links share a name');
  assert.equal(await page.getByRole('button', { name: 'Check exercise 4.2', exact: true }).count(), 1);
}

/** A link opens a lesson ready for the projector (`?presenter=1`; a teacher
 * could not keep such a link, it opened in normal mode), the lesson's
 * toggle writes it into the link, and at 1280×720 nothing a class must
 * read is under 15 px (range notes and labels were 13 px, choices 13 px
 * boxes). The pager's links and the address of every lesson opened in
 * presenter mode carry it (the next lesson's address lacked it, so a
 * teacher copying it opened the lesson in normal mode). A value that is
 * not 1 or 0 says so. */
export async function aLessonLinkOpensInPresenterModeReadableAt720p({ page, open }) {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open('#/lessons/the-growing-line?presenter=1');
  await expectVisible(page.locator('.prose').first(), 'the lesson text');
  await page.waitForFunction(() => document.querySelector('.pager'));
  const toggle = page.getByTestId('lesson-presenter');
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true', 'the link turns presenter mode on');
  const small = await page.evaluate(() => {
    const parts = ['.prose p', '.control__range', '.controls__group', '.control__label', '.control__unit', '.predict__label', '.exercise__kind', '.exercise label', '.run-controls__status'];
    return parts
      .flatMap((sel) => [...document.querySelectorAll(`.lesson ${sel}`)].slice(0, 3).map((e) => [sel, parseFloat(getComputedStyle(e).fontSize)]))
      .filter(([, px]) => px < 15);
  });
  assert.deepEqual(small, [], 'text under 15 px in a lesson in presenter mode at 720p (part, px)');
  const boxes = await page.evaluate(() =>
    [...document.querySelectorAll('.lesson input[type="radio"], .lesson input[type="checkbox"]')].map((b) => b.getBoundingClientRect().width),
  );
  assert.ok(boxes.length > 0 && boxes.every((w) => w >= 18), `choice boxes ${boxes.join(', ')} px wide`);
  const pager = () => page.locator('.pager__link').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  assert.deepEqual(await pager(), ['#/lessons/utilisation-and-response-time?presenter=1', '#/lessons/reading-the-signs?presenter=1'], 'the previous and next lessons open in presenter mode');
  await toggle.click();
  assert.ok(!page.url().includes('presenter='), `off: ${page.url()}`);
  assert.ok((await pager()).every((href) => !href.includes('presenter')), 'off: the pager links leave it out');
  await toggle.click();
  assert.ok(page.url().endsWith('#/lessons/the-growing-line?presenter=1'), `on: ${page.url()}`);
  // The next lesson, opened by its link or from the contents, is on as the
  // tab remembers, and its address says so.
  await page.locator('.pager__link[rel="next"]').click();
  await page.waitForFunction(() => location.hash.startsWith('#/lessons/reading-the-signs'));
  assert.ok(page.url().endsWith('#/lessons/reading-the-signs?presenter=1'), `next: ${page.url()}`);
  await page.evaluate(() => { location.hash = '#/lessons/littles-law'; });
  await page.waitForFunction(() => location.hash === '#/lessons/littles-law?presenter=1');
  assert.equal(await page.getByTestId('lesson-presenter').getAttribute('aria-pressed'), 'true', 'the tab remembers');
  await open('#/lessons/the-growing-line?presenter=maybe');
  const notice = page.getByTestId('bad-presenter');
  await expectVisible(notice, 'the notice for presenter=maybe');
  assert.match(await notice.textContent(), /presenter=maybe is not on or off \(1 or 0; on\/off, yes\/no and true\/false are read too\)/);
  // A name a lesson's link does not read is told, not dropped.
  await open('#/lessons/the-growing-line?presentr=1');
  const ignored = page.getByTestId('link-ignored');
  await expectVisible(ignored, "the notice for presentr=1");
  assert.equal(await ignored.textContent(), "This link's 'presentr' was ignored: a lesson's link reads only presenter (1 or 0) and class (a class code).");
}

// On a phone the solved mark stays one mark: "✓" and "solved" sat on two
// lines at 375 px.
export async function theSolvedMarkStaysOnOneLineOnAPhone({ page, open }) {
  await page.setViewportSize({ width: 375, height: 800 });
  await open('#/lessons/littles-law/threads-busy');
  const { card, answer } = await threadsBusy(page);
  await card.getByTestId('answer').fill(`${answer} threads`);
  await card.getByTestId('check').click();
  const mark = card.locator('.exercise__solved');
  await expectVisible(mark.getByText('✓ solved'), 'the solved mark');
  const lines = await mark.evaluate((el) => el.getClientRects().length);
  assert.equal(lines, 1, 'the mark on one line');
}

export async function aLessonsSceneInPresenterModeGrowsWithItsText({ page, open }) {
  // Lesson 3's scene on a 1366 px projector in presenter mode: in the
  // text's column it was drawn at 1.03 times, its legend 15.5 px beside
  // 21.6 px text; a simulation with a scene now takes the page's width.
  for (const [width, height, least] of [[1366, 768, 1.15], [1920, 1080, 1.45]]) {
    await page.setViewportSize({ width, height });
    await open('#/lessons/thread-pools?presenter=1');
    const canvas = page.getByTestId('tellers-canvas').first();
    await expectVisible(canvas, 'the scene');
    await page.waitForFunction((el) => Number(el.dataset.zoom) > 0, await canvas.elementHandle());
    const zoom = Number(await canvas.getAttribute('data-zoom'));
    assert.ok(zoom >= least, `the scene at ${width} px drawn at ${zoom} times, under ${least}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, `the page scrolls sideways by ${overflow} px at ${width} px`);
  }
}

/**
 * A printed lesson leaves its simulations out, and a line stands in each
 * one's place with its caption: the predict box's "press Run to the end"
 * pointed at nothing on paper. On screen the line is not shown.
 */
export async function aPrintedLessonSaysWhereEachSimulationWas({ page, open }) {
  await open('#/lessons/littles-law');
  await expectVisible(page.getByTestId('lesson-sim').first(), 'the simulation');
  // The lesson is drawn a part at a time: count once its exercises, after
  // its last simulation, are there (a fresh clone's run counted 1 of 2).
  await page.getByTestId('exercise').last().waitFor();
  const paper = page.getByTestId('lesson-sim-paper');
  const sims = await page.getByTestId('lesson-sim').count();
  assert.equal(await paper.count(), sims, 'a line for each simulation');
  assert.equal(await paper.first().isVisible(), false, 'not on screen');
  const text = pdfPageTexts(await page.pdf({ format: 'A4' })).join('\n').replace(/\s+/g, ' ');
  assert.match(text, /press Run to the end/);
  assert.match(text, /▶ A simulation, to run in Tellers: /);
  const at = text.indexOf('press Run to the end');
  assert.ok(text.indexOf('▶ A simulation', at) > at, 'the line follows the predict box');
  // An exercise's heading without its link's "#" (a teacher's walk found
  // "EXERCISE 4.1 · RECALL #" on paper).
  assert.match(text, /Exercise 4\.1 · Recall/i);
  assert.doesNotMatch(text, /Exercise 4\.\d · \w+( \w+)? #/i);
}

/**
 * On a touch screen the small controls are a finger's height to tap: a
 * phone walk measured sliders 16 px tall, the overload toggles' labels
 * 19 px stacked with no gap, and the exercises' "#" links 12 by 15 px.
 */
export async function smallControlsAreAFingersHeightOnATouchScreen({ page, open }) {
  await open('#/lessons/the-growing-line');
  const origin = new URL(page.url()).origin;
  const phone = await page.context().browser().newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    reducedMotion: 'reduce',
  });
  try {
    const p = await phone.newPage();
    await p.goto(`${origin}/#/lessons/the-growing-line`);
    await expectVisible(p.locator('.control--toggle').first(), 'an overload toggle');
    await expectVisible(p.locator('.exercise__link').first(), 'an exercise link');
    const heights = await p.evaluate(() => {
      // The least of the visible ones; none found reads as 0, a failure.
      const least = (sel) => {
        const hs = [...document.querySelectorAll(sel)].map((e) => e.getBoundingClientRect().height).filter((h) => h > 0);
        return hs.length ? Math.min(...hs) : 0;
      };
      return {
        slider: least('.control__row input[type="range"]'),
        // The label is what a finger taps, not the row around it.
        toggle: least('.control--toggle .control__label'),
        link: least('.exercise__link'),
        linkWidth: Math.min(...[...document.querySelectorAll('.exercise__link')].map((e) => e.getBoundingClientRect().width)),
        // Were 36, 32 and 23 px; a link on its own line was 16 to 18 px.
        numberBox: least('.control__box'),
        fold: least('.sim-widget summary'),
        breadcrumb: least('.eyebrow a'),
        playgroundLink: least('[data-testid="open-in-playground"]'),
      };
    });
    for (const [what, px] of Object.entries(heights)) {
      assert.ok(px >= 39.5, `${what}: ${px} px`);
    }
    // The playground's lists (the preset, how requests arrive) were 32 px.
    await p.goto(`${origin}/#/playground`);
    await expectVisible(p.locator('.playground__controls select').first(), "the playground's lists");
    const lists = await p.evaluate(() => Math.min(...[...document.querySelectorAll('select')].map((e) => e.getBoundingClientRect().height).filter((h) => h > 0)));
    assert.ok(lists >= 39.5, `a list: ${lists} px`);
    // The contents' "0 / 6 solved" stands under a lesson's summary, not
    // beside it, where it squeezed titles into about 100 px.
    await p.goto(`${origin}/#/lessons`);
    const title = p.locator('.toc__title').nth(11);
    await expectVisible(title, "lesson 12's title");
    const width = await title.evaluate((e) => e.getBoundingClientRect().width);
    assert.ok(width >= 250, `a title ${width} px wide on a phone`);
  } finally {
    await phone.close();
  }
}
