// Discovery against createos-local when one lease's process list keeps failing: that lease is noted
// (once) and keeps what it had; the leases listed after it are still refreshed and a lease destroyed
// behind the console's back is still confirmed gone.
import { describe, expect, it } from 'vitest';
import type { Host } from '../compose';
import { contractClient, eachTestWithHost, pollUntil, SLOW_TEST_MS, waitForLease, type Rig } from './support';

let rig: Rig;
let host: Host;

eachTestWithHost((newRig, newHost) => {
  rig = newRig;
  host = newHost;
});

describe('discovery with a failing process list', () => {
  it('notes the failing lease once and carries on with the others', async () => {
    const { services } = host;
    const client = contractClient(host);
    const failing = (await client.leases.create({ name: 'failing' })).id;
    const later = (await client.leases.create({ name: 'later' })).id;
    const vanishing = (await client.leases.create({ name: 'vanishing' })).id;
    const listing = await rig.provider.call<{ data: Array<{ id: string }> }>('GET', '/v1/sandboxes');
    expect(listing.data.map((row) => row.id)).toEqual([failing, later, vanishing]);
    await client.processes.run({ leaseId: failing, command: 'sleep 600' });
    const before = await waitForLease(services, failing, 'its command active', (l) => l.verdict.status === 'active' && l.processes.length === 1);

    const fault = await rig.provider.arm({ kind: 'http-error', path_prefix: `/v1/sandboxes/${failing}/processes`, method: 'GET', status: 503, times: 1000 });
    const started = await rig.provider.call<{ process_id: string }>('POST', `/v1/sandboxes/${later}/processes`, { cmd: '/bin/bash', args: ['-c', 'sleep 600'] });
    await rig.provider.call('DELETE', `/v1/sandboxes/${vanishing}`);

    await waitForLease(services, later, 'the process started outside the console', (l) => l.processes.some((p) => p.processId === started.process_id));
    await waitForLease(services, vanishing, 'confirmed gone', (l) => l.gone && l.verdict.status === 'contained');
    await pollUntil('three failed process lists', async () => (await rig.provider.call<{ fault: { times: number } }>('GET', `/admin/faults/${fault}`)).fault.times <= 997);

    const after = services.leases.get(failing);
    expect(after.verdict).toEqual(before.verdict);
    expect(after.processes.map((p) => [p.processId, p.state])).toEqual(before.processes.map((p) => [p.processId, p.state]));
    const message = 'CreateOS request failed (HTTP 503) during process creation.';
    expect(services.leases.timeline(failing).filter((e) => e.kind === 'error')).toEqual([
      { at: expect.any(Number) as unknown, kind: 'error', summary: 'Listing processes failed', detail: `GET /v1/sandboxes/${failing}/processes → ${message}`, actor: null },
    ]);
    expect(rig.logs.filter((line) => line === `discovery: ${message}`)).toHaveLength(1);
  }, SLOW_TEST_MS);
});
