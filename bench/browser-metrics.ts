// Measures what the operator feels in Chromium: frame times (requestAnimationFrame deltas) and the
// renderer's JS heap (CDP Runtime.getHeapUsage).
import type { Page } from 'playwright-core';

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

// Page-side code is a string: functions compiled by tsx carry helpers the page does not have.
const frameSampler = `(duration) => new Promise((resolve) => {
  const deltas = [];
  let last = performance.now();
  const end = last + duration;
  const tick = (now) => {
    deltas.push(now - last);
    last = now;
    if (now < end) requestAnimationFrame(tick); else resolve(deltas);
  };
  requestAnimationFrame(tick);
})`;

/** Records frame deltas in the page for `ms` milliseconds and returns them. */
export async function sampleFrames(page: Page, ms: number): Promise<number[]> {
  return page.evaluate(`(${frameSampler})(${ms})`);
}

export async function heapUsedMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const usage = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usage.usedSize / 1e6;
}
