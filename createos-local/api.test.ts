import { stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findSandboxProcesses } from './process-table';
import { createSandbox, decodeData, getProcess, procExists, readFrames, startHarness, startProcess, until, type Harness } from './test-helpers';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

describe('transport', () => {
  it('requires X-Api-Key under /v1 and answers healthz without it', async () => {
    const none = await fetch(`${h.server.url}/v1/sandboxes`);
    expect(none.status).toBe(401);
    const wrong = await fetch(`${h.server.url}/v1/whoami`, { headers: { 'x-api-key': 'nope' } });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { message: string }).message).toMatch(/API key/);
    const health = await fetch(`${h.server.url}/healthz`);
    expect(await health.json()).toEqual({ status: 'success', data: { up: true } });
    const admin = await fetch(`${h.server.url}/admin/faults`);
    expect(admin.status).toBe(401);
    expect(h.server.isolation).toBe('bwrap');
    expect(h.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('wraps results in the success envelope; whoami, shapes and rootfs', async () => {
    const who = await h.call<{ user_id: string; stats: { total: number } }>('GET', '/v1/whoami');
    expect(who.status).toBe(200);
    expect(who.body.status).toBe('success');
    expect(who.body.data.stats.total).toBe(0);
    const shapes = await h.call<{ data: Array<{ id: string }>; pagination: { total: number; count: number; limit: number; offset: number } }>('GET', '/v1/shapes?limit=2&offset=1');
    expect(shapes.body.data.data).toHaveLength(2);
    expect(shapes.body.data.pagination).toMatchObject({ limit: 2, offset: 1, count: 2 });
    const publicShapes = await fetch(`${h.server.url}/v1/shapes`);
    expect(publicShapes.status).toBe(200);
  });
});

describe('sandboxes', () => {
  it('creates, gets, pages, and deletes (then 404)', async () => {
    const created = await h.call<Record<string, unknown>>('POST', '/v1/sandboxes', { shape: 's-1vcpu-1gb', name: 'one', ingress_enabled: false });
    expect(created.status).toBe(200);
    const id = created.body.data['id'] as string;
    expect(id).toMatch(/^sb_[A-Za-z0-9_-]+$/);
    expect(['creating', 'running']).toContain(created.body.data['status']);
    expect(created.body.data).toMatchObject({ vcpu: 1, mem_mib: 1024, ingress_enabled: false, name: 'one', shape: 's-1vcpu-1gb' });
    await until('running', async () => (await h.call<{ status: string }>('GET', `/v1/sandboxes/${id}`)).body.data.status === 'running');
    const second = await createSandbox(h);
    const third = await createSandbox(h);
    const p1 = await h.call<{ data: Array<{ id: string }>; pagination: Record<string, number> }>('GET', '/v1/sandboxes?limit=2&offset=0');
    expect(p1.body.data.pagination).toEqual({ total: 3, limit: 2, offset: 0, count: 2 });
    const p2 = await h.call<{ data: Array<{ id: string }>; pagination: Record<string, number> }>('GET', '/v1/sandboxes?limit=2&offset=2');
    expect(p2.body.data.pagination).toEqual({ total: 3, limit: 2, offset: 2, count: 1 });
    expect([...p1.body.data.data, ...p2.body.data.data].map((s) => s.id).sort()).toEqual([id, second, third].sort());
    const running = await h.call<{ data: unknown[] }>('GET', '/v1/sandboxes?status=running');
    expect(running.body.data.data).toHaveLength(3);
    const del = await h.call('DELETE', `/v1/sandboxes/${id}`);
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ id, status: 'destroyed' });
    expect((await h.call('GET', `/v1/sandboxes/${id}`)).status).toBe(404);
    expect((await h.call('DELETE', `/v1/sandboxes/${id}`)).status).toBe(404);
  });

  it('runs exec in the sandbox and shares files with processes at the same path', async () => {
    const sb = await createSandbox(h);
    const hi = await h.call<{ result: { exit_code: number; stdout: string; stderr: string }; exec_ms: number }>('POST', `/v1/sandboxes/${sb}/exec`, { cmd: 'bash', args: ['-lc', 'echo hi'] });
    expect(hi.status).toBe(200);
    expect(hi.body.data.result).toEqual({ exit_code: 0, stdout: 'hi\n', stderr: '' });
    expect(typeof hi.body.data.exec_ms).toBe('number');
    const put = await h.raw('PUT', `/v1/sandboxes/${sb}/files?path=${encodeURIComponent('/paperclip-workspace/deep/dir/note.txt')}`, {
      body: 'from the files API',
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(put.status).toBe(200);
    const cat = await h.call<{ result: { exit_code: number; stdout: string } }>('POST', `/v1/sandboxes/${sb}/exec`, { cmd: 'cat', args: ['/paperclip-workspace/deep/dir/note.txt'] });
    expect(cat.body.data.result).toMatchObject({ exit_code: 0, stdout: 'from the files API' });
    const proc = await startProcess(h, sb, 'printf made-by-process > /tmp/out.txt; ls / >&2');
    await until('exit', async () => (await getProcess(h, sb, proc.process_id)).leader_exited);
    const got = await h.raw('GET', `/v1/sandboxes/${sb}/files?path=/tmp/out.txt`);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/octet-stream');
    expect(await got.text()).toBe('made-by-process');
    const frames = await readFrames(await h.raw('GET', `/v1/sandboxes/${sb}/processes/${proc.process_id}/connect?after=0`));
    expect(decodeData(frames.frames, 'stderr')).toContain('paperclip-workspace');
    expect((await h.raw('GET', `/v1/sandboxes/${sb}/files?path=/nope.txt`)).status).toBe(404);
    const failing = await h.call<{ result: { exit_code: number; stderr: string } }>('POST', `/v1/sandboxes/${sb}/exec`, { cmd: 'mkdir', args: ['/usr/x'] });
    expect(failing.body.data.result.exit_code).not.toBe(0);
  });

  it('deleting a sandbox kills its whole tree and removes its directory', async () => {
    const sb = await createSandbox(h);
    await startProcess(h, sb, 'setsid sleep 600 & sleep 600');
    const procs = await until('two sleeps', async () => {
      const p = await findSandboxProcesses(sb);
      return p.filter((x) => x.comm === 'sleep').length === 2 ? p : undefined;
    });
    expect((await h.call('DELETE', `/v1/sandboxes/${sb}`)).status).toBe(200);
    expect(await findSandboxProcesses(sb)).toEqual([]);
    for (const p of procs) expect(await procExists(p.pid)).toBe(false);
    await expect(stat(path.join(h.dataDir, 'sandboxes', sb))).rejects.toThrow();
  });
});

describe('bad input', () => {
  it('rejects malformed and unknown input with a 4xx naming the problem, and keeps serving', async () => {
    const malformed = await h.call('POST', '/v1/sandboxes', '{"shape":');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/not valid JSON/);
    const unknownField = await h.call('POST', '/v1/sandboxes', { shape: 's-1vcpu-1gb', bogus: 1 });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.message).toMatch(/bogus/);
    const mistyped = await h.call('POST', '/v1/sandboxes', { shape: 7 });
    expect(mistyped.status).toBe(400);
    expect(mistyped.body.message).toMatch(/body\.shape/);
    const unknownShape = await h.call('POST', '/v1/sandboxes', { shape: 's-999' });
    expect(unknownShape.status).toBe(400);
    expect((await h.call('GET', '/v1/sandboxes/bad%20id!')).status).toBe(400);
    expect((await h.call('GET', '/v1/sandboxes/sb_missing')).status).toBe(404);
    const sb = await createSandbox(h);
    expect((await h.call('GET', `/v1/sandboxes/${sb}/processes/not*valid`)).status).toBe(400);
    expect((await h.call('GET', `/v1/sandboxes/${sb}/processes/proc_missing`)).status).toBe(404);
    const envKey = await h.call('POST', `/v1/sandboxes/${sb}/processes`, { cmd: 'true', env: { 'BAD-KEY': 'x' } });
    expect(envKey.status).toBe(400);
    const nul = await h.call('POST', `/v1/sandboxes/${sb}/processes`, { cmd: 'tr\u0000ue' });
    expect(nul.status).toBe(400);
    const badAfter = await h.call('GET', `/v1/sandboxes/${sb}/processes/proc_x/connect?after=-1`);
    expect(badAfter.status).toBe(404);
    const huge = await h.raw('POST', '/v1/sandboxes', { body: JSON.stringify({ shape: 'x'.repeat(2 * 1024 * 1024) }), headers: { 'content-type': 'application/json' } });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { message: string }).message).toMatch(/exceeds/);
    expect((await h.call('GET', '/v1/whoami')).status).toBe(200);
  });

  it('confines file paths to the sandbox', async () => {
    const sb = await createSandbox(h);
    const put = (p: string) => h.raw('PUT', `/v1/sandboxes/${sb}/files?path=${encodeURIComponent(p)}`, { body: 'x' });
    expect((await put('/paperclip-workspace/../../../etc/passwd-x')).status).toBe(400);
    expect((await put('relative/path')).status).toBe(400);
    expect((await put('/etc/evil')).status).toBe(403);
    expect((await h.raw('GET', `/v1/sandboxes/${sb}/files?path=${encodeURIComponent('/../../etc/passwd')}`)).status).toBe(400);
    // A symlink created inside the sandbox that points at an absolute host path must not be followed.
    const root = path.join(h.dataDir, 'sandboxes', sb, 'root');
    await symlink('/etc', path.join(root, 'paperclip-workspace', 'escape'));
    expect((await put('/paperclip-workspace/escape/createos-local-escape')).status).toBe(403);
    expect((await h.raw('GET', `/v1/sandboxes/${sb}/files?path=/paperclip-workspace/escape/hostname`)).status).toBe(403);
    await symlink('/etc/hostname', path.join(root, 'paperclip-workspace', 'file-link'));
    expect((await h.raw('GET', `/v1/sandboxes/${sb}/files?path=/paperclip-workspace/file-link`)).status).toBe(403);
    expect((await put('/paperclip-workspace/file-link')).status).toBe(403);
    expect((await h.call('GET', '/v1/whoami')).status).toBe(200);
  });
});
