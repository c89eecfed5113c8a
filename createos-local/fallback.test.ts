import { afterEach, describe, expect, it } from 'vitest';
import type { IsolationKind } from './isolation';
import { findSandboxProcesses } from './process-table';
import { createSandbox, decodeData, procExists, readFrames, startHarness, startProcess, STUBBORN_SCRIPT, until, type Harness, type ProcView } from './test-helpers';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe.each<IsolationKind>(['pid-namespace', 'process-group'])('fallback isolation %s', (kind) => {
  it('runs processes, kills whole trees on DELETE and on sandbox destroy', async () => {
    const logs: string[] = [];
    h = await startHarness({ isolation: kind, log: (l) => logs.push(l) });
    expect(h.server.isolation).toBe(kind);
    expect(logs.join('\n')).toMatch(new RegExp(`isolation: ${kind}`));
    const sb = await createSandbox(h);
    const echo = await startProcess(h, sb, 'echo hello; echo oops >&2');
    const { frames } = await readFrames(await h.raw('GET', `/v1/sandboxes/${sb}/processes/${echo.process_id}/connect?after=0`));
    expect(decodeData(frames, 'stdout')).toBe('hello\n');
    expect(frames.at(-1)).toEqual({ type: 'exit', exit_code: 0, signal: null });

    const p = await startProcess(h, sb, STUBBORN_SCRIPT);
    const members = await until('leader and grandchild', async () => {
      const procs = await findSandboxProcesses(sb);
      return procs.filter((x) => x.comm === 'bash').length >= 2 ? procs : undefined;
    });
    const del = await h.call<ProcView>('DELETE', `/v1/sandboxes/${sb}/processes/${p.process_id}?grace_ms=200`);
    expect(del.body.data).toMatchObject({ tree_exited: true, leader_exited: true });
    for (const m of members) expect(await procExists(m.pid)).toBe(false);

    await startProcess(h, sb, 'setsid sleep 600 & sleep 600');
    const sleeps = await until('sleeps', async () => {
      const procs = (await findSandboxProcesses(sb)).filter((x) => x.comm === 'sleep');
      return procs.length === 2 ? procs : undefined;
    });
    expect((await h.call('DELETE', `/v1/sandboxes/${sb}`)).status).toBe(200);
    expect(await findSandboxProcesses(sb)).toEqual([]);
    for (const s of sleeps) expect(await procExists(s.pid)).toBe(false);
  });
});
