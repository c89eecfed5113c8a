// 100 sandboxes, each running a process tree (leader plus a setsid grandchild), then all
// destroyed at once: wall time, and leftover processes read from /proc (must be 0).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findSandboxProcesses } from '../createos-local/process-table';
import { startBenchProvider } from './support';

const N = Number(process.env['BENCH_N'] ?? '100');
const KEY = 'bench-key';

async function alive(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'createos-local-bench-'));
  const { server, call } = await startBenchProvider(KEY, dataDir);
  try {
    const t0 = performance.now();
    const ids = await Promise.all(
      Array.from({ length: N }, async () => {
        const { id } = await call<{ id: string }>('POST', '/v1/sandboxes', { shape: 's-1vcpu-1gb' });
        while ((await call<{ status: string }>('GET', `/v1/sandboxes/${id}`)).status !== 'running') await new Promise((r) => setTimeout(r, 10));
        await call('POST', `/v1/sandboxes/${id}/processes`, { cmd: '/bin/bash', args: ['-c', "trap '' TERM; setsid sleep 1000 & sleep 1000"] });
        return id;
      }),
    );
    const setupS = (performance.now() - t0) / 1000;
    // Wait until every tree is fully up (leader bash plus both sleeps), so the destroy has work to do.
    const deadline = Date.now() + 60_000;
    let members: Array<{ pid: number }> = [];
    for (;;) {
      const per = await Promise.all(ids.map((id) => findSandboxProcesses(id)));
      members = per.flat();
      if (per.every((p) => p.filter((x) => x.comm === 'sleep').length === 2) || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const incomplete = (await Promise.all(ids.map(async (id) => ({ id, n: (await findSandboxProcesses(id)).length })))).filter((x) => x.n < 3);
    if (incomplete.length > 0) console.log(`warning: ${incomplete.length} trees not fully up: ${JSON.stringify(incomplete.slice(0, 5))}`);
    const t1 = performance.now();
    await Promise.all(ids.map((id) => call('DELETE', `/v1/sandboxes/${id}`)));
    const destroyS = (performance.now() - t1) / 1000;
    const leftoverMarked = (await Promise.all(ids.map((id) => findSandboxProcesses(id)))).flat().length;
    const leftoverPids = (await Promise.all(members.map((m) => alive(m.pid)))).filter(Boolean).length;
    const gone = (await Promise.all(ids.map(async (id) => (await fetch(`${server.url}/v1/sandboxes/${id}`, { headers: { 'x-api-key': KEY } })).status))).filter((s) => s === 404).length;
    console.log(`isolation: ${server.isolation}`);
    console.log(`sandboxes: ${N}, processes before destroy: ${members.length}, setup ${setupS.toFixed(2)} s`);
    console.log(`destroy all (concurrent DELETEs): ${destroyS.toFixed(2)} s`);
    console.log(`leftover processes: ${leftoverMarked} (by sandbox marker), ${leftoverPids} (of the ${members.length} pids seen before)`);
    console.log(`GET after delete answering 404: ${gone}/${N}`);
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
