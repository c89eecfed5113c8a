// Sandbox create→running and process create→first output frame latency (p50/p95), against an
// in-process createos-local on a free port.
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startBenchProvider } from './support';

const N = Number(process.env['BENCH_N'] ?? '30');
const KEY = 'bench-key';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'createos-local-bench-'));
  const { server, call } = await startBenchProvider(KEY, dataDir);
  const firstFrame = (p: string) =>
    new Promise<void>((resolve, reject) => {
      const req = request(`${server.url}${p}`, { headers: { 'x-api-key': KEY } }, (res) => {
        res.once('data', () => {
          resolve();
          res.destroy();
        });
        res.once('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  try {
    const createMs: number[] = [];
    const procMs: number[] = [];
    const ids: string[] = [];
    for (let i = 0; i < N; i++) {
      const t0 = performance.now();
      const { id } = await call<{ id: string }>('POST', '/v1/sandboxes', { shape: 's-1vcpu-1gb' });
      while ((await call<{ status: string }>('GET', `/v1/sandboxes/${id}`)).status !== 'running') await new Promise((r) => setTimeout(r, 1));
      createMs.push(performance.now() - t0);
      ids.push(id);
      const t1 = performance.now();
      const proc = await call<{ process_id: string }>('POST', `/v1/sandboxes/${id}/processes`, { cmd: '/bin/echo', args: ['first'] });
      await firstFrame(`/v1/sandboxes/${id}/processes/${proc.process_id}/connect?after=0`);
      procMs.push(performance.now() - t1);
    }
    const bashMs: number[] = [];
    for (const id of ids.slice(0, Math.min(10, ids.length))) {
      const t = performance.now();
      const proc = await call<{ process_id: string }>('POST', `/v1/sandboxes/${id}/processes`, { cmd: '/bin/bash', args: ['-lc', 'echo first'] });
      await firstFrame(`/v1/sandboxes/${id}/processes/${proc.process_id}/connect?after=0`);
      bashMs.push(performance.now() - t);
    }
    const f = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms (n=${xs.length})`;
    console.log(`isolation: ${server.isolation}`);
    console.log(`sandbox create→running:                ${f(createMs)}`);
    console.log(`process create→first frame (echo):     ${f(procMs)}`);
    console.log(`process create→first frame (bash -lc): ${f(bashMs)}`);
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
