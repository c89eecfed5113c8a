// Incident export after a real incident on createos-local: a stubborn tree left a lease unproven,
// the operator destroyed it. The export must tell that story whole and carry no secret.
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Host } from '../compose';
import type { IncidentDocument } from '../export/document';
import { verifyExport } from '../export/manifest';
import { collectGarbage, contractClient, hasExit, SLOW_TEST_MS, startRig, tailSnapshot, stubbornScript, textOf, waitForLease, type Rig } from './support';

let rig: Rig;
let host: Host;
/** When set, the host's clock (Date.now) reads this; otherwise the real time. */
let pinnedNow: number | null = null;

beforeEach(async () => {
  rig = await startRig();
  // Installed before the host starts, so the host's services hold this clock and an export can be
  // repeated at the same instant (its generation time is part of its input).
  const realNow = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => pinnedNow ?? realNow());
  host = await rig.startHost();
});

afterEach(async () => {
  pinnedNow = null;
  vi.restoreAllMocks();
  await rig.close();
});

describe('incident export from a real incident', () => {
  it('names the lease, has the evidence, the destroy and every output line, no secret; the same input gives the same bytes', async () => {
    const { services } = host;
    const client = contractClient(host, 'alice');
    const { apiKey } = rig.provider;
    const leak = 'sk-leak-0123456789abcdef';
    const leaseId = (await client.leases.create({ name: 'incident' })).id;
    await rig.provider.arm({ kind: 'stubborn-tree', sandbox_id: leaseId });
    const before = ['for i in 1 2 3 4 5; do echo out-$i; done', `echo "token ${leak}"`, `echo "key ${apiKey}"`, 'echo err-1 >&2'].join('\n');

    await client.processes.run({ leaseId, command: stubbornScript(before), timeoutSeconds: 3 });
    collectGarbage();
    const unproven = await waitForLease(services, leaseId, 'unproven', (l) => l.verdict.status === 'unproven' && l.guard === 'unconfirmedCleanup', 20_000);
    const processId = unproven.processes[0]?.processId ?? '';
    const destroyed = await client.leases.destroy({ leaseId, reason: 'runaway process tree' });
    expect(destroyed.verdict.status).toBe('contained');
    const tail = tailSnapshot(services, leaseId, processId);
    expect(textOf(tail)).toContain('out-5\n');

    const file = await client.incidents.export({ scope: { kind: 'lease', leaseId }, format: 'json' });
    const html = await client.incidents.export({ scope: { kind: 'lease', leaseId }, format: 'html' });
    for (const content of [file.content, html.content]) {
      expect(content).not.toContain('sk-leak');
      expect(content).not.toContain(apiKey);
    }
    expect(file).toMatchObject({ mimeType: 'application/json', sha256: createHash('sha256').update(file.content).digest('hex') });
    expect(file.fileName).toContain(leaseId);
    expect(verifyExport(file.content)).toEqual({ ok: true, mismatched: [] });

    const doc = JSON.parse(file.content) as IncidentDocument;
    expect(doc.scope).toEqual({ kind: 'lease', leaseId });
    expect(doc.environment.providerUrl).toBe(`${rig.provider.url}/`);
    expect(doc.leases.map((l) => l.id)).toEqual([leaseId]);
    const [lease] = doc.leases;
    expect(lease?.verdict.status).toBe('contained');
    const call = `DELETE /v1/sandboxes/${leaseId}/processes/${processId}?grace_ms=1000`;
    expect(lease?.evidence.map((e) => e.kind)).toEqual(['process-started', 'process-unproven', 'destroy-started', 'destroy-confirmed']);
    expect(lease?.evidence[1]).toMatchObject({ processId, reason: 'Process tree has not exited.', call, reply: 'Process tree has not exited.' });
    expect(lease?.evidence[3]).toMatchObject({ proof: expect.stringMatching(/^sandbox gone at /) as unknown });
    expect(lease?.timeline.map((e) => e.summary)).toEqual(expect.arrayContaining([`Containment unproven for ${processId}: Process tree has not exited.`, 'Destroy confirmed']));
    expect(lease?.destroy).toMatchObject({ state: 'destroyed', reason: 'runaway process tree', requestedBy: 'alice' });
    expect(doc.operatorActions).toEqual(expect.arrayContaining([
      expect.objectContaining({ actor: 'alice', action: 'destroy lease', leaseId, reason: 'runaway process tree' }),
      expect.objectContaining({ actor: 'alice', action: 'run command', leaseId }),
    ]));

    // Every output line, stdout and stderr apart, with the secrets (only) replaced.
    const exported = lease?.processes.find((p) => p.processId === processId);
    const redacted = (text: string): string => text.replaceAll(leak, '[REDACTED:sk-token]').replaceAll(apiKey, '[REDACTED:api-key]');
    // The output, then how the tree ended: killed with the sandbox (the console kept following it).
    expect(exported?.stdout).toBe(`${redacted(textOf(tail))}[… process exited: no exit code, signal SIGKILL …]\n`);
    expect(hasExit(tailSnapshot(services, leaseId, processId))).toBe(true);
    // stderr: the command's own line first; what the shell said when the drill's SIGTERM hit may follow.
    expect(exported?.stderr.startsWith('err-1\n')).toBe(true);
    expect(exported?.stderr.endsWith('[… process exited: no exit code, signal SIGKILL …]\n')).toBe(true);
    expect(exported?.stdout.split('\n')).toEqual(expect.arrayContaining([
      'out-1', 'out-2', 'out-3', 'out-4', 'out-5', 'token [REDACTED:sk-token]', 'key [REDACTED:api-key]',
      expect.stringMatching(/^leader \d+$/) as unknown, expect.stringMatching(/^grandchild \d+$/) as unknown,
    ]));
    expect(doc.redactions.kinds.map((k) => k.kind)).toEqual(expect.arrayContaining(['api-key', 'sk-token']));

    // Exporting is recorded; a window that ends before it selects the same input twice: same bytes.
    const to = Date.now();
    const exportAt = (at: number) => {
      pinnedNow = at;
      try {
        return services.incidents.export({ kind: 'window', from: 0, to }, 'json', 'alice');
      } finally {
        pinnedNow = null;
      }
    };
    const first = await exportAt(to + 1);
    const second = await exportAt(to + 1);
    expect(second.content).toBe(first.content);
    expect(second.sha256).toBe(first.sha256);
    expect((JSON.parse(first.content) as IncidentDocument).leases.map((l) => l.id)).toEqual([leaseId]);
    expect(first.content).not.toContain('sk-leak');
    expect(services.leases.timeline(leaseId).filter((e) => e.summary === 'export incident log')).toHaveLength(4);
  }, SLOW_TEST_MS);
});
