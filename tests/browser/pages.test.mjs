// Each page says what it is to someone who cannot see it: the tab's title
// names the page, and after a change of page focus is on its main heading,
// so a screen reader announces it (not on <body>, which says nothing).

import assert from 'node:assert/strict';
import { expectVisible } from './harness.mjs';

/** Waits for the tab's title; returns what has focus then. */
async function expectTitled(page, title) {
  try {
    await page.waitForFunction((t) => document.title === t, title, { timeout: 10_000 });
  } catch {
    throw new Error(`expected the title "${title}", got "${await page.title()}"`);
  }
  return page.evaluate(() => ({
    tag: document.activeElement.tagName,
    text: document.activeElement.textContent.trim(),
  }));
}

/** After a change of page: the title, and focus on the heading. */
async function expectAnnounced(page, title, heading) {
  await expectTitled(page, title);
  const focused = () =>
    page.evaluate(() => ({ tag: document.activeElement.tagName, text: document.activeElement.textContent.trim() }));
  try {
    await page.waitForFunction(
      (h) => document.activeElement.tagName === 'H1' && document.activeElement.textContent.trim() === h,
      heading,
      { timeout: 10_000 },
    );
  } catch {
    assert.deepEqual(await focused(), { tag: 'H1', text: heading }, `focus after opening "${title}"`);
  }
  assert.equal(await page.title(), title, 'the title names the page whose heading has focus');
}

export async function everyPageHasItsOwnTitleAndFocusGoesToItsHeading({ page, open }) {
  // A link opened from outside: titled, and the browser keeps its focus.
  await open('#/lessons/littles-law');
  await expectTitled(page, "Little's law · Lessons · Tellers");
  await page.getByRole('link', { name: 'Lessons', exact: true }).first().click();
  await expectAnnounced(page, 'Lessons · Tellers', 'Lessons');

  await page.locator('.toc__link').nth(3).click();
  await expectAnnounced(page, "Little's law · Lessons · Tellers", "Little's law");
  await page.getByRole('link', { name: /Next/ }).click();
  await expectVisible(page.locator('.eyebrow', { hasText: 'Lesson 5 of' }), 'the next lesson');
  const fifth = (await page.locator('main h1').textContent()).trim();
  await expectAnnounced(page, `${fifth} · Lessons · Tellers`, fifth);
  await page.getByTestId('worksheet-link').click();
  await expectAnnounced(page, `Worksheet: ${fifth} · Lessons · Tellers`, fifth);

  await page.getByRole('link', { name: 'Playground' }).first().click();
  await expectAnnounced(page, 'Playground · Tellers', 'Playground');
  await page.goBack();
  await expectAnnounced(page, `Worksheet: ${fifth} · Lessons · Tellers`, fifth);

  // The teacher's pages, drawn by their own tools once loaded.
  await page.evaluate(() => {
    location.hash = '#/lessons/teacher';
  });
  await expectAnnounced(page, 'Run a class · Lessons · Tellers', 'Run a class');
  await page.getByRole('link', { name: 'Open the answer key' }).click();
  await expectAnnounced(page, 'Answer key · Lessons · Tellers', 'Answer key');
  // Typing on a page is no change of page: focus stays in the box.
  const box = page.getByTestId('key-class');
  await box.fill('R12');
  await expectVisible(page.getByTestId('key-names'), 'the names box');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'key-class');
  await page.evaluate(() => {
    location.hash = '#/lessons/results';
  });
  await expectAnnounced(page, 'Class results · Lessons · Tellers', 'Class results');

  await page.evaluate(() => {
    location.hash = '#/nowhere';
  });
  await expectAnnounced(page, 'Page not found · Tellers', 'Page not found');
  await page.evaluate(() => {
    location.hash = '#/';
  });
  await expectAnnounced(page, 'Tellers', 'Tellers');
}

/**
 * A page built a part at a time (so no task holds the main thread long)
 * must not jump while it fills in: the footer showed at the bottom of the
 * screen and was then pushed off, the playground's tools pushed its
 * panels 97 px down, and their menu's options re-wrapped the lead (layout
 * shift 0.13 on the playground, 0.06 to 0.08 on a lesson and the lessons'
 * page). Measured as the browser's cumulative layout shift over the load
 * (0.1 is the web's usual "good" bound; this keeps well under it).
 */
export async function pagesDoNotJumpWhileTheyFillIn({ page, open }) {
  await open('');
  const base = new URL(page.url()).origin;
  for (const route of ['#/playground', '#/lessons/littles-law', '#/lessons', '', '#/lessons/teacher']) {
    const p = await page.context().newPage();
    await p.addInitScript(() => {
      window.__shifts = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          if (e.hadRecentInput) continue;
          const what = e.sources.map((s) => `${s.node?.className || s.node?.nodeName || '?'} y ${Math.round(s.previousRect.y)} → ${Math.round(s.currentRect.y)}`);
          window.__shifts.push({ value: e.value, what: what.join(', ') });
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await p.goto(`${base}/${route}`, { waitUntil: 'load' });
    await p.waitForLoadState('networkidle');
    await p.waitForTimeout(1500);
    const shifts = await p.evaluate(() => window.__shifts);
    const total = shifts.reduce((a, s) => a + s.value, 0);
    assert.ok(total < 0.05, `'${route || 'home'}' moved while it loaded: layout shift ${total.toFixed(3)} (${shifts.map((s) => `${s.value.toFixed(3)}: ${s.what}`).join('; ')})`);
    await p.close();
  }
}
