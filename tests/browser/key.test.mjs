// The teacher's answer key as a teacher prints it for a class: exercises
// by lesson number and title, a filter by lesson, a compact print (a few
// pages for three students, not fifty), and names that differ only by
// their spaces giving one student's numbers. Printed, every page says whose
// answers it shows and for which class, and a name never ends a page; an
// unbounded answer reads as the student should type it ("no limit"); a
// list longer than the key takes says how many were left out.

import assert from 'node:assert/strict';
import { threadsBusy } from './exercises.mjs';
import { expectAccessible, expectVisible, holdFrames, pdfPageTexts } from './harness.mjs';

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 768 };
const HD = { width: 1280, height: 720 };

/** Pages in a PDF made by Chromium. */
function pdfPages(pdf) {
  return (pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? []).length;
}

/** Each student's section: their name and, per lesson table, its caption and rows. */
async function keyContents(page) {
  return page.locator('.key__student').evaluateAll((sections) => {
    // As the screen shows it: without whose and the class, said on paper only.
    const shown = (el) => {
      const copy = el.cloneNode(true);
      copy.querySelectorAll('.key__whose').forEach((w) => w.remove());
      return copy.textContent;
    };
    return sections.map((s) => ({
      name: shown(s.querySelector('h2')),
      lessons: [...s.querySelectorAll('table')].map((t) => ({
        caption: shown(t.caption),
        rows: [...t.tBodies[0].rows].map((r) => ({
          id: r.dataset.exercise,
          label: r.cells[0].textContent,
          cells: r.cells.length,
          answer: r.querySelector('.key__answer').textContent,
        })),
      })),
    }));
  });
}

export async function theKeyIsByLessonFilteredPrintedCompactlyAndTidiesNames({ page, open, screenshot }) {
  // A student types her name as she likes.
  await open('#/lessons');
  await page.getByTestId('class-code').fill('R12');
  await page.getByTestId('student-name').fill('Ana Souza');
  await expectVisible(page.locator('.toc__link').first(), 'the contents');
  const lessonCount = await page.locator('.toc__link').count();
  await page.locator('.toc__link').nth(3).click();
  const { answer } = await threadsBusy(page);

  await page.setViewportSize(HD);
  await open('#/lessons/answer-key?class=R12');
  // The teacher's list spaces her name otherwise, and repeats one.
  await page.getByTestId('key-names').fill('Ana  Souza\nBen\n Cy   Dee\nana souza');
  await expectVisible(page.getByRole('heading', { level: 2, name: 'Cy Dee' }), "the last student's answers");
  let key = await keyContents(page);
  assert.deepEqual(key.map((s) => s.name), ['Ana Souza', 'Ben', 'Cy Dee'], 'tidied, each once');
  const [ana] = key;
  assert.equal(ana.lessons.length, lessonCount, 'a table per lesson');
  ana.lessons.forEach((l, i) => assert.match(l.caption, new RegExp(`^${i + 1}\\. \\S`), 'by number and title'));
  const littles = ana.lessons.find((l) => l.caption === "4. Little's law");
  assert.ok(littles, ana.lessons.map((l) => l.caption).join(' | '));
  littles.rows.forEach((r, i) => assert.equal(r.label, `4.${i + 1}`));
  assert.equal(littles.rows[0].cells, 2, 'compact: a number and an answer');
  const text = await page.getByTestId('key-tables').textContent();
  assert.ok(!text.includes('threads-busy'), 'no slugs on the key');
  const row = littles.rows.find((r) => r.id === 'threads-busy');
  const shown = Number(row.answer.replace(/[^\d.]/g, ''));
  assert.ok(Math.abs(shown - answer) / answer < 0.01, `"Ana  Souza" has Ana Souza's answer (${shown} vs ${answer})`);
  await screenshot('key-720p.png', { fullPage: false });

  // Printed: three students, every lesson, in a few pages.
  await page.emulateMedia({ media: 'print' });
  await screenshot('key-print.png', { fullPage: false });
  const pages = pdfPages(await page.pdf({ format: 'A4' }));
  // The old key took about 17 A4 pages a student (228 rows for three);
  // compact, each student's answers to every lesson take at most three.
  assert.ok(pages >= 2 && pages <= 3 * 3, `three students' keys print on ${pages} A4 pages`);
  await page.emulateMedia({ media: 'screen' });

  // One lesson only, for the class.
  await page.getByTestId('key-lesson').selectOption({ label: "4. Little's law" });
  // Redrawn a student per frame: wait for the last one.
  await page.waitForFunction(() => {
    const s = document.querySelectorAll('.key__student');
    return s.length === 3 && [...s].every((x) => x.querySelectorAll('table').length === 1);
  });
  key = await keyContents(page);
  assert.deepEqual(key.map((s) => s.lessons.map((l) => l.caption)), [["4. Little's law"], ["4. Little's law"], ["4. Little's law"]]);
  assert.equal(key[0].lessons[0].rows.length, littles.rows.length);

  // With the questions: their numbers beside their answers.
  await page.getByTestId('key-questions').check();
  await expectVisible(page.locator('.key__lessons--questions').first(), 'the questions');
  const question = await page.locator('.key__student').first().locator('tr[data-exercise="threads-busy"] td').first().textContent();
  assert.match(question, /requests per second/);
  for (const [size, viewport] of [['phone', PHONE], ['laptop', LAPTOP]]) {
    await page.setViewportSize(viewport);
    await screenshot(`key-one-lesson-${size}.png`, { fullPage: false });
  }
  await expectAccessible(page);
}

