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
    await page.screenshot(join(artifactsDir, 'foundation-tail.png'));

    await page.runCommand(leaseId, 'sleep 300 & sleep 300');
    await expect.poll(async () => (await findSandboxProcesses(leaseId)).length, { timeout: 20_000 }).toBeGreaterThan(0);

    await page.destroyLease(leaseId, 'e2e: end of journey');
    await expect.poll(async () => (await page.destroyStatus(leaseId).innerText()), { timeout: 60_000 }).toMatch(/^Destroyed: sandbox gone at \d\d:\d\d:\d\d/);
    expect(await findSandboxProcesses(leaseId)).toEqual([]);
  });

  it('refuses the console without the token', async () => {
    const { console: consoleProcess } = await harness.open();
    const response = await fetch(`${consoleProcess.origin}/`);
    expect(response.status).toBe(401);
    const foreignHost = await fetch(`${consoleProcess.origin}/?token=x`, { headers: { host: 'evil.example' } });
    expect(foreignHost.status).not.toBe(200);
  });
});
