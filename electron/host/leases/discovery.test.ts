import { describe, expect, it } from 'vitest';
import type { CreateosApi } from '../createos/api';
import { httpError } from '../createos/errors';
import type { ManagedProcess, SandboxView } from '../createos/schemas';
import type { ProcessWatcher } from '../processes/process-watcher';
import { LeaseStore } from '../state/lease-store';
import { Discovery } from './discovery';

const AT = Date.UTC(2026, 0, 2, 3, 4, 5);

/** The provider seam, scripted per lease: what the list holds, each lease's processes, each GET. */
function fakeProvider() {
  const listed: SandboxView[] = [];
  const processes = new Map<string, ManagedProcess[] | Error>();
  const gets = new Map<string, SandboxView | Error>();
  const processCalls: string[] = [];
  const api = {
    listSandboxes: () => Promise.resolve([...listed]),
    listProcesses: (id: string) => {
      processCalls.push(id);
      const answer = processes.get(id) ?? [];
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
    getSandbox: (id: string) => {
      const answer = gets.get(id) ?? httpError(404, `/sandboxes/${id}`);
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  } as unknown as CreateosApi;
  const follows: string[] = [];
  const stopped: string[] = [];
  const watcher = {
    follow: (leaseId: string, processId: string) => follows.push(`${leaseId}/${processId}`),
    stopLease: (leaseId: string) => stopped.push(leaseId),
  } as unknown as ProcessWatcher;
  const store = new LeaseStore();
  const errors: string[] = [];
  const discovery = new Discovery({ api, store, watcher, onError: (message) => errors.push(message), now: () => AT });
  return { listed, processes, gets, processCalls, follows, stopped, store, errors, discovery };
}

const running = (id: string): SandboxView => ({ id, status: 'running' });
const proc = (processId: string, state = 'running'): ManagedProcess => ({ process_id: processId, state });

describe('Discovery: one lease failing its process list', () => {
  it.each([503, 429, 409])('HTTP %i on one lease is recorded on that lease, once; the leases after it are still refreshed and vanished ones confirmed', async (status) => {
    const p = fakeProvider();
    // sb_a is known with a running process (active); sb_gone is known but no longer listed.
    p.listed.push(running('sb_a'));
    p.processes.set('sb_a', [proc('p_a')]);
    p.store.upsertSandbox({ id: 'sb_gone', status: 'running' });
    await p.discovery.refresh();
    const before = p.store.record('sb_a').toLease();
    expect(before.verdict.status).toBe('active');
    const evidenceBefore = [...p.store.record('sb_a').evidence];
    expect(p.store.record('sb_gone').gone).toBe(true);

    p.store.upsertSandbox({ id: 'sb_gone2', status: 'running' });
    const failure = httpError(status, '/sandboxes/sb_a/processes');
    p.processes.set('sb_a', failure);
    p.listed.push(running('sb_b'));
    p.processes.set('sb_b', [proc('p_b')]);

    await expect(p.discovery.refresh()).resolves.toBe(4);

    // The leases after the failing one are refreshed; the vanished one is confirmed.
    expect(p.store.record('sb_b').processes.has('p_b')).toBe(true);
    expect(p.follows).toContain('sb_b/p_b');
    expect(p.store.record('sb_gone2').toLease()).toMatchObject({ gone: true, verdict: { status: 'contained' } });
    // The failing lease keeps what it had, and is not made contained.
    const after = p.store.record('sb_a').toLease();
    expect(after.verdict).toEqual(before.verdict);
    expect(after.processes).toEqual(before.processes);
    expect(p.store.record('sb_a').evidence).toEqual(evidenceBefore);
    const errorEntries = (): unknown[] => p.store.record('sb_a').timeline.filter((e) => e.kind === 'error');
    expect(errorEntries()).toEqual([{ at: AT, kind: 'error', summary: 'Listing processes failed', detail: `GET /v1/sandboxes/sb_a/processes → ${failure.message}`, actor: null }]);
    expect(p.errors).toEqual([failure.message]);

    // The same failure again is not recorded or reported again; after a success, a new failure is.
    await p.discovery.refresh();
    expect(errorEntries()).toHaveLength(1);
    expect(p.errors).toHaveLength(1);
    p.processes.set('sb_a', [proc('p_a')]);
    await p.discovery.refresh();
    p.processes.set('sb_a', failure);
    await p.discovery.refresh();
    expect(errorEntries()).toHaveLength(2);
    expect(p.errors).toHaveLength(2);
  });

  it('still skips a lease whose process list answers 404 (it vanished between the list and the call)', async () => {
    const p = fakeProvider();
    p.listed.push(running('sb_a'), running('sb_b'));
    p.processes.set('sb_a', httpError(404, '/sandboxes/sb_a/processes'));
    p.processes.set('sb_b', [proc('p_b')]);
    await p.discovery.refresh();
    expect(p.store.record('sb_a').timeline.filter((e) => e.kind === 'error')).toEqual([]);
    expect(p.errors).toEqual([]);
    expect(p.follows).toEqual(['sb_b/p_b']);
  });
});

describe('Discovery: a lease confirmed gone', () => {
  it('is tracked again, and recorded unproven, when it is listed again as live', async () => {
    const p = fakeProvider();
    p.store.upsertSandbox({ id: 'sb_1', status: 'running' });
    await p.discovery.refresh();
    expect(p.store.record('sb_1').gone).toBe(true);
    expect(p.stopped).toEqual(['sb_1']);

    // A wrong 404, or the key of another account for a while: the sandbox is listed again, running.
    p.listed.push(running('sb_1'));
    p.processes.set('sb_1', [proc('p1')]);
    await p.discovery.refresh();
    const record = p.store.record('sb_1');
    expect(record.toLease()).toMatchObject({ gone: false, status: 'running', rawStatus: 'running', verdict: { status: 'unproven' } });
    expect(record.evidence.map((e) => e.kind)).toEqual(['destroy-confirmed', 'lease-unproven', 'process-started']);
    expect(record.evidence[1]).toEqual({
      kind: 'lease-unproven', at: AT, reason: 'The sandbox was confirmed gone but is listed again.', call: 'GET /v1/sandboxes', reply: 'listed with status running',
    });
    expect(record.timeline.filter((e) => e.kind === 'unproven').map((e) => e.summary)).toEqual(['Containment unproven: The sandbox was confirmed gone but is listed again.']);
    // Its processes are refreshed and followed again.
    expect(record.processes.has('p1')).toBe(true);
    expect(p.follows).toEqual(['sb_1/p1']);

    // Listed again on the next cycle: nothing more to record.
    await p.discovery.refresh();
    expect(p.store.record('sb_1').evidence).toHaveLength(3);
  });

  it('stays gone when the list shows it destroyed', async () => {
    const p = fakeProvider();
    p.store.upsertSandbox({ id: 'sb_1', status: 'running' });
    await p.discovery.refresh();
    p.listed.push({ id: 'sb_1', status: 'destroyed' });
    await p.discovery.refresh();
    const record = p.store.record('sb_1');
    expect(record.gone).toBe(true);
    expect(record.evidence.map((e) => e.kind)).toEqual(['destroy-confirmed']);
    expect(p.processCalls).toEqual([]);
  });
});

describe('Discovery: the proof of a vanished lease', () => {
  it('says what the provider answered: 404, or status destroyed', async () => {
    const p = fakeProvider();
    p.store.upsertSandbox({ id: 'sb_404', status: 'running' });
    p.store.upsertSandbox({ id: 'sb_destroyed', status: 'running' });
    p.gets.set('sb_destroyed', { id: 'sb_destroyed', status: 'destroyed' });
    await p.discovery.refresh();
    const proof = (id: string): string => {
      const item = p.store.record(id).evidence.find((e) => e.kind === 'destroy-confirmed');
      return item?.kind === 'destroy-confirmed' ? item.proof : 'no proof';
    };
    expect(proof('sb_404')).toBe('sandbox no longer listed; GET /v1/sandboxes/sb_404 answered 404 at 03:04:05');
    expect(proof('sb_destroyed')).toBe('sandbox no longer listed; GET /v1/sandboxes/sb_destroyed answered status destroyed at 03:04:05');
  });
});
