// The playground as a teacher uses it: keys that keep working after a
// click, presenter mode that fits a 720p projector with the key sliders at
// hand, and a printout with the whole scenario and no buttons.

import assert from 'node:assert/strict';
import { expectVisible } from './harness.mjs';

const byTestId = (page, id) => page.locator(`[data-testid="${id}"]`);
const state = (page) => byTestId(page, 'run-status').getAttribute('data-state');

async function waitState(page, want) {
  await page.waitForFunction((w) => document.querySelector('[data-testid="run-status"]').dataset.state === w, want, {
    timeout: 5_000,
  });
}

export async function shortcutsKeepWorkingAfterAButtonWasClicked({ page, open }) {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await open('#/playground');
  await expectVisible(byTestId(page, 'tellers-canvas'), 'the tellers');
  // A click on Restart leaves the focus on it; Space then plays and pauses.
  await byTestId(page, 'restart').click();
  await page.keyboard.press('Space');
  await waitState(page, 'playing');
  await page.keyboard.press('Space');
  await waitState(page, 'paused');
  // After a click on Full screen, p still switches presenter mode on and off.
  await byTestId(page, 'full-screen').click();
  await page.keyboard.press('p');
  await page.waitForFunction(() => document.querySelector('.playground--presenter'));
  await page.keyboard.press('p');
  await page.waitForFunction(() => !document.querySelector('.playground--presenter'));
  // After a click on Play itself, Space pauses once (not pause-and-play again).
  await byTestId(page, 'play').click();
  await waitState(page, 'playing');
  await page.keyboard.press('Space');
  await page.waitForTimeout(200);
  assert.equal(await state(page), 'paused');
  // In a number box, keys type: p is a letter there, not presenter mode.
  const box = page.locator('.playground__controls [data-field="rps"] input.control__box');
  await box.click();
  await page.keyboard.press('p');
  assert.equal(await page.locator('.playground--presenter').count(), 0);
}

/** WCAG 2.1.4: the single letters (f, p) can be turned off, by a box
 * beside the keys' legend that the browser keeps; Space and → still work,
 * and a kept value that is not "0" (edited by hand) leaves them on. */
export async function theLetterKeysCanBeTurnedOffAndStayOff({ page, open }) {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await open('#/playground');
  await expectVisible(byTestId(page, 'tellers-canvas'), 'the tellers');
  const letters = page.getByRole('checkbox', { name: 'Letter keys (f, p)', exact: true });
  await expectVisible(letters, 'the letter keys box beside the legend');
  assert.ok(await letters.isChecked(), 'on at first');
  const legend = page.locator('.playground__keys');
  assert.match(await legend.innerText(), /p presenter mode\./);
  await letters.uncheck();
  assert.equal(await page.evaluate(() => localStorage.getItem('tellers.letter-keys')), '0');
  assert.ok(await letters.evaluate((e) => e === document.activeElement), 'the box keeps the focus');
  // The legend lists only the keys that act.
  assert.match(await legend.innerText(), /^Keys: Space play or pause, → one event\.\s+Letter keys \(f, p\)$/);
  // After a click on Play (a classroom's way), f and p do nothing.
  const presenting = () => page.locator('.playground--presenter').count();
  await byTestId(page, 'play').click();
  await waitState(page, 'playing');
  await page.keyboard.press('p');
  await page.keyboard.press('f');
  await page.waitForTimeout(300);
  assert.equal(await presenting(), 0, 'p is off');
  assert.equal(await page.evaluate(() => document.fullscreenElement), null, 'f is off');
  // Space and → still work.
  await page.keyboard.press('Space');
  await waitState(page, 'paused');
  // → steps one event: the scene's summary changes within a few (not
  // every event changes what it counts, and where the run was paused
  // depends on the machine's speed).
  const summary = byTestId(page, 'tellers-summary');
  const before = await summary.textContent();
  let moved = false;
  for (let i = 0; i < 40 && !moved; i += 1) {
    await page.keyboard.press('ArrowRight');
    moved = await page
      .waitForFunction((b) => document.querySelector('[data-testid="tellers-summary"]').textContent !== b, before, { timeout: 250 })
      .then(() => true, () => false);
  }
  assert.ok(moved, '→ steps the run with the letter keys off');
  // Kept: after a reload the box is unticked, and p still does nothing.
  await page.reload();
  await expectVisible(byTestId(page, 'tellers-canvas'), 'the tellers after a reload');
  assert.equal(await letters.isChecked(), false, 'still off after a reload');
  await page.keyboard.press('p');
  await page.waitForTimeout(300);
  assert.equal(await presenting(), 0, 'p is still off');
  // Ticked again, p works again.
  await letters.check();
  assert.equal(await page.evaluate(() => localStorage.getItem('tellers.letter-keys')), '1');
  assert.match(await legend.innerText(), /f full screen, p presenter mode\./);
  const presenterIs = (on, what) =>
    page
      .waitForFunction((want) => !!document.querySelector('.playground--presenter') === want, on)
      .catch((e) => assert.fail(`${what}: ${e.message}`));
  await page.keyboard.press('p');
  await presenterIs(true, 'p turned on again presents');
  await page.keyboard.press('p');
  await presenterIs(false, 'p again leaves presenter mode');
  // The link is written a few times a second, not on every change: wait
  // until it says presenter mode is off, or the reload below opens in it
  // (and presenter mode hides the box).
  await page
    .waitForFunction(() => !location.hash.includes('presenter=1'))
    .catch((e) => assert.fail(`the link still says presenter mode: ${e.message}`));
  // Anything kept but "0" leaves them on.
  await page.evaluate(() => localStorage.setItem('tellers.letter-keys', '{"garbled'));
  await page.reload();
  await expectVisible(letters, 'the box after a reload');
  assert.ok(await letters.isChecked(), 'on when the kept value is not one Tellers writes');
}

