// The route: the app reads the URL's hash in one place and gives each page
// what it needs from it, so every kind of navigation opens the right thing.

import assert from 'node:assert/strict';
import { expectVisible } from './harness.mjs';

const byTestId = (page, id) => page.locator(`[data-testid="${id}"]`);

export async function aScenarioLinkOpenedOnThePlaygroundOpensThatScenario({ page, open }) {
  await open('#/playground?cores=2');
  await expectVisible(byTestId(page, 'share-link'), 'the link box');
  assert.match(await byTestId(page, 'share-link').inputValue(), /cores=2/);
  // The address bar, or a link in a chat, changes only the hash.
  await page.evaluate(() => {
    location.hash = '#/playground?cores=6';
  });
  await page.waitForFunction(() => document.querySelector('[data-testid="share-link"]')?.value.includes('cores=6'));
}

export async function backAndForwardFollowTheHash({ page, open }) {
  await open('#/lessons');
  await expectVisible(page.locator('.toc__item').first(), 'the contents');
  await page.locator('.toc__link').nth(3).click();
  await expectVisible(page.getByRole('heading', { level: 1, name: "Little's law" }), 'the lesson');
  await page.getByRole('link', { name: 'Playground' }).first().click();
  await expectVisible(byTestId(page, 'tellers-canvas'), 'the playground');
  await page.goBack();
  await expectVisible(page.getByRole('heading', { level: 1, name: "Little's law" }), 'the lesson, back');
  await page.waitForFunction(() => document.title === "Little's law · Lessons · Tellers");
  await page.goBack();
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Lessons' }), 'the contents, back');
  await page.goForward();
  await expectVisible(page.getByRole('heading', { level: 1, name: "Little's law" }), 'the lesson, forward');
}
