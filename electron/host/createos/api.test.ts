import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CreateosError } from './errors';
import { captureError, failWithSecret, managedProcess, startScriptedServer, success, testClient, type ScriptedServer, type TestClient } from './test-support';

let server: ScriptedServer;
let client: TestClient;

beforeEach(async () => {
  server = await startScriptedServer();
  client = testClient(server.url);
});

afterEach(async () => {
  await client.dispose();
  await server.close();
});

function sandbox(id: string, status = 'running'): Record<string, unknown> {
  return { id, status, vcpu: 1, mem_mib: 512, disk_mib: 1024, created_at: '2026-01-01T00:00:00Z', ingress_enabled: false };
}

async function message(promise: Promise<unknown>): Promise<string> {
  const error = await captureError(promise);
  expect(error).toBeInstanceOf(CreateosError);
  return (error as Error).message;
}

describe('CreateosApi sandboxes', () => {
  it('createSandbox sends ingress_enabled:false and checks the id', async () => {
    server.handle((_req, res) => success(res, { id: 'sb_new', status: 'creating' }, 201));
    expect(await client.api.createSandbox({ shape: 's-1', rootfs: 'debian' })).toEqual({ id: 'sb_new', status: 'creating' });
    expect(JSON.parse(server.requests[0]?.body.toString() ?? '')).toEqual({ shape: 's-1', rootfs: 'debian', ingress_enabled: false });
    server.handle((_req, res) => success(res, { id: '../etc' }));
    expect(await message(client.api.createSandbox({ shape: 's-1' }))).toBe('CreateOS returned an invalid resource ID.');
  });

  it('getSandbox requires the same id and a string status', async () => {
    server.handle((_req, res) => success(res, sandbox('sb_1')));
    expect((await client.api.getSandbox('sb_1')).status).toBe('running');
    server.handle((_req, res) => success(res, sandbox('sb_2')));
    expect(await message(client.api.getSandbox('sb_1'))).toBe('CreateOS sandbox identity or state is invalid.');
    server.handle((_req, res) => success(res, { ...sandbox('sb_1'), status: 3 }));
    expect(await message(client.api.getSandbox('sb_1'))).toBe('CreateOS sandbox identity or state is invalid.');
    expect(await message(client.api.getSandbox('bad/id'))).toBe('CreateOS returned an invalid resource ID.');
  });

  it('listSandboxes pages with limit ≤ 500, advancing offset by the rows received, until total', async () => {
    const all = Array.from({ length: 1_100 }, (_, i) => sandbox(`sb_${i}`));
    server.handle((req, res) => {
      const limit = Math.min(Number(req.query.get('limit')), 450); // server clamps below what was asked
      const offset = Number(req.query.get('offset'));
      const rows = all.slice(offset, offset + limit);
      success(res, { data: rows, pagination: { total: all.length, limit, offset, count: rows.length } });
    });
    const rows = await client.api.listSandboxes({ status: 'running' });
    expect(rows.map((r) => r.id)).toEqual(all.map((r) => r['id']));
    expect(server.requests.map((r) => [r.query.get('limit'), r.query.get('offset'), r.query.get('status')])).toEqual([
      ['500', '0', 'running'],
      ['500', '450', 'running'],
      ['500', '900', 'running'],
    ]);
  });

  it('listSandboxes stops on an empty page, a missing total and at the cap; accepts a bare array', async () => {
    server.handle((_req, res) => success(res, { data: [], pagination: { total: 10 } }));
    expect(await client.api.listSandboxes()).toEqual([]);
    server.handle((_req, res) => success(res, { data: [sandbox('sb_a')] }));
    expect(await client.api.listSandboxes()).toHaveLength(1);
    server.handle((_req, res) => success(res, [sandbox('sb_a'), sandbox('sb_b')]));
    expect((await client.api.listSandboxes()).map((s) => s.id)).toEqual(['sb_a', 'sb_b']);
    server.handle((_req, res) => success(res, { data: [sandbox('sb_a'), sandbox('sb_b'), sandbox('sb_c')], pagination: { total: 100 } }));
    const before = server.requests.length;
    expect(await client.api.listSandboxes({ cap: 2 })).toHaveLength(2);
    expect(server.requests[before]?.query.get('limit')).toBe('2');
    expect(server.requests.length - before).toBe(1);
  });

  it('an unrecognised list payload is an error, never an empty list', async () => {
    for (const data of [{ sandboxes: 'x' }, { items: [] }, { data: [{ id: 'sb_1' }] }, { data: [], pagination: { total: -1 } }]) {
      server.handle((_req, res) => success(res, data));
      const text = await message(client.api.listSandboxes());
      expect(['CreateOS returned an invalid response.', 'CreateOS returned an invalid resource ID.']).toContain(text);
    }
  });

  it('deleteSandbox: 404 is success; pause/resume ignore 409', async () => {
    server.handle((_req, res) => failWithSecret(res, 404));
    expect(await client.api.deleteSandbox('sb_1')).toBe(false);
    server.handle((_req, res) => success(res, { id: 'sb_1', status: 'destroying' }));
    expect(await client.api.deleteSandbox('sb_1')).toBe(true);
    server.handle((_req, res) => failWithSecret(res, 409));
    expect(await client.api.pauseSandbox('sb_1')).toEqual({ status: 409, conflict: true });
    server.handle((_req, res) => success(res, { status: 'resuming' }, 202));
    expect(await client.api.resumeSandbox('sb_1')).toEqual({ status: 202, conflict: false });
    server.handle((_req, res) => failWithSecret(res, 402));
    expect(await message(client.api.resumeSandbox('sb_1'))).toBe('CreateOS request failed (HTTP 402) during sandbox lifecycle.');
  });

  it('whoami parses identity and stats', async () => {
    server.handle((_req, res) => success(res, { user_id: 'u1', stats: { running: 1, paused: 2, other: 0, total: 3 } }));
    expect(await client.api.whoami()).toEqual({ user_id: 'u1', stats: { running: 1, paused: 2, other: 0, total: 3 } });
    server.handle((_req, res) => success(res, { user_id: 'u1' }));
    expect(await message(client.api.whoami())).toBe('CreateOS returned an invalid response.');
  });
});

