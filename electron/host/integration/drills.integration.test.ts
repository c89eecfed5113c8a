// The host against createos-local's fault drills that hit the output journal and the HTTP layer:
// eviction before attach, failed answers carrying a secret, slow answers and a rate limit.
import { readFile } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { RateLimiter } from '../../../createos-local/auth';
import { findSandboxProcesses } from '../../../createos-local/server';
import type { TailEntry } from '../../../shared/domain';
import type { Host } from '../compose';
import { messages } from '../createos/errors';
import {
  contractClient, filesUnder, hasExit, isRun, linesOf, numbered, pollUntil, recordLease, recordTail, SLOW_TEST_MS, tailSnapshot, textOf, verdictSteps, waitForLease,
  type Rig,
  eachTestWithHost,
} from './support';

let rig: Rig;
let host: Host;

eachTestWithHost((newRig, newHost) => {
  rig = newRig;
  host = newHost;
});

async function newLease(): Promise<string> {
  return (await contractClient(host).leases.create({ name: 'drills' })).id;
}

/** Every jump in the output sequence is announced by a gap entry before the text that follows it. */
function expectNoSilentLoss(entries: readonly TailEntry[]): void {
  let lastSeq = 0;
  let gapSince = false;
  for (const entry of entries) {
    if (entry.kind === 'gap') gapSince = true;
    if (entry.kind !== 'text') continue;
    if (entry.seq !== lastSeq + 1 && entry.seq !== lastSeq) expect({ seq: entry.seq, after: lastSeq, gapAnnounced: gapSince }).toMatchObject({ gapAnnounced: true });
    lastSeq = entry.seq;
    gapSince = false;
  }
}