/** The part of `locator`'s box inside a window `height` px tall, 0–1. */
async function shareInView(locator, height) {
  const b = await locator.boundingBox();
  if (!b || b.height === 0) return 0;
  return Math.max(0, Math.min(b.y + b.height, height) - Math.max(b.y, 0)) / b.height;
}

/** Whether the preset box is wide enough for `words`, the start of its text. */
function presetBeginsInView(page, words) {
  return byTestId(page, 'presets').evaluate((sel, words) => {
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = getComputedStyle(sel).font;
    return sel.selectedOptions[0].text.startsWith(words) && ctx.measureText(words).width + 40 <= sel.clientWidth;
  }, words);
}

export async function aProjectorAt1024x768ShowsTheHeadingAndTheWholeScene({ page, open, screenshot }) {
  await page.setViewportSize({ width: 1024, height: 768 });
  await open('#/playground?preset=sale-day');
  await expectVisible(byTestId(page, 'tellers-canvas'), 'the tellers');
  // The lead beside the heading keeps a readable column (it was 88 px, a
  // word a line, with the preset box over the heading).
  const lead = await page.locator('.playground__lead').boundingBox();
  assert.ok(lead.width >= 300, `the lead is ${lead.width} px wide`);
  const title = await page.locator('#playground-title').boundingBox();
  const tools = await page.locator('.playground__tools').boundingBox();
  // Beside it or, where the preset menu needs the width, under it.
  const clear = title.x + title.width <= tools.x || title.y + title.height <= tools.y;
  assert.ok(clear, 'the tools stand clear of the heading');
  // Presenter mode: the scene takes the width and is in view whole.
  await byTestId(page, 'presenter').click();
  await page.waitForFunction(() => document.querySelector('.playground--presenter'));
  await page.waitForTimeout(300);
  assert.equal(await shareInView(byTestId(page, 'tellers-canvas'), 768), 1, 'the whole scene is in view at 1024×768');
  assert.ok(await presetBeginsInView(page, 'Sale day: 400 rps'), 'the preset is cut before it says what it is');
  await screenshot('presenter-1024.png', { fullPage: false });
}

export async function presenterModeFitsA720pProjector({ page, open, screenshot }) {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open('#/playground?presenter=1&threads=20&rps=180&duration_s=30');
  await expectVisible(byTestId(page, 'tellers-canvas'), 'the tellers');
  await byTestId(page, 'presets').selectOption('sale-day');
  // Plays by itself; past the warm-up the verdict names the limit.
  await page.waitForFunction(() => document.querySelector('[data-sign="pool-limit"]'), null, { timeout: 12_000 });
  assert.equal(await page.locator('.site-header').isVisible(), false, 'the site header is hidden');
  assert.equal(await shareInView(byTestId(page, 'tellers-canvas'), 720), 1, 'the whole scene is in view');
  assert.equal(await shareInView(page.locator('.signs h3'), 720), 1, 'the verdict is in view');
  const strip = byTestId(page, 'presenter-strip');
  for (const field of ['rps', 'threads', 'cores']) {
    const box = strip.locator(`[data-field="${field}"] input.control__box`);
    assert.equal(await shareInView(box, 720), 1, `the ${field} box is in view`);
  }
  // The preset box shows what the preset is before it is cut.
  assert.ok(await presetBeginsInView(page, 'Sale day: 400 rps, 4 cores'), 'the preset is cut before it says what it is');
  await screenshot('presenter-720p.png', { fullPage: false });
  // The run's four charts sit two by two (a row of three left one alone).
  const charts = await page.locator('.series-grid canvas').evaluateAll((cs) => cs.map((c) => Math.round(c.getBoundingClientRect().left)));
  assert.equal(charts.length, 4);
  assert.equal(new Set(charts).size, 2, `the charts' columns start at ${charts.join(', ')} px`);
  // A slider in the strip changes the run live.
  // Type sizes at 720p, to compare with 1080p's below.
  const sizes = () =>
    page.evaluate(() =>
      ['.figures td', '.presenter-strip .control__label', '.run-controls .button', '.signs'].map((sel) =>
        parseFloat(getComputedStyle(document.querySelector(sel)).fontSize),
      ),
    );
  const at720 = await sizes();
  const rps = strip.locator('[data-field="rps"] input.control__box');
  await rps.fill('250');
  await rps.press('Enter');
  await page.waitForFunction(() => location.hash.includes('rps=250'));
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.waitForTimeout(600);
  assert.equal(await shareInView(page.locator('.signs'), 1080), 1, 'the verdict is in view at 1080p');
  // Everything grows on the bigger projector, the figures and the key
  // sliders too (they are sized in rem).
  const at1080 = await sizes();
  at1080.forEach((px, i) => assert.ok(px >= 1.15 * at720[i], `type ${i}: ${at720[i]} px at 720p, ${px} px at 1080p`));
  await screenshot('presenter-1080p.png', { fullPage: false });
  // The spike's strip offers what the preset is about, its timeout and
  // retries (it offered the pool, the cores and the wait), and a slider
  // moved to 0 stays under the teacher's pointer.
  await page.setViewportSize({ width: 1280, height: 720 });
  await byTestId(page, 'presets').selectOption('spike-metastable');
  await strip.locator('[data-field="retries"]').waitFor();
  for (const field of ['timeout_ms', 'retries']) {
    assert.equal(await shareInView(strip.locator(`[data-field="${field}"]`), 720), 1, `the ${field} control is in view`);
  }
  assert.equal(await shareInView(byTestId(page, 'tellers-canvas'), 720), 1, 'the whole scene is in view with the spike');
  const retries = strip.locator('[data-field="retries"] input.control__box');
  const before = await page.evaluate(() => location.hash);
  await retries.fill('0');
  await retries.press('Enter');
  await page.waitForFunction((h) => location.hash !== h, before);
  await page.waitForTimeout(300);
  assert.equal(await strip.locator('[data-field="retries"]').count(), 1, 'the retries slider stays at 0');
  await screenshot('presenter-720p-spike.png', { fullPage: false });
}