describe('CreateosApi processes', () => {
  it('createProcess validates process_id', async () => {
    server.handle((_req, res) => success(res, managedProcess('p_1'), 201));
    expect((await client.api.createProcess('sb_1', { cmd: '/bin/bash', args: ['-lc', 'true'], cwd: '/w' })).process_id).toBe('p_1');
    expect(JSON.parse(server.requests[0]?.body.toString() ?? '')).toEqual({ cmd: '/bin/bash', args: ['-lc', 'true'], cwd: '/w' });
    server.handle((_req, res) => success(res, { ...managedProcess('p_1'), process_id: 'p 1' }));
    expect(await message(client.api.createProcess('sb_1', { cmd: 'x', args: [] }))).toBe('CreateOS returned an invalid resource ID.');
    server.handle((_req, res) => success(res, { ...managedProcess('p_1'), process_id: 7 }));
    expect(await message(client.api.createProcess('sb_1', { cmd: 'x', args: [] }))).toBe('CreateOS returned an invalid resource ID.');
  });

  it('createProcess keeps a valid process_id; fields §10 calls unconfirmed are read leniently', async () => {
    const odd = { process_id: 'p_1', state: 5, kind: null, pid: 'x', leader_exited: 'no', tree_exited: 'true', exit_code: 1.5, signal: 9, output: { newest_seq: 3, bytes: -1 }, created_at: null, finished_at: 0, extra: 'ignored' };
    server.handle((_req, res) => success(res, odd, 201));
    expect(await client.api.createProcess('sb_1', { cmd: 'x', args: [] })).toEqual({ process_id: 'p_1', state: 'unknown', output: { newest_seq: 3 } });
    server.handle((_req, res) => success(res, { process_id: 'p_1' }, 201));
    expect(await client.api.createProcess('sb_1', { cmd: 'x', args: [] })).toEqual({ process_id: 'p_1', state: 'unknown' });
    const full = managedProcess('p_1', { exit_code: null, signal: 'SIGTERM', output: { oldest_seq: 1, newest_seq: 4, bytes: 9 }, created_at: '2026-01-01T00:00:00Z', finished_at: null });
    server.handle((_req, res) => success(res, full, 201));
    expect(await client.api.createProcess('sb_1', { cmd: 'x', args: [] })).toEqual(full);
  });

  it('createProcess with an invalid sandbox id sends nothing and says so', async () => {
    const error = await captureError(client.api.createProcess('bad id!', { cmd: 'x', args: [] }));
    expect(error).toBeInstanceOf(CreateosError);
    expect((error as CreateosError).requestSent).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it('every ManagedProcess read is lenient, and tree_exited counts only when literally true', async () => {
    const reads = [
      () => client.api.getProcess('sb_1', 'p_1'),
      () => client.api.waitProcess('sb_1', 'p_1', { scope: 'tree', timeoutMs: 1_000 }),
      async () => client.api.deleteProcess('sb_1', 'p_1', 1_000),
      async () => (await client.api.listProcesses('sb_1'))[0],
    ];
    const reply = (row: Record<string, unknown>): void => server.handle((req, res) => success(res, req.method === 'GET' && req.path.endsWith('/processes') ? [row] : row));
    for (const read of reads) {
      reply({ process_id: 'p_1', created_at: null, output: { oldest_seq: 'x' }, tree_exited: true });
      expect(await read()).toEqual({ process_id: 'p_1', state: 'unknown', output: {}, tree_exited: true });
      for (const treeExited of ['true', 1, null, {}]) {
        reply({ process_id: 'p_1', state: 'exited', tree_exited: treeExited });
        expect((await read())?.tree_exited).toBeUndefined();
      }
      reply({ process_id: 'p_1', tree_exited: false });
      expect((await read())?.tree_exited).toBe(false);
    }
  });

  it('listProcesses accepts data, processes and bare arrays', async () => {
    server.handle((_req, res) => success(res, { processes: [managedProcess('p_1'), managedProcess('p_2')] }));
    expect((await client.api.listProcesses('sb_1')).map((p) => p.process_id)).toEqual(['p_1', 'p_2']);
    server.handle((_req, res) => success(res, [managedProcess('p_3')]));
    expect((await client.api.listProcesses('sb_1')).map((p) => p.process_id)).toEqual(['p_3']);
  });

  it('getProcess requires the same process id', async () => {
    server.handle((_req, res) => success(res, managedProcess('p_2')));
    expect(await message(client.api.getProcess('sb_1', 'p_1'))).toBe('CreateOS returned an invalid resource ID.');
  });

  it('closeStdin accepts 409; deleteProcess maps 404 to null and sends grace_ms', async () => {
    server.handle((_req, res) => failWithSecret(res, 409));
    expect((await client.api.closeStdin('sb_1', 'p_1')).conflict).toBe(true);
    server.handle((_req, res) => failWithSecret(res, 404));
    expect(await client.api.deleteProcess('sb_1', 'p_1', 1_000)).toBeNull();
    expect(server.requests.at(-1)?.query.get('grace_ms')).toBe('1000');
    server.handle((_req, res) => success(res, managedProcess('p_1', { tree_exited: true, state: 'exited' })));
    expect((await client.api.deleteProcess('sb_1', 'p_1', 1_000))?.tree_exited).toBe(true);
    server.handle((_req, res) => failWithSecret(res, 500));
    expect(await message(client.api.deleteProcess('sb_1', 'p_1', 1_000))).toBe('CreateOS request failed (HTTP 500) during process cleanup.');
  });

  it('waitProcess repeats on 408', async () => {
    let calls = 0;
    server.handle((_req, res) => {
      calls += 1;
      if (calls < 3) failWithSecret(res, 408);
      else success(res, managedProcess('p_1', { state: 'exited', exit_code: 0, tree_exited: true }));
    });
    const process = await client.api.waitProcess('sb_1', 'p_1', { scope: 'tree', timeoutMs: 30_000 });
    expect(process.exit_code).toBe(0);
    expect(server.requests.map((r) => [r.path, r.query.get('scope'), r.query.get('timeout_ms')])).toEqual(
      Array.from({ length: 3 }, () => ['/v1/sandboxes/sb_1/processes/p_1/wait', 'tree', '30000']),
    );
  });

  it('exec and files', async () => {
    server.handle((req, res) => {
      if (req.path.endsWith('/exec')) success(res, { result: { exit_code: 0, stdout: 'ok', stderr: '' }, exec_ms: 3 });
      else if (req.method === 'GET') {
        res.writeHead(200);
        res.end('content');
      } else success(res, {});
    });
    expect((await client.api.exec('sb_1', { cmd: 'echo', args: ['ok'] })).result.stdout).toBe('ok');
    await client.api.putFile('sb_1', '/tmp/x', Buffer.from('a'));
    expect((await client.api.getFile('sb_1', '/tmp/x')).toString()).toBe('content');
  });
});
