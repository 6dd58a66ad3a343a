// The playground's figures as a learner reads them: never a zero for what
// is not measured yet, a run cut short by a bound says which and what to
// change, approximations say why, and numbers read the same everywhere.

import assert from 'node:assert/strict';
import { expectVisible } from './harness.mjs';

const byTestId = (page, id) => page.locator(`[data-testid="${id}"]`);
const LAPTOP = { width: 1366, height: 768 };

/** The figures and the verdict as plain text, keyed by row. */
function readFigures(page) {
  return page.evaluate(() => {
    const cells = (id) => [...(document.querySelector(`[data-testid="${id}"]`)?.querySelectorAll('td') ?? [])].map((td) => td.textContent.replace(/\u00a0/g, ' '));
    return {
      status: document.querySelector('[data-testid="run-status"]').textContent,
      mean: cells('fig-mean'),
      p50: cells('fig-p50'),
      p99: cells('fig-p99'),
      inside: cells('fig-inside'),
      signs: document.querySelector('[data-testid="signs"]').textContent.replace(/\u00a0/g, ' '),
    };
  });
}

export async function anOverloadedRunShowsMeasuringNeverZeroAfterTheWarmUp({ page, open, screenshot }) {
  // Sale day at 1×: 2 s of warm-up leave a line of about 400 that takes
  // about 2 s more to clear, so for a while nobody measured has finished.
  await page.setViewportSize(LAPTOP);
  await open('#/playground');
  await byTestId(page, 'presets').selectOption('sale-day');
  await page.waitForFunction(() => location.hash.includes('rps=400'));
  const seen = [];
  let measuringShot = false;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const f = await readFigures(page);
    seen.push(f);
    for (const [name, row] of [['mean', f.mean], ['p50', f.p50], ['p99', f.p99]]) {
      assert.notEqual(row[0], '0 ms', `${name} reads 0 ms at "${f.status}"`);
    }
    assert.ok(!/= 0(,|$)/.test(f.inside[1] ?? ''), `λ·W reads ${f.inside[1]} at "${f.status}"`);
    assert.ok(!/mean 0\s+ms/.test(f.signs), `the verdict says "mean 0 ms" at "${f.status}"`);
    if (f.mean[0] === 'measuring…' && !measuringShot) {
      assert.match(f.signs, /Measuring: none of the requests that arrived in the [\d.]+\s+s since the warm-up has finished yet/);
      assert.match(f.signs, /The line already says they are long: [\d,]+ requests wait ahead of the newest/);
      await byTestId(page, 'signs').scrollIntoViewIfNeeded();
      await screenshot('figures-measuring.png', { fullPage: false });
      measuringShot = true;
    }
    if (/^[\d,]+ ms$/.test(f.mean[0])) break;
    assert.ok(Date.now() < deadline, `the mean never showed: ${f.mean[0]} at "${f.status}"`);
    await page.waitForTimeout(80);
  }
  assert.ok(measuringShot, `no sample showed "measuring…": ${seen.map((f) => `${f.status} ${f.mean[0]}`).join('; ')}`);
  const mean = Number(seen.at(-1).mean[0].replace(/[^\d]/g, ''));
  assert.ok(mean > 1000, `the first measured mean is seconds of waiting, not ${mean} ms`);
  // The verdict groups its numbers as the table does ("2,141 ms", not "2141 ms").
  await page.waitForFunction(() => document.querySelector('[data-sign="pool-limit"]'));
  const verdict = await byTestId(page, 'signs').textContent();
  assert.equal(verdict.match(/\d{4,}/), null, `an ungrouped number in the verdict: ${verdict}`);
  // Its numbers keep their units on their line (a no-break space).
  assert.equal(verdict.match(/\d (ms|s|rps|%)(?!\w)/), null, `a unit that may break from its number: ${verdict}`);
  assert.match(verdict, /\d\u00a0(ms|rps|%)/);
  // A sign's title ends with a full stop, not running into its detail.
  assert.match(verdict, /The pool is the limit\. Threads busy: [\d.]+ of \d/);
}