/**
 * A lesson's simulation in presenter mode fits a 720p projector from its
 * sliders down: the scene and its figures side by side, the sliders in one
 * row without their range notes (lesson 3's first simulation took 1,291 px,
 * its two sliders the top 460 px, the scene cut off below).
 */
export async function aLessonsSimulationFitsA720pProjectorInPresenterMode({ page, open, screenshot }) {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open('#/lessons/thread-pools?presenter=1');
  const widget = page.getByTestId('lesson-sim').first();
  await widget.getByTestId('run-to-end').click();
  await widget.locator('[data-testid="run-status"][data-state="ended"]').waitFor({ timeout: 20_000 });
  await widget.locator('.controls').evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(300);
  assert.equal(await shareInView(widget.locator('canvas').first(), 720), 1, 'the whole scene is in view');
  assert.equal(await shareInView(widget.locator('.figures').first(), 720), 1, 'its figures are in view');
  // Beside its figures, the scene keeps the 700 px its three columns need;
  // on a narrower projector it stands above them, as wide as the lesson.
  const sceneWidth = () => widget.locator('canvas').first().evaluate((c) => c.getBoundingClientRect().width);
  assert.ok((await sceneWidth()) >= 700, `the scene ${await sceneWidth()} px wide at 1280 px`);
  for (const field of ['rps', 'threads']) {
    assert.equal(await shareInView(widget.locator(`[data-field="${field}"] input.control__box`), 720), 1, `the ${field} box`);
  }
  await screenshot('lesson-presenter-720p.png', { fullPage: false });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.waitForTimeout(400);
  assert.ok((await sceneWidth()) >= 700, `the scene ${await sceneWidth()} px wide at 1024 px`);
}

export async function printingThePlaygroundKeepsTheScenarioWholeWithoutButtons({ page, open, screenshot }) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ reducedMotion: 'reduce', media: 'print' });
  await open('#/playground?rps=180&threads=30');
  await expectVisible(byTestId(page, 'tellers-canvas'), 'the tellers');
  await page.waitForTimeout(300);
  const panel = page.locator('.playground__controls');
  const cut = await panel.evaluate((el) => {
    const cs = getComputedStyle(el);
    return { position: cs.position, clipped: el.scrollHeight - el.clientHeight };
  });
  assert.equal(cut.position, 'static', 'the scenario panel is not sticky on paper');
  assert.ok(cut.clipped <= 1, `the scenario panel cuts ${cut.clipped} px`);
  for (const field of ['wait_ms', 'rps', 'duration_s']) {
    await expectVisible(panel.locator(`[data-field="${field}"] input.control__box`), `${field} on paper`);
  }
  assert.equal(await panel.locator('[data-field="rps"] input.control__box').inputValue(), '180');
  for (const id of ['play', 'step', 'restart', 'run-to-end', 'copy-link', 'presenter']) {
    assert.equal(await byTestId(page, id).isVisible(), false, `the ${id} button is printed`);
  }
  assert.equal(await page.locator('.playground__controls input[type="range"]').first().isVisible(), false);
  await screenshot('playground-print.png');
}
