import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, getProcess, startHarness, until, type Harness } from './test-helpers';

let h: Harness;
let hostDir: string;
beforeEach(async () => {
  h = await startHarness();
  hostDir = await mkdtemp(path.join(tmpdir(), 'createos-host-'));
  await writeFile(path.join(hostDir, 'f'), 'HOST-SECRET');
});
afterEach(async () => {
  await h.close();
  await rm(hostDir, { recursive: true, force: true });
});

const q = (p: string) => `path=${encodeURIComponent(p)}`;
const get = (sb: string, p: string) => h.raw('GET', `/v1/sandboxes/${sb}/files?${q(p)}`);
const put = (sb: string, p: string, body = 'x') => h.raw('PUT', `/v1/sandboxes/${sb}/files?${q(p)}`, { body });
const rootOf = (sb: string) => path.join(h.dataDir, 'sandboxes', sb, 'root');

async function expectSymlinkRefused(res: Response): Promise<void> {
  expect(res.status).toBe(403);
  expect(((await res.json()) as { message: string }).message).toMatch(/symbolic link/);
}

describe('files API never follows symlinks', () => {
  it('refuses a symlinked directory or file inside the sandbox, even when it points inside', async () => {
    const sb = await createSandbox(h);
    const ws = path.join(rootOf(sb), 'paperclip-workspace');
    await mkdir(path.join(ws, 'real'));
    await writeFile(path.join(ws, 'real', 'note'), 'inside');
    await symlink('real', path.join(ws, 'alias'));
    await symlink('real/note', path.join(ws, 'note-link'));
    expect(await (await get(sb, '/paperclip-workspace/real/note')).text()).toBe('inside');
    await expectSymlinkRefused(await get(sb, '/paperclip-workspace/alias/note'));
    await expectSymlinkRefused(await get(sb, '/paperclip-workspace/note-link'));
    await expectSymlinkRefused(await put(sb, '/paperclip-workspace/alias/new'));
    await expectSymlinkRefused(await put(sb, '/paperclip-workspace/alias/deeper/new'));
    await expectSymlinkRefused(await put(sb, '/paperclip-workspace/note-link', 'overwritten'));
    expect(await readdir(path.join(ws, 'real'))).toEqual(['note']);
    expect(await readFile(path.join(ws, 'real', 'note'), 'utf8')).toBe('inside');
  });

  it('refuses a symlink to a host directory and leaves the host untouched', async () => {
    const sb = await createSandbox(h);
    await symlink(hostDir, path.join(rootOf(sb), 'paperclip-workspace', 'host'));
    await expectSymlinkRefused(await get(sb, '/paperclip-workspace/host/f'));
    await expectSymlinkRefused(await put(sb, '/paperclip-workspace/host/planted'));
    await expectSymlinkRefused(await put(sb, '/paperclip-workspace/host/f'));
    expect(await readdir(hostDir)).toEqual(['f']);
    expect(await readFile(path.join(hostDir, 'f'), 'utf8')).toBe('HOST-SECRET');
  });

  it('keeps plain paths working and answers directories, FIFOs and files-as-parents clearly', async () => {
    const sb = await createSandbox(h);
    expect((await put(sb, '/paperclip-workspace/a/b/c.txt', 'deep')).status).toBe(200);
    expect(await (await get(sb, '/paperclip-workspace/a/b/c.txt')).text()).toBe('deep');
    expect((await put(sb, '/paperclip-workspace/a/b/c.txt', 'again')).status).toBe(200);
    expect(await (await get(sb, '/paperclip-workspace/a/b/c.txt')).text()).toBe('again');
    expect((await put(sb, '/paperclip-workspace/a/b')).status).toBe(409);
    expect((await get(sb, '/paperclip-workspace/a/b')).status).toBe(404);
    expect((await put(sb, '/paperclip-workspace/a/b/c.txt/under-a-file')).status).toBe(409);
    expect((await get(sb, '/paperclip-workspace/a/b/c.txt/under-a-file')).status).toBe(404);
    expect((await get(sb, '/paperclip-workspace/missing/x')).status).toBe(404);
    execFileSync('mkfifo', [path.join(rootOf(sb), 'paperclip-workspace', 'fifo')]);
    expect((await get(sb, '/paperclip-workspace/fifo')).status).toBe(404);
    expect((await readdir(path.join(rootOf(sb), 'paperclip-workspace', 'a', 'b'))).filter((n) => n.startsWith('.createos-upload'))).toEqual([]);
  });

  it('rejects empty and "." segments instead of normalising them', async () => {
    const sb = await createSandbox(h);
    for (const [p, why] of [
      ['/paperclip-workspace//x', /empty segments/],
      ['/paperclip-workspace/./x', /"\." segments/],
      ['/paperclip-workspace/../x', /"\.\." segments/],
      ['/paperclip-workspace/x/', /not a directory/],
    ] as const) {
      const r = await put(sb, p);
      expect(r.status).toBe(400);
      expect(((await r.json()) as { message: string }).message).toMatch(why);
      expect((await get(sb, p)).status).toBe(400);
    }
  });
});

/** renameat2(2) syscall numbers: the swapper exchanges the two names atomically, so `race/a` is never missing. */
const RENAMEAT2: Partial<Record<string, number>> = { x64: 316, arm64: 276 };
const renameat2 = RENAMEAT2[process.arch];

describe('files API under a directory/symlink swap race', { timeout: 60_000 }, () => {
  it.runIf(renameat2 !== undefined)('never reads or writes a host file while a sandbox process swaps a dir and a host symlink', async () => {
    await h.close();
    h = await startHarness({ rateLimitPerMinute: 1_000_000 });
    const sb = await createSandbox(h);
    // `race/a` flips between a real dir and a symlink to the host dir (RENAME_EXCHANGE), as fast as perl can.
    const script = [
      'set -e',
      'mkdir -p race/a',
      'printf sandbox > race/a/f',
      `ln -s '${hostDir}' race/b`,
      'touch race/started',
      `exec perl -e 'my ($x, $y) = ("race/a", "race/b"); while (1) { syscall(${renameat2}, -100, $x, -100, $y, 2) == 0 or die "renameat2: $!" }'`,
    ].join('\n');
    const r = await h.call<{ process_id: string }>('POST', `/v1/sandboxes/${sb}/processes`, { cmd: '/bin/bash', args: ['-c', script], cwd: '/paperclip-workspace' });
    expect(r.status).toBe(200);
    await until('swapper started', async () => (await get(sb, '/paperclip-workspace/race/started')).status === 200);

    const statuses = new Map<number, number>();
    const count = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
    let leaked = 0;
    for (let batch = 0; batch < 50; batch++) {
      await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          const g = await get(sb, '/paperclip-workspace/race/a/f');
          if ((await g.text()).includes('HOST-SECRET')) leaked += 1;
          count(g.status);
          const w = await put(sb, `/paperclip-workspace/race/a/put-${batch}-${i}`, 'from-put');
          await w.arrayBuffer();
          count(w.status);
        }),
      );
    }
    const host = { leaked_reads: leaked, entries: await readdir(hostDir), f: await readFile(path.join(hostDir, 'f'), 'utf8') };
    expect(host).toEqual({ leaked_reads: 0, entries: ['f'], f: 'HOST-SECRET' });
    // The race was live throughout: the swapper still runs, some requests went through, some met the symlink.
    expect((await getProcess(h, sb, r.body.data.process_id)).state).toBe('running');
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(403) ?? 0).toBeGreaterThan(0);
    expect([...statuses.keys()].filter((s) => ![200, 403, 404, 409].includes(s))).toEqual([]);
  });
});
