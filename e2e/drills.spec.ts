// Operator journeys through real faults on createos-local: dropped streams, stubborn process trees,
// lost create replies, and a console killed with SIGKILL.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSandboxProcesses } from '../createos-local/process-table';
import { artifactsDir, useConsoleHarness } from './fixtures/harness';

const stubbornScript = "trap '' TERM; setsid bash -c \"trap '' TERM; sleep 600\" & sleep 600";

describe('drills', () => {
  const harness = useConsoleHarness();

  it('a dropped stream reconnects and the output continues with nothing lost', async () => {
    const { page, provider } = await harness.openWithDrills();
    const leaseId = await page.newLease();
    await provider.arm({ kind: 'drop-stream', sandbox_id: leaseId, after_frames: 3, times: 2 });
    await page.runCommand(leaseId, 'for i in $(seq 1 40); do echo line-$i; sleep 0.05; done');
    const expected = Array.from({ length: 40 }, (_, i) => `line-${i + 1}`);
    await expect.poll(() => page.tailLines(leaseId), { timeout: 30_000 }).toEqual(expected);
    await expect(page.processStreamCell(leaseId)).resolves.toMatch(/Reconnects 2/);
  });

  it('a stubborn tree raises the banner; one click destroys it, with proof, and the OS shows nothing left', async () => {
    const { page, provider } = await harness.openWithDrills();
    const leaseId = await page.newLease();
    await provider.arm({ kind: 'stubborn-tree', sandbox_id: leaseId });
    await page.runCommand(leaseId, stubbornScript, { timeoutSeconds: 2 });
    const banner = page.banner(leaseId);
    await banner.waitFor({ timeout: 30_000 });
    expect(await banner.innerText()).toContain('Process tree has not exited.');
    expect((await findSandboxProcesses(leaseId)).length).toBeGreaterThan(0);
    await page.screenshot(join(artifactsDir, 'containment-banner.png'));

    await banner.getByRole('button', { name: 'Destroy lease' }).click();
    await expect.poll(async () => page.destroyStatus(leaseId).innerText(), { timeout: 60_000 }).toMatch(/^Destroyed: sandbox gone at \d\d:\d\d:\d\d.*no process remains/);
    await page.banner(leaseId).waitFor({ state: 'detached' });
    expect(await findSandboxProcesses(leaseId)).toEqual([]);
  });

  it('a lost create reply raises the banner, and destroy reaps the orphan', async () => {
    const { page, provider } = await harness.openWithDrills();
    const leaseId = await page.newLease();
    await provider.arm({ kind: 'lose-create-reply', sandbox_id: leaseId, times: 1 });
    await page.startCommand(leaseId, 'sleep 600');
    const banner = page.banner(leaseId);
    await banner.waitFor({ timeout: 30_000 });
    expect(await banner.innerText()).toContain('creation could not be confirmed');
    await expect.poll(async () => (await findSandboxProcesses(leaseId)).length, { timeout: 10_000 }).toBeGreaterThan(0);
    await banner.getByRole('button', { name: 'Destroy lease' }).click();
    await expect.poll(async () => page.destroyStatus(leaseId).innerText(), { timeout: 60_000 }).toMatch(/^Destroyed:/);
    expect(await findSandboxProcesses(leaseId)).toEqual([]);
  });

  it('an unproven banner survives the console being killed with SIGKILL', async () => {
    const session = await harness.openWithDrills();
    const leaseId = await session.page.newLease();
    await session.provider.arm({ kind: 'stubborn-tree', sandbox_id: leaseId });
    await session.page.runCommand(leaseId, stubbornScript, { timeoutSeconds: 2 });
    await session.page.banner(leaseId).waitFor({ timeout: 30_000 });

    const restarted = await session.restart('SIGKILL');
    const banner = restarted.page.banner(leaseId);
    await banner.waitFor({ timeout: 30_000 });
    expect(await banner.innerText()).toContain('Process tree has not exited.');
    await banner.getByRole('button', { name: 'Destroy lease' }).click();
    await expect.poll(async () => (await findSandboxProcesses(leaseId)).length, { timeout: 60_000 }).toBe(0);
  });
});
