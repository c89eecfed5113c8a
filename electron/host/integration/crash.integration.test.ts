// The crash test: a host in a child process is killed with SIGKILL while one lease is unproven and
// another streams output; a fresh host on the same data dir must show both as they were recorded,
// report and skip a malformed journal record, and go on reading the stream without loss or repeat.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findSandboxProcesses } from '../../../createos-local/server';
import { sessionLeaderShells } from '../../../createos-local/test-helpers';
import { encodeFrame } from '../journal/frame';
import { listSegments, segmentPath } from '../journal/segment-files';
import { guardMessages } from '../lifecycle/lifecycle-guard';
import type { ChildEvent } from './host-child';
import {
  growingList, hasExit, isRun, linesOf, numbered, procAlive, recordTail, CRASH_TEST_MS, startRig, stubbornScript, tailSnapshot, textOf, waitForLease, type Rig,
} from './support';

const childScript = fileURLToPath(new URL('./host-child.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

interface ChildHost {
  readonly events: ChildEvent[];
  /** Resolves once `predicate` holds, checked on every line the child prints; rejects at the deadline or if the child dies. */
  until(what: string, predicate: (events: readonly ChildEvent[]) => boolean, timeoutMs: number): Promise<void>;
  kill(): Promise<void>;
}

let rig: Rig;
let running: ChildProcessByStdio<null, Readable, Readable> | null = null;

beforeEach(async () => {
  rig = await startRig();
});

afterEach(async () => {
  const proc = running;
  running = null;
  if (proc && proc.exitCode === null && proc.signalCode === null) {
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGKILL');
    await exited;
  }
  await rig.close();
});

function startChildHost(commands: Array<{ leaseId: string; command: string; timeoutSeconds?: number }>): ChildHost {
  const proc = spawn(process.execPath, ['--import', 'tsx', childScript, rig.provider.url, rig.dataDir, JSON.stringify(commands)], {
    cwd: repoRoot,
    env: { ...process.env, LEASEWATCH_IT_API_KEY: rig.provider.apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running = proc;
  const events: ChildEvent[] = [];
  let stderr = '';
  let partial = '';
  let exit: string | null = null;
  const waits = growingList(events, () => `child stderr:\n${stderr}`, () => (exit === null ? null : `the child host exited (${exit}):\n${stderr}\n`));
  proc.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') events.push(JSON.parse(line) as ChildEvent);
    waits.changed();
  });
  const exited = new Promise<void>((resolve) => {
    proc.once('exit', (code, signal) => {
      exit = signal ?? `code ${String(code)}`;
      waits.changed();
      resolve();
    });
  });
  return {
    events,
    async until(what, predicate, timeoutMs) {
      await waits.until(what, predicate, timeoutMs);
    },
    async kill() {
      expect(exit).toBeNull();
      proc.kill('SIGKILL');
      await exited;
      expect(exit).toBe('SIGKILL');
    },
  };
}

describe('crash: SIGKILL of the host mid-stream', () => {
  it('restarts with every unproven lease, its evidence and tails; skips a malformed record; resumes the stream without loss or repeat', async () => {
    const { provider } = rig;
    const stubborn = await provider.createSandbox();
    const streaming = await provider.createSandbox();
    await provider.arm({ kind: 'stubborn-tree', sandbox_id: stubborn });

    const child = startChildHost([
      { leaseId: stubborn, command: stubbornScript('echo before-trap'), timeoutSeconds: 3 },
      { leaseId: streaming, command: 'for i in $(seq 1 400); do echo line-$i; sleep 0.04; done' },
    ]);
    const streamedLines = (): number[] => numbered(linesOf(child.events.map((e) => (e.kind === 'output' && e.leaseId === streaming ? e.text : '')).join('')), 'line-');
    const lastLine = (): number => Math.max(0, ...streamedLines());
    await child.until('the stubborn lease unproven and blocked', (events) =>
      events.some((e) => e.kind === 'unproven' && e.leaseId === stubborn && e.guard === 'unconfirmedCleanup'), 40_000);
    // Output the child reported this long before the kill was journaled by then (appends are flushed within 50 ms).
    const durableLine = lastLine();
    await child.until('ten more lines', () => lastLine() >= durableLine + 10, 15_000);
    await child.kill();
    const killLine = lastLine();
    expect(killLine).toBeLessThan(400);
    const childVerdicts = child.events.flatMap((e) => (e.kind === 'unproven' && e.leaseId === stubborn ? [e] : []));
    const lastSeen = childVerdicts.at(-1);
    expect(lastSeen?.guard).toBe('unconfirmedCleanup');

    // Damage the journal: a garbage line, then a well-framed record whose data is not evidence.
    const journalDir = join(rig.dataDir, 'journal', 'local');
    const newest = (await listSegments(journalDir)).at(-1);
    expect(newest).toBeDefined();
    const bogus = encodeFrame(JSON.stringify({ t: Date.now(), type: 'lease.evidence', leaseId: stubborn, data: { kind: 'made-up', at: 'never' } }));
    await appendFile(segmentPath(journalDir, newest?.no ?? 0), Buffer.concat([Buffer.from('this is not a journal record\n'), bogus]));

    const host = await rig.startHost();
    const { services } = host;

    // The unproven lease: same verdict and evidence, still blocked, its tail there.
    const restored = services.leases.get(stubborn);
    expect(restored.verdict).toEqual(lastSeen?.verdict);
    expect(restored.verdict.status).toBe('unproven');
    expect(restored.verdict.reasons.map((r) => r.reason)).toEqual(['Process tree has not exited.']);
    expect(restored.verdict.reasons[0]?.call).toMatch(new RegExp(`^DELETE /v1/sandboxes/${stubborn}/processes/proc_[A-Za-z0-9_-]+\\?grace_ms=1000$`));
    expect(restored.guard).toBe('unconfirmedCleanup');
    const stubbornProcess = restored.processes[0]?.processId ?? '';
    expect(linesOf(textOf(tailSnapshot(services, stubborn, stubbornProcess)))).toEqual(expect.arrayContaining(['before-trap', expect.stringMatching(/^leader \d+$/) as unknown, expect.stringMatching(/^grandchild \d+$/) as unknown]));
    await expect(services.processes.run({ leaseId: stubborn, command: 'echo again' }, 'it')).rejects.toThrow(guardMessages.closingOrUnconfirmed);

    // The streaming lease: its tail holds every line up to the kill, from line 1, once each.
    const streamingProcess = services.leases.get(streaming).processes[0]?.processId ?? '';
    const tail = recordTail(services, streaming, streamingProcess);
    const replayed = numbered(linesOf(textOf(tail.entries)), 'line-');
    expect(replayed.length).toBeGreaterThanOrEqual(durableLine);
    expect(isRun(replayed, 1, replayed.length)).toBe(true);

    // The malformed records were reported and skipped; everything else loaded.
    expect(rig.logs).toEqual(expect.arrayContaining([
      expect.stringMatching(/^journal: journal-\d+\.log at byte \d+: .*; record skipped$/) as unknown,
      expect.stringMatching(/^journal: record \d+ \(lease\.evidence\) is malformed and was skipped$/) as unknown,
      expect.stringMatching(/^journal: restored 2 lease\(s\) from \d+ record\(s\)$/) as unknown,
    ]));

    // Discovery re-attaches the stream where the journal left it: live lines follow, none twice, no gap.
    await tail.until('live lines after the restart', (entries) => Math.max(0, ...numbered(linesOf(textOf(entries)), 'line-')) >= killLine + 10, 20_000);
    tail.stop();
    const all = numbered(linesOf(textOf(tail.entries)), 'line-');
    expect(isRun(all, 1, all.length)).toBe(true);
    expect(tail.entries.filter((e) => e.kind === 'gap')).toEqual([]);
    expect(hasExit(tail.entries)).toBe(false);

    // The OS agrees with the restored verdict, and the restarted host can clear it.
    const members = sessionLeaderShells(await findSandboxProcesses(stubborn));
    expect(members.length).toBeGreaterThanOrEqual(2);
    await services.leases.destroy(stubborn, 'after the crash', 'it');
    const cleared = await waitForLease(services, stubborn, 'contained', (l) => l.verdict.status === 'contained' && l.gone);
    expect(cleared.destroy?.proof).toMatch(/^sandbox gone/);
    expect(await findSandboxProcesses(stubborn)).toEqual([]);
    for (const member of members) expect(await procAlive(member.pid)).toBe(false);
  }, CRASH_TEST_MS);
});
