// A class's worksheets in one print, as a teacher gets them: from the
// answer key, with one lesson picked, "Print worksheets for all N
// students" opens a page in a new tab with each student's worksheet (their
// name, their own numbers), each starting on a new printed page. A link
// that was cut or edited says what is wrong.

import assert from 'node:assert/strict';
import { expectAccessible, expectVisible, holdFrames, pdfPageTexts, screenshot } from './harness.mjs';

/** Pages in a PDF made by Chromium. */
function pdfPages(pdf) {
  return (pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? []).length;
}

const ANA = 'Ana';
// Escaped on the page, or the worksheet would read "Numbers for Bo  in class".
const BO = 'Bo <Lee>';

export async function aTeacherPrintsTheWorksheetsOfTheWholeClassAtOnce({ page, open }) {
  // R12 is an old plain class code: its key opens without a teacher key.
  await open('#/lessons/answer-key?class=R12');
  await page.getByTestId('key-names').fill(`${ANA}\n${BO}`);
  const offer = page.getByTestId('key-class-worksheets');
  await expectVisible(offer, 'the offer of the class worksheets');
  assert.equal(
    (await offer.textContent()).trim(),
    'To print worksheets for all 2 students, pick one lesson.',
    'with every lesson shown, a line saying to pick one',
  );
  assert.equal(await offer.getByRole('link').count(), 0);

  // One lesson, with the questions: each student's numbers, from the key.
  await page.getByTestId('key-lesson').selectOption({ label: "4. Little's law" });
  await page.getByTestId('key-questions').check();
  const question = async (who) => {
    const student = page.locator('.key__student').filter({ has: page.getByRole('heading', { level: 2, name: who }) });
    const cell = student.locator('tr[data-exercise="threads-busy"] td').first();
    await expectVisible(cell, `${who}'s question in the key`);
    return (await cell.textContent()).trim();
  };
  const anaQuestion = await question(ANA);
  const boQuestion = await question(BO);
  assert.match(anaQuestion, /requests per second/);
  assert.notEqual(anaQuestion, boQuestion, 'two students, two sets of numbers');

  const link = offer.getByRole('link', { name: 'Print worksheets for all 2 students' });
  await expectVisible(link, 'the link');
  assert.equal(await link.getAttribute('target'), '_blank', 'opens beside the key, which stays unlocked');
  const [sheetsPage] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  const errors = [];
  sheetsPage.on('pageerror', (e) => errors.push(e.message));
  sheetsPage.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await sheetsPage.waitForLoadState('load');
  assert.match(sheetsPage.url(), /#\/lessons\/worksheets\/littles-law\?class=R12&name=Ana&name=Bo%20%3CLee%3E$/);

  const printButton = sheetsPage.getByRole('button', { name: 'Print the 2 worksheets' });
  await expectVisible(printButton, 'the print button');
  await sheetsPage.waitForFunction(
    () => !document.querySelector('[data-testid="class-worksheets-print"]')?.disabled,
    null,
    { timeout: 10_000 },
  );
  await expectVisible(sheetsPage.getByRole('heading', { level: 1, name: "Worksheets: Little's law" }), 'the heading');
  const sheets = sheetsPage.getByTestId('class-worksheet');
  assert.equal(await sheets.count(), 2, 'a worksheet a student');
  const [anaSheet, boSheet] = await sheets.allTextContents();
  assert.match(anaSheet, /Numbers for Ana in class R12\./);
  assert.ok(anaSheet.includes('Name: Ana'), 'her name on her sheet');
  assert.ok(boSheet.includes(`Numbers for ${BO} in class R12.`), `in the list's order, the name as typed: ${boSheet.slice(0, 300)}`);
  assert.ok(anaSheet.includes(anaQuestion), "Ana's sheet has Ana's numbers");
  assert.ok(!anaSheet.includes(boQuestion), "and not Bo's");
  assert.ok(boSheet.includes(boQuestion), "Bo's sheet has Bo's numbers");
  assert.ok(!boSheet.includes(anaQuestion), "and not Ana's");
  assert.ok(!/Hint|Worked solution|Correct\./.test(anaSheet + boSheet), 'no hints, solutions or answers');
  const items = await sheetsPage.getByTestId('worksheet-item').count();
  assert.ok(items > 0 && items % 2 === 0, `the same exercises on both sheets (${items} items)`);
  await expectAccessible(sheetsPage);

  // Printed: the buttons hidden, each sheet on pages of its own, and each
  // page headed by whose it is (a second page picked up from the printer
  // apart from the first still says so).
  await sheetsPage.emulateMedia({ media: 'print' });
  assert.ok(!(await printButton.isVisible()), 'no buttons on paper');
  await screenshot(sheetsPage, 'class-worksheets-print.png');
  const classPdf = await sheetsPage.pdf({ format: 'A4' });
  const classPages = pdfPages(classPdf);
  const heads = pdfPageTexts(classPdf).map((t) => {
    const [head] = t.split('\n').map((l) => l.trim()).filter(Boolean);
    return head;
  });
  assert.equal(heads.length, classPages);
  const anaHead = 'Ana \u00b7 class R12 \u00b7 Lesson 4 worksheet';
  const boHead = `${BO} \u00b7 class R12 \u00b7 Lesson 4 worksheet`;
  const anaPages = heads.filter((h) => h === anaHead).length;
  assert.ok(anaPages >= 1, `Ana's sheet comes first: ${heads.join(' | ')}`);
  assert.deepEqual(
    heads,
    [...Array(anaPages).fill(anaHead), ...Array(classPages - anaPages).fill(boHead)],
    "each page headed by its student's name, Ana's pages, then Bo's",
  );
  // Each student's own worksheet, printed alone: the class's print takes
  // no more pages than the two together, and at least one each.
  const single = async (name) => {
    await sheetsPage.goto(
      new URL(`#/lessons/worksheet/littles-law?class=R12&name=${encodeURIComponent(name)}`, sheetsPage.url()).href,
    );
    await expectVisible(sheetsPage.getByTestId('worksheet'), `${name}'s own worksheet`);
    const pdf = await sheetsPage.pdf({ format: 'A4' });
    for (const t of pdfPageTexts(pdf)) {
      assert.equal(t.trim().split('\n')[0].trim(), `${name} \u00b7 class R12 \u00b7 Lesson 4 worksheet`, 'whose, on each page');
    }
    return pdfPages(pdf);
  };
  const apart = (await single(ANA)) + (await single(BO));
  assert.ok(classPages >= 2 && classPages <= apart, `the class prints on ${classPages} A4 pages; alone, ${apart}`);
  assert.deepEqual(errors, [], 'the worksheets page logged errors');
  await sheetsPage.close();
}

export async function aCutOrEditedClassWorksheetsLinkSaysWhatIsWrong({ page, open }) {
  const problem = page.getByTestId('class-worksheets-error');
  await open('#/lessons/worksheets/littles-law?class=R12');
  await expectVisible(problem, 'the problem');
  await expectVisible(page.getByRole('heading', { level: 1, name: 'No worksheets to print' }), 'its heading');
  assert.match(await problem.textContent(), /This link lists no students, so there is nothing to print\./);
  assert.equal(await page.getByTestId('class-worksheet').count(), 0);

  await open('#/lessons/worksheets/thread-pool?name=Ana');
  await expectVisible(problem.filter({ hasText: 'thread-pool' }), 'the problem with the edited link');
  assert.match(
    await problem.textContent(),
    /This link names a lesson \u201cthread-pool\u201d that is not in this course and names no class,/,
  );
  await expectAccessible(page);

  // A class code edited by hand prints other numbers than the class's: the
  // page says so, as the results page does.
  await open('#/lessons/worksheets/littles-law?class=7dxfnyjr&name=Ana');
  const note = page.getByTestId('class-worksheets-code-note');
  await expectVisible(note, 'the note on the class code');
  assert.match(await note.textContent(), /Did you mean 7DXF-NYJR\?/);
  await open('#/lessons/worksheets/littles-law?class=7DXF-NYJR&name=Ana');
  await expectVisible(page.getByTestId('class-worksheets'), 'the worksheets');
  assert.equal(await page.getByTestId('class-worksheets-code-note').count(), 0, 'no note for a code as Tellers made it');
}

/**
 * A student's worksheet link says what it did not read: a name with no
 * class printed this browser's own numbers, and a second name printed the
 * first student's alone, both without a word. The note is not printed.
 */
export async function aWorksheetLinkSaysWhatItDidNotRead({ page, open }) {
  const note = page.getByTestId('link-ignored');
  await open('#/lessons/worksheet/littles-law?name=Ana');
  await expectVisible(note, 'the note on the name without a class');
  assert.match(await note.textContent(), /gives a name but no class code, so it was ignored/);
  await open('#/lessons/worksheet/littles-law?class=R12&name=Ana&name=Bo');
  await expectVisible(note.filter({ hasText: 'name 2 times' }), 'the note on two names');
  assert.match(await note.textContent(), /printed from the teacher's answer key/);
  assert.match(await page.getByTestId('worksheet').textContent(), /Ana \u00b7 class R12/);
  await page.emulateMedia({ media: 'print' });
  assert.equal(await note.isVisible(), false, 'the note is not on paper');
  await page.emulateMedia({ media: 'screen' });
  await open('#/lessons/worksheet/littles-law?class=R12&name=Ana');
  await expectVisible(page.getByTestId('worksheet'), 'the worksheet');
  assert.equal(await note.count(), 0, 'no note for a clean link');
  assert.equal(await page.getByTestId('worksheet-code-note').count(), 0, 'nor for a code chosen by hand');
  // A Tellers code without its hyphen gives other numbers: said on screen.
  await open('#/lessons/teacher');
  await page.getByRole('button', { name: 'Create a class' }).click();
  const code = (await page.getByTestId('new-class-code').textContent()).trim();
  await open(`#/lessons/worksheet/littles-law?class=${code.replace('-', '')}&name=Ana`);
  const codeNote = page.getByTestId('worksheet-code-note');
  await expectVisible(codeNote, 'the note on the code');
  assert.ok((await codeNote.textContent()).includes(`Did you mean ${code}?`));
}

/** Printed from the browser's menu before the page has made every sheet
 * (its own Print button waits), the paper carries no sheets and says
 * why: a class of 24 printed 16 sheets with nothing to say so. Once
 * ready, the sheets print and the note does not. */
export async function worksheetsPrintedBeforeTheyAreReadySaySo({ page, open }) {
  const frames = await holdFrames(page);
  // 200 sheets, four a frame: the page is held unready well before the
  // fiftieth frame.
  const names = Array.from({ length: 200 }, (_, i) => `name=Student%20${i + 1}`).join('&');
  await open(`#/lessons/worksheets/littles-law?class=R12&${names}`);
  const sheets = page.getByTestId('class-worksheets');
  await expectVisible(sheets, 'the worksheets');
  await frames.hold();
  await page.emulateMedia({ media: 'print' });
  assert.ok(await sheets.evaluate((e) => e.classList.contains('unready')), 'unready while frames are held');
  const early = pdfPageTexts(await page.pdf({ format: 'A4' }));
  assert.equal(early.length, 1, `one page: ${early.length}`);
  assert.match(early[0], /Printed before the worksheets were ready \(\d+ of 200 students\)/);
  assert.ok(!early[0].includes('Student 1 '), 'no sheet on it');
  await frames.release();
  await page.waitForFunction(
    () => !document.querySelector('[data-testid="class-worksheets-print"]')?.disabled,
    null,
    { timeout: 30_000 },
  );
  // Ready: on paper the note is gone and the sheets are there (the test
  // above prints a whole class's sheets and reads each page's head).
  const printed = await sheets.evaluate((e) => ({
    note: getComputedStyle(e.querySelector('[data-testid="class-worksheets-unready"]')).display,
    sheet: getComputedStyle(e.querySelector('[data-testid="class-worksheet"]').parentElement).display,
  }));
  assert.deepEqual(printed, { note: 'none', sheet: 'block' }, 'ready, on paper');
}