export async function aRunStoppedByABoundSaysWhichAndWhatToChange({ page, open, screenshot }) {
  await page.setViewportSize(LAPTOP);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await open('#/playground?rps=1000000&threads=100000&cores=1024');
  await byTestId(page, 'run-to-end').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="run-status"]').dataset.state === 'ended', null, {
    timeout: 25_000,
  });
  const status = await byTestId(page, 'run-status').textContent();
  assert.match(status, /^The run stopped at [\d.]+ s of 60 s: more than 1,000,000 requests were inside at once/);
  assert.match(status, /1,000,000 requests arrive each second and the server can finish about [\d,]+, so the line grows without limit/);
  assert.match(status, /Lower the arrival rate, give the server more capacity, or set a line limit/);
  assert.doesNotMatch(status, /figures are final/);
  assert.equal(await byTestId(page, 'fig-mean').locator('td').first().textContent(), 'not measured');
  await expectVisible(byTestId(page, 'measuring').filter({ hasText: 'Nothing was measured: the run stopped inside its 6.0 s warm-up.' }), 'why nothing was measured');
  // The cores' heading is one line that ends before the back office column
  // (420 px of the scene to its right), in the scene's own font.
  const summary = await byTestId(page, 'tellers-summary').textContent();
  assert.match(summary, /1,024 of 1,024 cores busy/);
  const width = await page.evaluate(() => {
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = 'bold 17px system-ui, sans-serif';
    return ctx.measureText('Cores: 1,024 of 1,024 busy (32 drawn)').width;
  });
  assert.ok(width < 420, `the cores heading is ${width} px wide`);
  await screenshot('figures-stopped-by-a-bound.png', { fullPage: false });
}

export async function approximateTheorySaysWhyWhereItIsShown({ page, open, screenshot }) {
  // Twenty threads at 150 rps: the p99 takes an exponential tail for the
  // time a thread is held (CPU, then a wait), an approximation.
  await page.setViewportSize(LAPTOP);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await open('#/playground?rps=150');
  await byTestId(page, 'step').click();
  assert.match(await byTestId(page, 'fig-p99').locator('td').nth(1).textContent(), /\(approx\.\)$/);
  // Its reasons are folded under the table (they ran to six to ten
  // lines), a click away.
  const note = byTestId(page, 'approx-note');
  await expectVisible(note, 'the note under the figures');
  const why = note.locator('details p');
  assert.equal(await why.isVisible(), false, 'the reasons folded');
  await note.getByText("Why theory's figures are marked (approx.)").click();
  await expectVisible(why, 'the reasons, opened');
  assert.match(await why.textContent(), /^[A-Z].*p99.*\.$/);
  // M/D/1 (fixed 10 ms jobs): both formulas exact, so no "(approx.)" and
  // no note, in the playground and on lesson 8's curve.
  await byTestId(page, 'presets').selectOption('md1');
  await byTestId(page, 'step').click();
  assert.doesNotMatch(await byTestId(page, 'fig-p99').locator('td').nth(1).textContent(), /approx/);
  assert.equal(await byTestId(page, 'approx-note').count(), 0);
  await open('#/lessons/utilisation-and-response-time');
  await page.waitForFunction(() => document.querySelector('.pager'));
  const md1 = page.locator('.sim-widget[data-view="curve"]').nth(2);
  const caption = md1.getByTestId('curve-approx');
  await caption.scrollIntoViewIfNeeded();
  assert.equal((await caption.textContent()).trim(), '');
  await screenshot('lesson-md1-curve.png', { fullPage: false });
}

export async function smallSlipsAreGone({ page, open }) {
  await page.setViewportSize(LAPTOP);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  // One thread, one core: "1 thread", never "1 threads".
  await open('#/playground?threads=1&cores=1&rps=20');
  const summary = byTestId(page, 'tellers-summary');
  for (let i = 0; i < 30; i += 1) {
    await byTestId(page, 'step').click();
    const text = await summary.textContent();
    assert.doesNotMatch(text, /\b1 (requests|threads|cores)\b/, text);
  }
  assert.match(await summary.textContent(), /, 1 thread,/);
  assert.match(await byTestId(page, 'fig-memory').locator('td').nth(1).textContent(), /^1 thread ×/);
  // The speed slider stops at round speeds: never "3.16×".
  const speed = page.getByLabel('Speed');
  await speed.focus();
  await page.keyboard.press('Home');
  const shown = new Set();
  for (let i = 0; i < 20; i += 1) {
    shown.add(await byTestId(page, 'speed').textContent());
    await page.keyboard.press('ArrowRight');
  }
  for (const s of shown) assert.match(s, /^\d+(\.\d)?×$/, `speed ${s}`);
  assert.ok(shown.has('0.1×') && shown.has('1×') && shown.has('100×'), [...shown].join(' '));
  // The lesson list keeps "70 %" on one line.
  await open('#/lessons');
  await expectVisible(page.locator('.toc__item').first(), 'the contents');
  const summaryText = await page.locator('.toc__summary').nth(7).textContent();
  assert.ok(summaryText.includes('70\u00a0%'), `the number and its % can part: ${summaryText}`);
}

