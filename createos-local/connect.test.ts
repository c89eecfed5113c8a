// connect?after=N edge cases and the drop-stream drill's accounting.
import { describe, expect, it } from 'vitest';
import { eachTestWithHarness, readFrames, readUntil, startProcess, type Harness } from './test-helpers';

let h: Harness;
let sb: string;
eachTestWithHarness((harness, sandboxId) => {
  h = harness;
  sb = sandboxId;
}, { withSandbox: true });

const connect = (pid: string, after: number) => h.raw('GET', `/v1/sandboxes/${sb}/processes/${pid}/connect?after=${after}`);
const waitDone = (pid: string) => h.call('GET', `/v1/sandboxes/${sb}/processes/${pid}/wait?timeout_ms=10000`);

interface ArmedList {
  faults: Array<{ kind: string; times?: number }>;
}

describe('connect', () => {
  it('refuses an `after` beyond the newest seq while the process still runs', async () => {
    const p = await startProcess(h, sb, 'echo one; exec sleep 30');
    const first = await connect(p.process_id, 0);
    await readUntil(first, (f) => f.some((x) => x.type === 'data'));
    const future = await connect(p.process_id, 5);
    expect(future.status).toBe(400);
    expect(((await future.json()) as { message: string }).message).toMatch(/after/);
    const current = await connect(p.process_id, 1);
    expect(current.status).toBe(200);
    await current.body?.cancel();
  });

  it('a refused connect does not use up a drop-stream fault', async () => {
    const p = await startProcess(h, sb, 'for i in 1 2 3 4 5; do echo $i; sleep 0.03; done');
    await waitDone(p.process_id);
    await h.call('POST', '/admin/faults', { kind: 'drop-stream', sandbox_id: sb, after_frames: 2, times: 1 });
    expect((await connect(p.process_id, 99)).status).toBe(400);
    const cut = await readFrames(await connect(p.process_id, 0));
    expect(cut.frames.map((f) => f.seq)).toEqual([1, 2]);
    expect(cut.error).not.toBeNull();
    expect((await h.call<ArmedList>('GET', '/admin/faults')).body.data.faults).toEqual([]);
  });

  it('a stream that ends before after_frames is whole and does not spend the fault', async () => {
    const short = await startProcess(h, sb, 'echo only');
    await waitDone(short.process_id);
    await h.call('POST', '/admin/faults', { kind: 'drop-stream', sandbox_id: sb, after_frames: 3, times: 1 });
    const whole = await readFrames(await connect(short.process_id, 0));
    expect(whole.frames.at(-1)).toEqual({ type: 'exit', exit_code: 0, signal: null });
    expect(whole.error).toBeNull();
    expect((await h.call<ArmedList>('GET', '/admin/faults')).body.data.faults).toMatchObject([{ kind: 'drop-stream', times: 1 }]);
    const long = await startProcess(h, sb, 'for i in 1 2 3 4 5; do echo $i; sleep 0.03; done');
    await waitDone(long.process_id);
    const cut = await readFrames(await connect(long.process_id, 0));
    expect(cut.frames.map((f) => f.seq)).toEqual([1, 2, 3]);
    expect(cut.error).not.toBeNull();
    expect((await h.call<ArmedList>('GET', '/admin/faults')).body.data.faults).toEqual([]);
  });
});
