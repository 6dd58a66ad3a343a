// The home page and the navigation shell.

import assert from 'node:assert/strict';
import { expectAccessible, expectVisible } from './harness.mjs';

const nav = (page) => page.getByRole('navigation', { name: 'Main' });

export async function homeShowsTheNameWelcomeAndNavigation({ page, open, screenshot }) {
  await open('');
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Tellers', exact: true }), 'the heading "Tellers"');
  await expectVisible(page.getByText('Move the sliders for cores'), 'the welcome paragraph');
  await expectVisible(nav(page).getByRole('link', { name: 'Playground', exact: true }), 'the Playground link');
  await expectVisible(nav(page).getByRole('link', { name: 'Lessons', exact: true }), 'the Lessons link');
  assert.equal(await page.title(), 'Tellers');
  await screenshot('home.png');
  await expectAccessible(page);
  // A teacher finds the class tools from here (they were only linked below
  // all seventeen lessons).
  await page.getByRole('link', { name: 'Run a class with Tellers' }).click();
  await page.waitForFunction(() => location.hash === '#/lessons/teacher');
}

export async function playgroundLinkOpensThePlayground({ page, open, screenshot }) {
  await open('');
  const link = nav(page).getByRole('link', { name: 'Playground', exact: true });
  await link.click();
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Playground' }), 'the Playground heading');
  assert.match(page.url(), /#\/playground/);
  assert.equal(await link.getAttribute('aria-current'), 'page');
  assert.equal(await page.title(), 'Playground · Tellers');
  await screenshot('playground.png');

  await page.goBack();
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Tellers', exact: true }), 'the home page after Back');
  assert.equal(await link.getAttribute('aria-current'), null);
}

export async function lessonsOpenFromASharedLink({ page, open }) {
  await open('#/lessons');
  const link = nav(page).getByRole('link', { name: 'Lessons', exact: true });
  await expectVisible(page.getByRole('heading', { level: 1 }), 'a page heading');
  assert.equal(await link.getAttribute('aria-current'), 'page');
  await expectAccessible(page);
}

export async function unknownAddressSaysPageNotFound({ page, open }) {
  await open('#/no-such-page');
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Page not found' }), 'the not-found heading');
  await page.getByRole('link', { name: 'Back to the welcome page' }).click();
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Tellers', exact: true }), 'the home page');
}

export async function homeIsReadableInDarkMode({ page, open, screenshot }) {
  await page.emulateMedia({ colorScheme: 'dark' });
  await open('');
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Tellers', exact: true }), 'the heading "Tellers"');
  await screenshot('home-dark.png');
  await expectAccessible(page);
}

export async function homeFitsAPhoneScreen({ page, open, screenshot }) {
  await page.setViewportSize({ width: 375, height: 740 });
  await open('');
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Tellers', exact: true }), 'the heading "Tellers"');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0, `the page scrolls sideways by ${overflow} px on a 375 px screen`);
  await screenshot('home-phone.png');
}

export async function theLoadingNoteGoesWhenTheAppStarts({ page, open }) {
  await open('');
  await expectVisible(page.getByRole('navigation').first(), 'the navigation');
  assert.equal(await page.locator('#boot').count(), 0, 'the loading note is gone');
}

export async function anAppThatCannotStartSaysSoInsteadOfABlankPage({ page, open, expectConsoleError }) {
  // A proxy that drops the wasm, or a broken deploy.
  await page.route(/\.wasm$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
  expectConsoleError(/status of 404|WebAssembly|wasm/i);
  await open('');
  const boot = page.locator('#boot[role="alert"]');
  await expectVisible(boot, 'the start-up failure notice');
  assert.match(await boot.textContent(), /could not start.*Reload the page/s);
}
