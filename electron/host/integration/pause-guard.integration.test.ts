// Pause under the lifecycle guard, against createos-local: refused while process cleanup is
// unconfirmed (the sandbox keeps running, destroy still works), and a destroy takes over a pause.
import { describe, expect, it } from 'vitest';
import type { Host } from '../compose';
import { guardMessages } from '../lifecycle/lifecycle-guard';
import { contractClient, eachTestWithHost, SLOW_TEST_MS, stubbornScript, waitForLease, type Rig } from './support';

let rig: Rig;
let host: Host;

eachTestWithHost((newRig, newHost) => {
  rig = newRig;
  host = newHost;
});

const providerStatus = async (leaseId: string): Promise<string> => (await rig.provider.call<{ status: string }>('GET', `/v1/sandboxes/${leaseId}`)).status;

describe('pause under the lifecycle guard', () => {
  it('refuses to pause a lease whose process cleanup is unconfirmed; the sandbox keeps running and can be destroyed', async () => {
    const client = contractClient(host);
    const lease = await client.leases.create({ name: 'pause-unconfirmed' });
    await rig.provider.arm({ kind: 'stubborn-tree', sandbox_id: lease.id });
    await client.processes.run({ leaseId: lease.id, command: stubbornScript(), timeoutSeconds: 1 });
    await waitForLease(host.services, lease.id, 'cleanup unconfirmed', (l) => l.guard === 'unconfirmedCleanup', 30_000);

    await expect(client.leases.pause({ leaseId: lease.id })).rejects.toThrow(guardMessages.pauseUnconfirmed);
    expect(await providerStatus(lease.id)).toBe('running');
    expect(host.services.leases.get(lease.id)).toMatchObject({ status: 'running', guard: 'unconfirmedCleanup', verdict: { status: 'unproven' } });

    await expect(client.leases.destroy({ leaseId: lease.id, reason: 'unconfirmed cleanup' })).resolves.toMatchObject({ gone: true, verdict: { status: 'contained' } });
  }, SLOW_TEST_MS);

  it('a destroy takes over a pause under way: the pause is aborted, the destroy confirmed', async () => {
    const client = contractClient(host);
    const lease = await client.leases.create({ name: 'pause-then-destroy' });
    await rig.provider.arm({ kind: 'slow', path_prefix: `/v1/sandboxes/${lease.id}/pause`, delay_ms: 30_000, times: 1 });
    const pausing = client.leases.pause({ leaseId: lease.id }).then(() => 'paused', (error: unknown) => (error instanceof Error ? error.message : String(error)));
    await waitForLease(host.services, lease.id, 'the pause under way', (l) => l.guard === 'closing');

    const destroyed = await client.leases.destroy({ leaseId: lease.id, reason: 'destroy during pause' });
    expect(destroyed).toMatchObject({ gone: true, verdict: { status: 'contained' }, destroy: { state: 'destroyed' } });
    expect(await pausing).toBe(guardMessages.destroying);
    expect(host.services.leases.get(lease.id).guard).toBe('idle');
  }, SLOW_TEST_MS);
});
