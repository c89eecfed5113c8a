import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, getProcess, startHarness, startProcess, type Harness } from './test-helpers';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

async function expectUnknownParam(method: string, p: string, name: string): Promise<void> {
  const r = await h.call(method, p);
  expect(r.status, `${method} ${p}`).toBe(400);
  expect(r.body.message).toContain(`"${name}"`);
  expect(r.body.message).toMatch(/unknown query parameter/);
}

describe('query parameters are strict', () => {
  it('rejects unknown parameters on every route with a query schema, naming them, and does nothing', async () => {
    const sb = await createSandbox(h);
    const proc = await startProcess(h, sb, 'sleep 600');
    const base = `/v1/sandboxes/${sb}/processes/${proc.process_id}`;
    await expectUnknownParam('DELETE', `${base}?grace_ms_typo=0`, 'grace_ms_typo');
    expect((await getProcess(h, sb, proc.process_id)).state).toBe('running');
    await expectUnknownParam('GET', `${base}/connect?afterr=abc`, 'afterr');
    await expectUnknownParam('GET', `${base}/wait?scope=tree&timeout=5`, 'timeout');
    await expectUnknownParam('GET', `/v1/sandboxes/${sb}/processes?lmit=1`, 'lmit');
    await expectUnknownParam('GET', '/v1/sandboxes?limt=2', 'limt');
    await expectUnknownParam('GET', '/v1/shapes?page=1', 'page');
    await expectUnknownParam('GET', `/v1/sandboxes/${sb}/files?path=/tmp/x&mode=755`, 'mode');
    await expectUnknownParam('PUT', `/v1/sandboxes/${sb}/files?path=/tmp/x&mode=755`, 'mode');
    await expectUnknownParam('GET', '/v1/sandboxes?__proto__=x', '__proto__');
    expect(await readdir(path.join(h.dataDir, 'sandboxes', sb, 'root', 'tmp'))).toEqual([]);
  });

  it('rejects a parameter given twice, and still accepts the documented ones', async () => {
    const sb = await createSandbox(h);
    const proc = await startProcess(h, sb, 'echo hi');
    const dup = await h.call('GET', `/v1/sandboxes/${sb}/processes/${proc.process_id}/connect?after=0&after=5`);
    expect(dup.status).toBe(400);
    expect(dup.body.message).toMatch(/query\.after: given more than once/);
    expect((await h.call('GET', '/v1/sandboxes?limit=1&offset=0&status=running')).status).toBe(200);
    expect((await h.call('GET', '/v1/shapes?limit=2&offset=1')).status).toBe(200);
    expect((await h.call('GET', `/v1/sandboxes/${sb}/processes?limit=5&offset=0`)).status).toBe(200);
    expect((await h.call('GET', `/v1/sandboxes/${sb}/processes/${proc.process_id}/wait?scope=tree&timeout_ms=10000`)).status).toBe(200);
    const stream = await h.raw('GET', `/v1/sandboxes/${sb}/processes/${proc.process_id}/connect?after=0`);
    expect(stream.status).toBe(200);
    await stream.text();
    expect((await h.call('DELETE', `/v1/sandboxes/${sb}/processes/${proc.process_id}?grace_ms=100`)).status).toBe(200);
  });
});
