// Pause and resume through the host against createos-local: processes really stop and continue,
// resume checks the workspace marker, and the guard refuses resume while cleanup is unconfirmed.
import { afterEach, describe, expect, it } from 'vitest';
import { findSandboxProcesses } from '../../../createos-local/process-table';
import { markerPath } from '../leases/lease-lifecycle';
import { contractClient, pollUntil, procStat, SLOW_TEST_MS, startRig, stubbornScript, waitForLease, type Rig } from './support';

let rig: Rig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

describe('pause and resume', () => {
  it('pauses the processes for real, resumes them, and refuses a lease whose marker changed', async () => {
    rig = await startRig();
    const host = await rig.startHost();
    const client = contractClient(host);
    const lease = await client.leases.create({ name: 'lifecycle' });
    await client.processes.run({ leaseId: lease.id, command: 'sleep 600' });
    const leader = await pollUntil('the sleep process', async () => (await findSandboxProcesses(lease.id)).find((p) => p.comm === 'sleep'));

    expect((await client.leases.pause({ leaseId: lease.id })).status).toBe('paused');
    expect((await procStat(leader.pid))?.state).toBe('T');

    const resumed = await client.leases.resume({ leaseId: lease.id });
    expect(resumed).toMatchObject({ resumed: true, expired: null, lease: { status: 'running' } });
    expect((await procStat(leader.pid))?.state).not.toBe('T');

    await client.leases.pause({ leaseId: lease.id });
    await rig.provider.call('POST', `/v1/sandboxes/${lease.id}/resume`);
    const put = await fetch(`${rig.provider.url}/v1/sandboxes/${lease.id}/files?path=${encodeURIComponent(markerPath)}`, {
      method: 'PUT', headers: { 'x-api-key': rig.provider.apiKey, 'content-type': 'application/octet-stream' }, body: '00000000-0000-0000-0000-000000000000',
    });
    expect(put.ok).toBe(true);
    const refused = await client.leases.resume({ leaseId: lease.id });
    expect(refused).toMatchObject({ resumed: false, expired: 'the workspace marker does not match this lease' });
  }, SLOW_TEST_MS);

  it('refuses resume while cleanup is unconfirmed', async () => {
    rig = await startRig();
    const host = await rig.startHost();
    const client = contractClient(host);
    const lease = await client.leases.create({});
    await rig.provider.arm({ kind: 'stubborn-tree', sandbox_id: lease.id });
    await client.processes.run({ leaseId: lease.id, command: stubbornScript(), timeoutSeconds: 1 });
    await waitForLease(host.services, lease.id, 'cleanup unconfirmed', (l) => l.guard === 'unconfirmedCleanup', 30_000);
    await expect(client.leases.resume({ leaseId: lease.id })).rejects.toThrow('CreateOS lease cleanup must finish before resume.');
  }, SLOW_TEST_MS);
});