export async function theFiguresFitAPhoneWhileMeasuring({ page, open, screenshot }) {
  await page.setViewportSize({ width: 390, height: 844 });
  await open('#/playground?rps=400&duration_s=20');
  await page.waitForFunction(() => document.querySelector('[data-testid="fig-mean"] td')?.textContent === 'measuring…', null, {
    timeout: 15_000,
  });
  const panel = page.locator('.panel--figures');
  const overflow = await panel.evaluate((el) => el.scrollWidth - el.clientWidth);
  assert.ok(overflow <= 1, `the figures table is ${overflow} px wider than the phone`);
  await byTestId(page, 'signs').scrollIntoViewIfNeeded();
  await screenshot('figures-phone.png', { fullPage: false });
}

export async function whyAFigureIsMissingStaysOnOneLineOnAProjector({ page, open }) {
  // A lesson in presenter mode on a 720p projector: the labels took 480 px
  // and "not run yet" wrapped in the 120 px left to it.
  await page.setViewportSize({ width: 1280, height: 720 });
  await open('#/lessons/littles-law');
  await page.getByTestId('lesson-presenter').click();
  await page.waitForFunction(() => document.querySelector('.lesson--presenter'));
  // Lines of text a cell takes: the distinct tops of its text's boxes.
  const lines = (cell) =>
    cell.evaluate((td) => {
      const range = document.createRange();
      range.selectNodeContents(td);
      return new Set([...range.getClientRects()].map((b) => Math.round(b.top))).size;
    });
  const pending = page.locator('.sim-widget td.figures__pending').first();
  await expectVisible(pending, 'a figure not run yet');
  assert.equal(await pending.textContent(), 'not run yet');
  assert.equal(await lines(pending), 1, '"not run yet" wraps');
  const theory = page.locator('.sim-widget td.figures__theory.muted').first();
  assert.equal(await theory.textContent(), 'after the run');
  assert.equal(await lines(theory), 1, '"after the run" wraps');
}

export async function theSignsAreSaidWhenTheVerdictChangesNotWithEveryFigure({ page, open }) {
  // Half load: a steady verdict whose details (the rate, the CPU) move.
  await open('#/playground?rps=100');
  const heard = page.locator('[data-testid="signs-heard"]');
  await page.waitForFunction(() => /^Reading the signs: /.test(document.querySelector('[data-testid="signs-heard"]')?.textContent ?? ''), null, {
    timeout: 15_000,
  });
  assert.equal(await heard.getAttribute('role'), 'status');
  // The box of details is not itself read out on every change.
  assert.equal(await page.locator('[data-testid="signs"]').getAttribute('aria-live'), null);
  // Count, over 3 s of play, how often each changes.
  const counts = await page.evaluate(
    () =>
      new Promise((done) => {
        const n = { heard: 0, details: 0 };
        const spoken = document.querySelector('[data-testid="signs-heard"]');
        new MutationObserver((records) => {
          for (const r of records) n[spoken.contains(r.target) ? 'heard' : 'details'] += 1;
        }).observe(document.querySelector('[data-testid="signs"]'), { subtree: true, childList: true, characterData: true });
        setTimeout(() => done(n), 3000);
      }),
  );
  assert.ok(counts.details >= 4, `the details changed ${counts.details} times in 3 s: is the run playing?`);
  assert.ok(counts.heard <= 1, `the spoken verdict changed ${counts.heard} times in 3 s (the details ${counts.details})`);
}
