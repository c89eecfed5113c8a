// The walking skeleton, end to end: a lease created on the embedded provider, a command run in it,
// its output live on screen, the lease destroyed, and the OS process table showing nothing left.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSandboxProcesses } from '../createos-local/process-table';
import { artifactsDir, useConsoleHarness } from './fixtures/harness';

describe('foundation journey', () => {
  const harness = useConsoleHarness();

  it('creates a lease, shows live output, destroys it, and nothing of it remains', async () => {
    const { page } = await harness.open();
    const leaseId = await page.newLease();
    await expect.poll(() => page.leaseIds()).toContain(leaseId);

    await page.runCommand(leaseId, "printf 'a\\nb\\nc\\n'");
    await expect.poll(() => page.tailLines(leaseId), { timeout: 20_000 }).toEqual(['a', 'b', 'c']);
    await expect.poll(() => page.processStateCell(leaseId), { timeout: 20_000 }).toMatch(/exited/);
    await page.screenshot(join(artifactsDir, 'foundation-tail.png'));

    await page.runCommand(leaseId, 'sleep 300 & sleep 300');
    await expect.poll(async () => (await findSandboxProcesses(leaseId)).length, { timeout: 20_000 }).toBeGreaterThan(0);

    await page.destroyLease(leaseId, 'e2e: end of journey');
    await expect.poll(async () => (await page.destroyStatus(leaseId).innerText()), { timeout: 60_000 }).toMatch(/^Destroyed: sandbox gone at \d\d:\d\d:\d\d/);
    expect(await findSandboxProcesses(leaseId)).toEqual([]);
  });

  it('wraps a long output line on demand instead of scrolling sideways', async () => {
    const { page } = await harness.open();
    const leaseId = await page.newLease();
    await page.runCommand(leaseId, "printf 'start\\n'; printf 'x%.0s' $(seq 600); printf '\\nend\\n'");
    await expect.poll(() => page.tailLines(leaseId), { timeout: 20_000 }).toEqual(['start', 'x'.repeat(600), 'end']);
    const unwrapped = await page.tailLayout(leaseId);
    expect(unwrapped.scrollsSideways).toBe(true);
    expect(new Set(unwrapped.rows.map((row) => Math.round(row.height)))).toEqual(new Set([18]));

    await page.setWrapLines(leaseId, true);
    await expect.poll(async () => (await page.tailLayout(leaseId)).rows[1]?.height ?? 0).toBeGreaterThan(3 * 18);
    const wrapped = await page.tailLayout(leaseId);
    expect(wrapped.scrollsSideways).toBe(false);
    // Rows stack without overlapping: each starts where the one before it ends.
    wrapped.rows.slice(1).forEach((row, index) => {
      const above = wrapped.rows[index];
      expect(row.top).toBeCloseTo((above?.top ?? 0) + (above?.height ?? 0), 0);
    });
    expect(await page.tailLines(leaseId)).toEqual(['start', 'x'.repeat(600), 'end']);
    await page.screenshot(join(artifactsDir, 'tail-wrapped.png'));
  });

  it('refuses the console without the token', async () => {
    const { console: consoleProcess } = await harness.open();
    const response = await fetch(`${consoleProcess.origin}/`);
    expect(response.status).toBe(401);
    const foreignHost = await fetch(`${consoleProcess.origin}/?token=x`, { headers: { host: 'evil.example' } });
    expect(foreignHost.status).not.toBe(200);
  });
});