describe('drills against the host', () => {
  it('evict: output written before the console attached comes back after an explicit gap marker, nothing lost silently', async () => {
    const { services } = host;
    const leaseId = await newLease();
    await rig.provider.arm({ kind: 'evict', sandbox_id: leaseId, journal_bytes: 2048 });
    // Started through the provider API, not the console: the console only learns of it by discovery.
    const created = await rig.provider.call<{ process_id: string }>('POST', `/v1/sandboxes/${leaseId}/processes`, {
      cmd: '/bin/bash', args: ['-c', 'for i in $(seq 1 3000); do echo line-$i; done; sleep 0.3; echo tail-1; sleep 0.05; echo tail-2'],
    });
    const processId = created.process_id;
    const finished = await rig.provider.call<{ output: { oldest_seq: number } }>('GET', `/v1/sandboxes/${leaseId}/processes/${processId}/wait?scope=tree&timeout_ms=10000`);
    expect(finished.output.oldest_seq).toBeGreaterThan(1);

    await waitForLease(services, leaseId, 'the process discovered', (l) => l.processes.some((p) => p.processId === processId));
    const tail = recordTail(services, leaseId, processId);
    const entries = await tail.until('the exit', hasExit);
    const done = await waitForLease(services, leaseId, 'contained', (l) => l.verdict.status === 'contained' && l.processes.every((p) => p.state === 'exited'));
    tail.stop();

    const first = entries[0];
    expect(first?.kind).toBe('gap');
    const range = first?.kind === 'gap' ? /^output evicted \(frames 1–(\d+)\)$/.exec(first.reason) : null;
    expect(range).not.toBeNull();
    const firstText = entries.find((e) => e.kind === 'text');
    expect(firstText?.kind === 'text' ? firstText.seq : 0).toBe(Number(range?.[1]) + 1);
    expectNoSilentLoss(entries);
    // What is retained is the end of the output, whole and in order: the last lines of the burst
    // (as many as the 2 KiB journal kept of it, maybe none) up to line-3000, then the two late lines.
    const lines = linesOf(textOf(entries));
    expect(lines.slice(-2)).toEqual(['tail-1', 'tail-2']);
    const burst = numbered(lines, 'line-');
    if (burst.length > 0) expect(isRun(burst, burst[0] ?? 0, 3000)).toBe(true);
    expect(burst[0] ?? 3001).toBeGreaterThan(1);
    expect(entries.at(-1)).toMatchObject({ kind: 'exit', exitCode: 0 });
    expect(done.processes[0]).toMatchObject({ startedByConsole: false, exitCode: 0, treeExited: true });
    expect(await findSandboxProcesses(leaseId)).toEqual([]);
  }, SLOW_TEST_MS);

  it('http-error with a secret-bearing body: never in an error, a log line or the journal; failed answers never clear an unproven verdict', async () => {
    const { services } = host;
    const client = contractClient(host);
    const leaseId = await newLease();
    const lease = recordLease(services, leaseId);
    const errors: string[] = [];
    const failure = async (call: Promise<unknown>): Promise<string> => {
      const message = await call.then(() => 'no failure', (error: unknown) => (error instanceof Error ? error.message : String(error)));
      errors.push(message);
      return message;
    };

    // Discovery's list (or its process list) fails: logged, without the body.
    await rig.provider.arm({ kind: 'http-error', path_prefix: '/v1/sandboxes', method: 'GET', status: 503, times: 1 });
    const logged = await pollUntil('the failed discovery logged', () => rig.logs.find((line) => line.startsWith('discovery:')));
    expect(logged).toMatch(/^discovery: CreateOS request failed \(HTTP 503\) during (sandbox lifecycle|process creation)\.$/);

    // A 4xx on process creation proves nothing was created: the run fails, the verdict is untouched.
    await rig.provider.arm({ kind: 'http-error', path_prefix: `/v1/sandboxes/${leaseId}/processes`, method: 'POST', status: 400, times: 1 });
    expect(await failure(client.processes.run({ leaseId, command: 'echo never' }))).toBe('CreateOS request failed (HTTP 400) during process creation.');
    expect(services.leases.get(leaseId)).toMatchObject({ verdict: { status: 'contained' }, guard: 'idle', processes: [] });

    // A 5xx does not: the creation is unconfirmed and the lease unproven.
    await rig.provider.arm({ kind: 'http-error', path_prefix: `/v1/sandboxes/${leaseId}/processes`, method: 'POST', status: 500, times: 1 });
    expect(await failure(client.processes.run({ leaseId, command: 'echo never' }))).toBe(messages.creationUnconfirmed);
    const unproven = await waitForLease(services, leaseId, 'unproven', (l) => l.verdict.status === 'unproven');
    const reason = unproven.verdict.reasons[0];

    // A failed destroy (4xx on DELETE) leaves it unproven.
    await rig.provider.arm({ kind: 'http-error', path_prefix: `/v1/sandboxes/${leaseId}`, method: 'DELETE', status: 400, times: 1 });
    expect(await failure(client.leases.destroy({ leaseId, reason: 'cleanup' }))).toBe('CreateOS request failed (HTTP 400) during sandbox lifecycle.');
    expect(services.leases.get(leaseId)).toMatchObject({ gone: false, verdict: { status: 'unproven' }, destroy: { state: 'failed' } });
    expect(services.leases.get(leaseId).verdict.reasons[0]).toEqual(reason);

    // The DELETE goes through, but every GET of the lease answers a redirect (refused, not followed):
    // the sandbox is gone yet unconfirmed, so the lease stays unproven, through the destroy and discovery alike.
    const redirect = await rig.provider.arm({ kind: 'http-error', path_prefix: `/v1/sandboxes/${leaseId}`, method: 'GET', status: 302, times: 1000 });
    expect(await failure(client.leases.destroy({ leaseId, reason: 'cleanup again' }))).toBe('CreateOS request failed (HTTP 302) during sandbox lifecycle.');
    await pollUntil('discovery to ask for the vanished lease', async () => {
      const { fault } = await rig.provider.call<{ fault: { times: number } }>('GET', `/admin/faults/${redirect}`);
      return fault.times <= 997;
    });
    expect(services.leases.get(leaseId)).toMatchObject({ gone: false, verdict: { status: 'unproven' } });
    await rig.provider.disarm(redirect);

    // Only a real confirmation (GET answers 404) clears it.
    const contained = await waitForLease(services, leaseId, 'contained', (l) => l.verdict.status === 'contained');
    lease.stop();
    expect(contained.gone).toBe(true);
    expect(services.leases.timeline(leaseId).at(-1)?.detail ?? '').toMatch(/answered 404/);
    const afterUnproven = lease.history.slice(lease.history.findIndex((l) => l.verdict.status === 'unproven'));
    expect(verdictSteps(afterUnproven)).toEqual(['unproven', 'contained']);
    expect(afterUnproven.filter((l) => l.verdict.status !== 'unproven').every((l) => l.gone)).toBe(true);

    // The secret of the failure bodies (and the API key) is nowhere.
    expect(errors).toHaveLength(4);
    for (const text of [...errors, ...rig.logs]) {
      expect(text).not.toContain('sk-leak');
      expect(text).not.toContain(rig.provider.apiKey);
    }
    for (const file of await filesUnder(rig.dataDir)) {
      const content = await readFile(file, 'utf8');
      expect(content).not.toContain('sk-leak');
      expect(content).not.toContain(rig.provider.apiKey);
    }
  }, SLOW_TEST_MS);

  it('slow answers and a rate limit: the host paces and queues visibly, honours Retry-After and keeps working', async () => {
    const { services } = host;
    const leaseId = await newLease();

    // Slow: process routes of the lease answer 1 s late. Requests queue behind the pacer meanwhile.
    await rig.provider.arm({ kind: 'slow', path_prefix: `/v1/sandboxes/${leaseId}/processes`, delay_ms: 1000, times: 2 });
    const startedAt = Date.now();
    const runs = [
      services.processes.run({ leaseId, command: 'echo slow-1' }, 'it'),
      services.processes.run({ leaseId, command: 'echo slow-2' }, 'it'),
      services.leases.refresh(),
    ];
    expect(services.system.info().queuedRequests).toBeGreaterThan(0);
    await Promise.all(runs);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(900);
    const bothDone = await waitForLease(services, leaseId, 'both commands contained', (l) =>
      l.processes.length === 2 && l.verdict.status === 'contained' && l.guard === 'idle' && l.processes.every((p) => p.state === 'exited'));
    const outputs = bothDone.processes.map((p) => textOf(tailSnapshot(services, leaseId, p.processId)));
    expect(outputs.sort()).toEqual(['slow-1\n', 'slow-2\n']);

    // Rate limit: one request a minute. While it is armed, the limiter's clock runs 57 s ahead, so
    // requests the host made in the last 3 s look almost a minute old: the 429 then carries a
    // Retry-After of a few seconds instead of a whole minute (the limiter and its answer are real).
    const ahead = 57_000;
    const original = Object.getOwnPropertyDescriptor(RateLimiter.prototype, 'check')?.value as (this: RateLimiter, address: string, perMinute: number, now?: number) => void;
    const checks: Array<{ at: number; retryAfter: number | null }> = [];
    let onCheck: () => void = () => undefined;
    vi.spyOn(RateLimiter.prototype, 'check').mockImplementation(function check(this: RateLimiter, address: string, perMinute: number) {
      const at = Date.now();
      try {
        original.call(this, address, perMinute, perMinute === 1 ? at + ahead : at);
        checks.push({ at, retryAfter: null });
      } catch (error) {
        checks.push({ at, retryAfter: Number((error as { headers?: Record<string, string> }).headers?.['retry-after']) });
        throw error;
      } finally {
        onCheck();
      }
    });
    const nextCheck = (what: string, predicate: () => boolean): Promise<void> => new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), 10_000);
      onCheck = () => {
        if (!predicate()) return;
        clearTimeout(timer);
        onCheck = () => undefined;
        resolve();
      };
    });
    // Arm right after a request of the host, so the next one sees it in the window.
    const seen = checks.length;
    await nextCheck('a request of the host', () => checks.length > seen);
    const limit = await rig.provider.arm({ kind: 'rate-limit', per_minute: 1 });
    await nextCheck('a 429', () => checks.some((c) => c.retryAfter !== null));
    await rig.provider.disarm(limit);
    const limitedAt = checks.findIndex((c) => c.retryAfter !== null);
    const retryAfter = checks[limitedAt]?.retryAfter ?? 0;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3);

    // While held back, the host's requests wait in the pacer, visibly.
    const system = contractClient(host).system;
    await pollUntil('a queued request, seen through the contract', async () => (await system.info()).queuedRequests > 0, 2000);
    await services.processes.run({ leaseId, command: 'echo after-limit' }, 'it');
    const third = await waitForLease(services, leaseId, 'the third command contained', (l) =>
      l.processes.length === 3 && l.verdict.status === 'contained' && l.guard === 'idle' && l.processes.every((p) => p.state === 'exited'));
    const after = third.processes.find((p) => p.command === 'echo after-limit');
    expect(textOf(tailSnapshot(services, leaseId, after?.processId ?? ''))).toBe('after-limit\n');

    // Nothing reached the provider before Retry-After was over, and the host did not hammer it.
    const next = checks[limitedAt + 1];
    expect(next).toBeDefined();
    expect((next?.at ?? 0) - (checks[limitedAt]?.at ?? 0)).toBeGreaterThanOrEqual(retryAfter * 1000 - 50);
    expect(checks.filter((c) => c.retryAfter !== null)).toHaveLength(1);
  }, SLOW_TEST_MS);
});
