// A student's own numbers and progress, as students use them: a class code
// and a name typed and never lost, shown on every lesson; progress kept
// per identity, with the help used, stopping at the first right answer;
// the file saved after the student; answers typed as learners type them.

import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { threadsBusy } from './exercises.mjs';
import { expectAccessible, expectVisible } from './harness.mjs';

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 768 };
const HD = { width: 1280, height: 720 };

/** Types a class code and a name in the student panel, and nothing else. */
async function typeWho(page, code, name) {
  await page.getByTestId('class-code').fill(code);
  await page.getByTestId('student-name').fill(name);
}

async function check(card, text) {
  await card.getByTestId('answer').fill(text);
  await card.getByTestId('check').click();
  const feedback = card.getByTestId('feedback');
  await expectVisible(feedback, `feedback for "${text}"`);
  // The card answers within the click's own task (its handler and the
  // redraw it schedules run before the next command reaches the page).
  return (await feedback.textContent()).trim();
}

/** The "x / n" solved count of Little's law (lesson 4) on the contents. */
async function littlesLawSolved(page) {
  await page.goto(page.url().replace(/#.*$/, '#/lessons'));
  const item = page.locator('.toc__item').nth(3);
  await expectVisible(item, 'the contents');
  return (await item.locator('.toc__done').textContent()).trim();
}

export async function aClassCodeAndNameTypedAreKeptAndShownOnEveryLesson({ page, open, screenshot }) {
  for (const [size, viewport] of [['phone', PHONE], ['laptop', LAPTOP], ['720p', HD]]) {
    await page.setViewportSize(viewport);
    await open('#/lessons');
    await page.evaluate(() => localStorage.clear());
    await open('#/lessons');
    // Typed, and the student moves straight on: no "Use my numbers".
    await typeWho(page, 'SD-101', ' Ana  Souza ');
    await page.locator('.toc__link').nth(3).click();
    const whose = page.getByTestId('whose-numbers');
    await expectVisible(whose, 'whose numbers the lesson uses');
    assert.match(await whose.textContent(), /^Numbers for Ana Souza · SD-101/);
    await screenshot(`numbers-lesson-${size}.png`, { fullPage: false });
    // Still hers after a reload and on the next lesson.
    await page.reload();
    await expectVisible(whose.filter({ hasText: 'Numbers for Ana Souza · SD-101' }), 'her numbers after a reload');
    const hers = (await threadsBusy(page)).prompt;
    await page.getByRole('link', { name: /Next/ }).click();
    await expectVisible(page.locator('.eyebrow', { hasText: 'Lesson 5 of' }), 'the next lesson');
    assert.match(await whose.textContent(), /^Numbers for Ana Souza · SD-101/);
    // The contents show the boxes as kept, and these are not the shared numbers.
    await page.getByRole('link', { name: 'Lessons' }).first().click();
    assert.equal(await page.getByTestId('student-name').inputValue(), 'Ana Souza');
    assert.match(await page.getByTestId('student-status').textContent(), /Numbers for Ana Souza · SD-101/);
    await screenshot(`numbers-contents-${size}.png`, { fullPage: false });
    await typeWho(page, '', '');
    await page.locator('.toc__link').nth(3).click();
    await expectVisible(whose.filter({ hasText: 'Shared numbers' }), 'the shared numbers, said so');
    assert.notEqual((await threadsBusy(page)).prompt, hers, 'her numbers were her own');
  }
  await expectAccessible(page);
}

export async function progressIsKeptPerIdentityWithTheHelpUsedUpToTheFirstRightAnswer({ page, open, screenshot }) {
  await page.setViewportSize(LAPTOP);
  // Solved on the shared numbers.
  await open('#/lessons/littles-law/threads-busy');
  let { card, answer } = await threadsBusy(page);
  assert.equal(await check(card, String(answer)), 'Correct.');
  assert.match(await littlesLawSolved(page), /^1 \/ \d+ solved$/);

  // Another identity starts afresh.
  await typeWho(page, 'R12', 'Ana Souza');
  assert.match(await littlesLawSolved(page), /^0 \//, 'not solved for Ana Souza');
  await page.locator('.toc__link').nth(3).click();
  ({ card, answer } = await threadsBusy(page));
  assert.equal(await card.getByText('✓ solved').count(), 0);
  // The worked solution and a hint, then the answer the solution gives.
  await card.getByRole('button', { name: /Hint/ }).click();
  await card.getByRole('button', { name: 'Show the worked solution' }).click();
  await expectVisible(card.locator('.exercise__solution li').first(), 'the worked solution');
  assert.equal(await check(card, `${answer} threads`), 'Correct.');
  // Answers after the first right one are not counted.
  for (let i = 0; i < 5; i += 1) {
    await check(card, String(answer * 2));
    await check(card, String(answer));
  }
  await card.getByRole('button', { name: /Hint/ }).click();
  await screenshot('numbers-solved-with-help.png', { fullPage: false });

  await page.getByRole('link', { name: 'Lessons' }).first().click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
  assert.equal(download.suggestedFilename(), 'tellers-progress-ana-souza.json', 'named after the student');
  const text = await fs.readFile(await download.path(), 'utf8');
  const file = JSON.parse(text);
  assert.deepEqual(file.student, { class: 'R12', name: 'Ana Souza' });
  assert.deepEqual(
    file.exercises['threads-busy'],
    { solved: true, attempts: 1, hints: 1, first_correct: true, solution: true },
    'one answer, one hint, the solution opened first',
  );
  assert.deepEqual(Object.keys(file.exercises), ['threads-busy'], 'only her own progress');

  // Back on the shared numbers, their progress is as it was.
  await typeWho(page, '', '');
  assert.match(await littlesLawSolved(page), /^1 \//);

  // The teacher sees the help in the table and the CSV.
  await open('#/lessons/results?class=R12');
  await page.getByTestId('results-files').setInputFiles([
    { name: download.suggestedFilename(), mimeType: 'application/json', buffer: Buffer.from(text) },
  ]);
  const row = page.getByTestId('results-row');
  await expectVisible(row, "Ana Souza's row");
  const cell = row.locator('td[title^="threads-busy:"]');
  assert.equal((await cell.textContent()).trim(), '✓ 1 h1 S');
  assert.match(await cell.getAttribute('title'), /solved in 1 answer, 1 hint, the worked solution opened first/);
  await row.scrollIntoViewIfNeeded();
  await screenshot('numbers-results.png', { fullPage: false });
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('results-csv').click()]);
  const lines = (await fs.readFile(await csv.path(), 'utf8')).split('\r\n');
  const header = lines[0].split(',');
  const at = header.findIndex((h) => / threads-busy solved$/.test(h));
  assert.deepEqual(header.slice(at + 1, at + 4).map((h) => h.replace(/^.* threads-busy /, '')), [
    'answers checked',
    'hints opened',
    'solution seen first',
  ]);
  assert.deepEqual(lines[1].split(',').slice(at, at + 4), ['yes', '1', '1', 'yes']);
}

/** Sets a name whose "threads busy" answer has a decimal part; returns the card and answer. */
async function fractionalStudent(page, open) {
  for (let i = 1; i < 40; i += 1) {
    await open('#/lessons');
    await typeWho(page, 'R12', `Student ${i}`);
    await page.locator('.toc__link').nth(3).click();
    const found = await threadsBusy(page);
    if (!Number.isInteger(found.answer)) return found;
  }
  throw new Error('no student of 40 has a fractional answer');
}

export async function answersAreReadAsLearnersTypeThem({ page, open, screenshot }) {
  await page.setViewportSize(PHONE);
  const { card, answer } = await fractionalStudent(page, open);
  const comma = String(answer).replace('.', ',');
  // Wrong ones first: a record stops at the first right answer.
  const ms = await check(card, '99 ms');
  assert.match(ms, /^Wrong unit: 'ms' gives a time, but this answer is a number of threads\./);
  assert.ok(!/may be fine/.test(ms), ms);
  const hundredfold = await check(card, String(answer).replace('.', ''));
  assert.match(hundredfold, /too high/, `"${comma}" without its comma is far more`);
  assert.equal(await check(card, comma), 'Correct.', `"${comma}" is ${answer}`);
  await card.scrollIntoViewIfNeeded();
  await screenshot('numbers-decimal-comma-phone.png', { fullPage: false });
  assert.equal(await check(card, `${answer} requests`), 'Correct.', "Little's law counts requests inside");
  assert.equal(await check(card, `${answer * 4}/4`), 'Correct.', 'a fraction');

  const says = page.locator('#ex-littles-law-says');
  const right = 'On average, requests inside = arrival rate × time each spends inside';
  await says.locator('.exercise__option', { hasText: right }).locator('input').check();
  await says.getByTestId('check').click();
  const feedback = says.getByTestId('feedback');
  await expectVisible(feedback, 'the verdict');
  assert.equal((await feedback.textContent()).trim(), 'Correct. L = λ × W, as long as the system keeps up with arrivals.');
}
