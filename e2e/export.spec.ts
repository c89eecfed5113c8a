// After an incident, the operator exports the lease's log: one file that names the lease, its
// verdicts with evidence, the operator's destroy and every output line, with no secret in it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactsDir, useConsoleHarness } from './fixtures/harness';

describe('incident export', () => {
  const harness = useConsoleHarness();

  it('exports the incident with every output line, the verdicts and the destroy, and no API key', async () => {
    const { page, provider } = await harness.openWithDrills();
    const leaseId = await page.newLease();
    const leaked = 'sk-leak-e2e0123456789';
    await page.runCommand(leaseId, `for i in $(seq 1 30); do echo out-$i; done; echo err-1 >&2; echo "key ${provider.apiKey} and ${leaked}"`);
    await expect.poll(() => page.tailLines(leaseId), { timeout: 20_000 }).toContain('out-30');
    await page.page.screenshot({ path: join(artifactsDir, 'leases-view.png') });

    await provider.arm({ kind: 'stubborn-tree', sandbox_id: leaseId });
    await page.runCommand(leaseId, "trap '' TERM; sleep 600", { timeoutSeconds: 2 });
    const banner = page.banner(leaseId);
    await banner.waitFor({ timeout: 30_000 });
    await banner.getByRole('button', { name: 'Destroy lease' }).click();
    await expect.poll(async () => page.destroyStatus(leaseId).innerText(), { timeout: 60_000 }).toMatch(/^Destroyed:/);

    const exported = await page.exportIncidentLog(leaseId, 'json');
    const path = await exported.download.path();
    const text = await readFile(path, 'utf8');
    expect(exported.fileName).toMatch(/\.json$/);
    expect(text).toContain(leaseId);
    expect(text).toContain('Process tree has not exited.');
    expect(text).toContain('destroy lease');
    expect(text).toContain('Destroy confirmed');
    expect(text).not.toContain(provider.apiKey);
    expect(text).not.toContain('sk-leak');
    expect(text).toContain('[REDACTED:');
    const parsed = JSON.parse(text) as { manifest: { algorithm: string }; leases: Array<{ processes: Array<{ stdout: string; stderr: string }> }> };
    expect(parsed.manifest.algorithm).toBe('sha256');
    const stdout = parsed.leases.flatMap((l) => l.processes.map((p) => p.stdout)).join('');
    const stderr = parsed.leases.flatMap((l) => l.processes.map((p) => p.stderr)).join('');
    const lines = stdout.split('\n');
    for (let i = 1; i <= 30; i += 1) expect(lines).toContain(`out-${i}`);
    expect(stderr.split('\n')).toContain('err-1');
  });
});