/**
 * "Zoë" typed as e and a combining diaeresis (some keyboards, a pasted
 * list) and as one letter look alike, so they are one student with one set
 * of numbers: the learner's page and the teacher's key both read names in
 * Unicode's composed form (the wasm asks the browser's String.normalize).
 */
export async function aNameTypedWithACombiningAccentHasTheKeysNumbers({ page, open }) {
  const decomposed = 'Zoe\u0308 Martin';
  const composed = 'Zo\u00eb Martin';
  await open('#/lessons');
  await page.getByTestId('class-code').fill('R12');
  await page.getByTestId('student-name').fill(decomposed);
  await expectVisible(page.locator('.toc__link').first(), 'the contents');
  const lessonCount = await page.locator('.toc__link').count();
  await page.locator('.toc__link').nth(3).click();
  const { answer } = await threadsBusy(page);

  await open('#/lessons/answer-key?class=R12');
  // The teacher's list has her name both ways, and a name without the accent.
  await page.getByTestId('key-names').fill(`${composed}\n${decomposed}\nZoe Martin`);
  await waitForKey(page, 2, lessonCount);
  const key = await keyContents(page);
  assert.deepEqual(key.map((s) => s.name.normalize('NFC')), [composed, 'Zoe Martin'], 'her name once, and Zoe');
  const row = (s) => s.lessons.flatMap((l) => l.rows).find((r) => r.id === 'threads-busy');
  const shown = Number(row(key[0]).answer.replace(/[^\d.]/g, ''));
  assert.ok(Math.abs(shown - answer) / answer < 0.01, `the key's Zoë has the learner's numbers (${shown} vs ${answer})`);
}

/** A printed page's lines, trimmed, without the empty ones. */
function lines(text) {
  return text.split('\n').map((l) => l.trim()).filter(Boolean);
}

/** Waits until the key shows `n` students, each with `tables` tables. */
async function waitForKey(page, n, tables) {
  await page.waitForFunction(
    ([n, tables]) => {
      const s = document.querySelectorAll('.key__student');
      return s.length === n && [...s].every((x) => x.querySelectorAll('table').length === tables);
    },
    [n, tables],
  );
}

/**
 * A class's key prints packed, students one after another in two columns,
 * so a page can start in the middle of a student's tables: each table's
 * caption says whose answers these are, and each name heading the class
 * (the class code box is not printed). And no blank sheet comes out at the
 * end, whatever the class's size (break-after: avoid on the names made one
 * for 13 class sizes of 30 on A4).
 */
