// Helpers for tests that answer exercises: read a card's numbers and work
// out the answer, as a student would. (Not a test file: the runner runs
// only *.test.mjs.)

import assert from 'node:assert/strict';

/** The numbers in the "threads busy" exercise's prompt, and its answer. */
export async function threadsBusy(page) {
  const card = page.locator('#ex-threads-busy');
  const prompt = await card.locator('.exercise__prompt').textContent();
  const m = prompt.match(/gets ([\d,]+) requests per second\. Each request uses (\d+)\s+ms of CPU and waits (\d+)\s+ms/);
  assert.ok(m, `prompt not as expected: ${prompt}`);
  const [rps, cpu, wait] = m.slice(1).map((x) => Number(x.replace(/,/g, '')));
  // The CPU time alone, one decimal as asked: a slip the checker names.
  const cpuAlone = Math.round((rps * cpu) / 100) / 10;
  return { card, prompt, answer: (rps * (cpu + wait)) / 1000, cpuAlone };
}
