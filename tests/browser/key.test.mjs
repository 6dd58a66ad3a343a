// The teacher's answer key as a teacher prints it for a class: exercises
// by lesson number and title, a filter by lesson, a compact print (a few
// pages for three students, not fifty), and names that differ only by
// their spaces giving one student's numbers.

import assert from 'node:assert/strict';
import { threadsBusy } from './exercises.mjs';
import { expectAccessible, expectVisible } from './harness.mjs';

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 768 };
const HD = { width: 1280, height: 720 };

/** Pages in a PDF made by Chromium. */
function pdfPages(pdf) {
  return (pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? []).length;
}

/** Each student's section: their name and, per lesson table, its caption and rows. */
async function keyContents(page) {
  return page.locator('.key__student').evaluateAll((sections) =>
    sections.map((s) => ({
      name: s.querySelector('h2').textContent,
      lessons: [...s.querySelectorAll('table')].map((t) => ({
        caption: t.caption.textContent,
        rows: [...t.tBodies[0].rows].map((r) => ({
          id: r.dataset.exercise,
          label: r.cells[0].textContent,
          cells: r.cells.length,
          answer: r.querySelector('.key__answer').textContent,
        })),
      })),
    })),
  );
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