export async function everyPrintedPageOfTheKeySaysWhoseAnswersAndTheClass({ page, open, screenshot }) {
  await page.setViewportSize(HD);
  await open('#/lessons/answer-key?class=R12');
  const names = ['Ana Souza', 'Ben', 'Cy Dee', 'Dora Lima', 'Eli'];
  // Printing waits for every student's tables, drawn one per frame: Print
  // pressed at once printed 2 of 60 students' tables.
  const printWaits = await page.getByTestId('key-names').evaluate(async (box, text) => {
    box.value = text;
    box.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
    await new Promise((r) => requestAnimationFrame(() => r()));
    const button = document.querySelector('[data-testid="key-print"]');
    return { disabled: button.disabled, said: document.querySelector('[data-testid="key-preparing"]')?.textContent };
  }, names.join('\n'));
  assert.ok(printWaits.disabled, 'Print waits while the tables are drawn');
  assert.match(printWaits.said ?? '', /^Preparing the key: \d of 5 students…$/);
  const lessonCount = await page.locator('[data-testid="key-lesson"] option').count() - 1;
  await waitForKey(page, names.length, lessonCount);
  await page.waitForFunction(() => !document.querySelector('[data-testid="key-print"]').disabled);
  assert.equal(await page.getByTestId('key-preparing').count(), 0, 'no longer preparing');

  // On screen the name heading says whose and the code box the class.
  assert.ok(!(await page.locator('.key__whose').first().isVisible()), 'nothing extra on screen');
  await page.emulateMedia({ media: 'print' });
  assert.equal((await page.locator('.key__student h2').first().innerText()).trim(), 'Ana Souza \u00b7 class R12');
  const caption = (await page.locator('.key__student').nth(1).locator('caption').first().innerText()).trim();
  assert.match(caption, /^Ben \u00b7 1\. /, 'whose answers, then the lesson');
  await screenshot('key-print-whose.png', { fullPage: false });

  // A4, every lesson: each page after the first starts by saying whose.
  const a4 = pdfPageTexts(await page.pdf({ format: 'A4' }));
  assert.ok(a4.length >= 3, `five students' keys on ${a4.length} pages`);
  assert.ok(a4[0].includes('Ana Souza \u00b7 class R12'), `the class on the first page: ${a4[0].slice(0, 400)}`);
  a4.forEach((text, i) => {
    const ls = lines(text);
    assert.ok(ls.length > 0, `page ${i + 1} of ${a4.length} is blank`);
    if (i > 0) {
      assert.ok(
        names.some((n) => ls[0].startsWith(`${n} \u00b7 `)),
        `page ${i + 1} starts without saying whose: ${ls.slice(0, 3).join(' | ')}`,
      );
    }
  });

  // With the questions, the key runs to many pages: no page ends with a
  // student's name, their first table on the next (pages 11 and 22 of 33
  // did, for three students).
  await page.emulateMedia({ media: 'screen' });
  await page.getByTestId('key-questions').check();
  await waitForKey(page, names.length, lessonCount);
  await page.emulateMedia({ media: 'print' });
  const long = pdfPageTexts(await page.pdf({ format: 'A4' }));
  long.forEach((text, i) => {
    const last = lines(text).at(-1) ?? '';
    assert.ok(!names.some((n) => last.startsWith(`${n} \u00b7 class`)), `page ${i + 1} of ${long.length} ends with a name: ${last}`);
  });
  await page.emulateMedia({ media: 'screen' });
  await page.getByTestId('key-questions').uncheck();

  // One lesson, classes of many sizes: no blank sheet at the end (lesson
  // 13's key in two columns made one for 19 of 30 class sizes, these among
  // them, while names were kept with their tables by break-after: avoid).
  for (const [label, sizes] of [["4. Little's law", [3, 7, 12, 18, 23, 30]], [/^13\. /, [5, 8, 11, 13, 21, 30]]]) {
  await page.emulateMedia({ media: 'screen' });
  const option = typeof label === 'string' ? { label } : { label: (await page.locator('[data-testid="key-lesson"] option').allTextContents()).find((t) => label.test(t)) };
  await page.getByTestId('key-lesson').selectOption(option);
  for (const n of sizes) {
    await page.emulateMedia({ media: 'screen' });
    await page.getByTestId('key-names').fill(Array.from({ length: n }, (_, i) => `Student ${i + 1}`).join('\n'));
    await waitForKey(page, n, 1);
    await page.emulateMedia({ media: 'print' });
    const texts = pdfPageTexts(await page.pdf({ format: 'A4' }));
    const blank = texts.map((t, i) => (t.trim() ? null : i + 1)).filter(Boolean);
    assert.deepEqual(blank, [], `${option.label}, ${n} students: blank pages among ${texts.length}`);
  }
  }
  await page.emulateMedia({ media: 'screen' });
}

export async function anUnboundedAnswerReadsNoLimitOnTheKeyAsTheQuestionAsks({ page, open }) {
  await open('#/lessons/answer-key?class=R12');
  // About 4 students in 10 of class R12 get a pool too small for their
  // traffic in lesson 4's "busy threads" question; 20 names bring some.
  const names = Array.from({ length: 20 }, (_, i) => `Student ${i}`);
  await page.getByTestId('key-names').fill(names.join('\n'));
  await page.getByTestId('key-lesson').selectOption({ label: "4. Little's law" });
  await page.getByTestId('key-questions').check();
  await page.waitForFunction(
    (n) => document.querySelectorAll('.key__lessons--questions tr[data-exercise="pool-above-the-mean"]').length === n,
    names.length,
  );
  const rows = await page.locator('tr[data-exercise="pool-above-the-mean"]').evaluateAll((rows) =>
    rows.map((r) => ({ question: r.cells[1].textContent, answer: r.querySelector('.key__answer').textContent })),
  );
  const unbounded = rows.filter((r) => !/^[\d.,]+ threads$/.test(r.answer));
  assert.ok(unbounded.length > 0 && unbounded.length < rows.length, rows.map((r) => r.answer).join(' | '));
  for (const r of unbounded) {
    assert.equal(r.answer, 'no limit', 'what the question says to type, without a unit');
    assert.ok(r.question.includes('no limit'), `the question says to answer so: ${r.question}`);
  }
  assert.ok(!(await page.getByTestId('key-tables').textContent()).includes('\u221e'), 'no \u221e on the key');
}

export async function aListLongerThanTheKeyTakesSaysHowManyWereLeftOutAndOffersTheFirstWorksheets({ page, open }) {
  await open('#/lessons/answer-key?class=R12');
  const names = (n) => Array.from({ length: n }, (_, i) => `Student ${i}`).join('\n');
  await page.getByTestId('key-names').fill(names(201));
  const note = page.getByTestId('key-left-out');
  await expectVisible(note, 'the note on the names left out');
  assert.equal(
    (await note.textContent()).trim(),
    'This key lists the first 200 names; 1 more was left out. Make a second key with the rest.',
  );
  const offer = page.getByTestId('key-class-worksheets');
  assert.equal((await offer.textContent()).trim(), 'To print worksheets for the first 200 students, pick one lesson.');
  await page.getByTestId('key-lesson').selectOption({ label: "4. Little's law" });
  await expectVisible(offer.getByRole('link', { name: 'Print worksheets for the first 200 students' }), 'the link, not for "all"');
  await page.getByTestId('key-names').fill(names(203));
  await expectVisible(note.filter({ hasText: '3 more were left out.' }), 'three left out');
  await page.getByTestId('key-names').fill(names(200));
  await expectVisible(offer.getByRole('link', { name: 'Print worksheets for all 200 students' }), 'all 200, none left out');
  assert.equal(await note.count(), 0, 'no note when none was left out');
}

/** A name listed twice is kept once, and the key says which: a teacher
 * who listed 25 and read "all 24 students" had to hunt for it. */
export async function aNameListedTwiceIsSaidToBeKeptOnce({ page, open }) {
  await open('#/lessons/answer-key?class=R12');
  await page.getByTestId('key-names').fill('Ana Souza\nBo Lee\nana  souza');
  const note = page.getByTestId('key-repeated');
  await expectVisible(note, 'the note on the repeated name');
  assert.match(await note.innerText(), /kept once: “ana souza” \(read as “Ana Souza”\)\. One name gets one set of numbers/);
  await page.getByTestId('key-names').fill('Ana Souza\nBo Lee');
  assert.equal(await note.count(), 0, 'no note without a repeat');
}

/** The key printed from the browser's menu before every student's table
 * is drawn says so on its one page (its own Print button waits); once
 * drawn, it prints without the note. */
export async function aKeyPrintedBeforeItIsReadySaysSo({ page, open }) {
  const frames = await holdFrames(page);
  await open('#/lessons/answer-key?class=R12');
  const box = page.getByTestId('key-names');
  await expectVisible(box, 'the names box');
  await frames.hold();
  await box.fill('Ana\nBo\nCy\nDee');
  await page.emulateMedia({ media: 'print' });
  const early = pdfPageTexts(await page.pdf({ format: 'A4' }));
  assert.equal(early.length, 1, `one page: ${early.length}`);
  assert.match(early[0], /Printed before the key was ready \(\d of 4 students\)/);
  await frames.release();
  await page.waitForFunction(() => !document.querySelector('[data-testid="key-print"]')?.disabled, null, { timeout: 20_000 });
  const ready = pdfPageTexts(await page.pdf({ format: 'A4' })).join('\n');
  assert.ok(!ready.includes('Printed before'), 'no note once drawn');
  assert.match(ready, /Dee/, "the last student's table printed");
}
