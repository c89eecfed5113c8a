// Output throughput of one managed process through `connect` (NDJSON, base64 frames, decoded by
// the client) against `cat` of the same bytes to /dev/null, in the same run.
// createos-local runs as its own process (the CLI), as it would beside the console.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

const SIZE_MIB = Number(process.env['BENCH_MIB'] ?? '256');
const KEY = 'bench-key';
const repo = path.resolve(import.meta.dirname, '..');

interface Reply<T> {
  data: T;
}

/** CPU time (user + system) a process has used so far, in ms, from /proc/<pid>/stat. */
function cpuMsOf(pid: number): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'createos-local-bench-'));
  const server = spawn(process.execPath, [...(process.env['BENCH_PROF'] !== undefined ? ['--cpu-prof', '--cpu-prof-dir', process.env['BENCH_PROF']] : []), '--import', 'tsx', 'createos-local/cli.ts', '--port', '0', '--api-key', KEY, '--data-dir', dataDir, '--fault', 'rate-limit:per_minute=1000000', ...(process.env['BENCH_JOURNAL'] !== undefined ? ['--journal-bytes', process.env['BENCH_JOURNAL']] : [])], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1] !== undefined) resolve(m[1]);
    });
    server.once('exit', () => reject(new Error('server exited')));
  });
  const call = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}${p}`, { method, headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as Reply<T>).data;
  };
  try {
    const { id: sb } = await call<{ id: string }>('POST', '/v1/sandboxes', { shape: 's-2vcpu-4gb' });
    while ((await call<{ status: string }>('GET', `/v1/sandboxes/${sb}`)).status !== 'running') await new Promise((r) => setTimeout(r, 5));
    const blob = '/paperclip-workspace/blob';
    await call('POST', `/v1/sandboxes/${sb}/exec`, { cmd: 'bash', args: ['-c', `head -c ${SIZE_MIB}M /dev/urandom > ${blob}`] });
    const hostBlob = path.join(dataDir, 'sandboxes', sb, 'root', blob);
    const bytes = SIZE_MIB * 1024 * 1024;

    // Baseline: cat of the same bytes to /dev/null (page cache warm), best of 3.
    let catMs = Infinity;
    for (let i = 0; i < 3; i++) {
      const t = process.hrtime.bigint();
      spawnSync('cat', [hostBlob], { stdio: ['ignore', 'ignore', 'inherit'] });
      catMs = Math.min(catMs, Number(process.hrtime.bigint() - t) / 1e6);
    }
    // A second reference: the same bytes through a pipe into a reader that discards them.
    const pipeT = process.hrtime.bigint();
    spawnSync('bash', ['-c', `cat ${hostBlob} | cat > /dev/null`]);
    const pipeMs = Number(process.hrtime.bigint() - pipeT) / 1e6;
    // The ceiling of any Node server: the same bytes through a pipe into a Node stream reader that
    // only counts them (what createos-local must do before any framing or HTTP).
    const nodeReader = "let n=0;process.stdin.on('data',(c)=>{n+=c.length}).on('end',()=>{process.stdout.write(String(n))})";
    let nodeMs = Infinity;
    for (let i = 0; i < 3; i++) {
      const t = process.hrtime.bigint();
      const out = spawnSync('bash', ['-c', `cat ${hostBlob} | "${process.execPath}" -e "${nodeReader}"`], { encoding: 'utf8' });
      if (out.stdout !== String(bytes)) throw new Error(`node pipe reader counted ${out.stdout}`);
      nodeMs = Math.min(nodeMs, Number(process.hrtime.bigint() - t) / 1e6);
    }

    // Through createos-local: the process waits for stdin EOF so nothing is produced before connect.
    const results: number[] = [];
    const cpu: Array<{ server: number; client: number }> = [];
    const serverPid = server.pid ?? 0;
    for (let run = 0; run < 3; run++) {
      const proc = await call<{ process_id: string }>('POST', `/v1/sandboxes/${sb}/processes`, { cmd: '/bin/bash', args: ['-c', `read -r x; exec cat ${blob}`] });
      const base = `/v1/sandboxes/${sb}/processes/${proc.process_id}`;
      const done = new Promise<{ received: number; exit: string }>((resolve, reject) => {
        const req = request(`${url}${base}/connect?after=0`, { headers: { 'x-api-key': KEY } }, (res) => {
          let received = 0;
          let rest: Buffer | null = null;
          let exit = '';
          res.on('data', (chunk: Buffer) => {
            let buf: Buffer = rest === null ? chunk : Buffer.concat([rest, chunk]);
            let nl: number;
            while ((nl = buf.indexOf(10)) >= 0) {
              const frame = JSON.parse(buf.subarray(0, nl).toString('latin1')) as { type: string; data_base64?: string };
              if (frame.type === 'data') received += Buffer.from(frame.data_base64 ?? '', 'base64').length;
              else if (frame.type === 'exit') exit = JSON.stringify(frame);
              buf = buf.subarray(nl + 1);
            }
            rest = buf.length > 0 ? buf : null;
          });
          res.on('end', () => resolve({ received, exit }));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });
      await new Promise((r) => setTimeout(r, 50));
      const serverCpu = cpuMsOf(serverPid);
      const clientCpu = process.cpuUsage();
      const t = process.hrtime.bigint();
      await call('POST', `${base}/stdin/close`);
      const r = await done;
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      const client = process.cpuUsage(clientCpu);
      cpu.push({ server: (cpuMsOf(serverPid) - serverCpu) / ms, client: (client.user + client.system) / 1000 / ms });
      if (r.received !== bytes) throw new Error(`received ${r.received} of ${bytes} bytes (${r.exit})`);
      results.push(ms);
    }
    const connectMs = Math.min(...results);
    const mbps = (ms: number) => bytes / 1e6 / (ms / 1000);
    console.log(`payload: ${SIZE_MIB} MiB`);
    console.log(`cat to /dev/null:          ${mbps(catMs).toFixed(0)} MB/s (${catMs.toFixed(0)} ms)`);
    console.log(`cat | cat > /dev/null:     ${mbps(pipeMs).toFixed(0)} MB/s (${pipeMs.toFixed(0)} ms)`);
    console.log(`connect (best of 3):       ${mbps(connectMs).toFixed(0)} MB/s (${connectMs.toFixed(0)} ms; runs ${results.map((x) => x.toFixed(0)).join(', ')} ms)`);
    console.log(`CPU during connect:        createos-local ${cpu.map((c) => `${(100 * c.server).toFixed(0)}%`).join(', ')}; client ${cpu.map((c) => `${(100 * c.client).toFixed(0)}%`).join(', ')} of one core`);
    console.log(`connect / cat:             ${((100 * catMs) / connectMs).toFixed(1)}% (target >= 50%)`);
    console.log(`cat | node reader:         ${mbps(nodeMs).toFixed(0)} MB/s (${nodeMs.toFixed(0)} ms, best of 3, includes node start)`);
    console.log(`connect / cat|cat pipe:    ${((100 * pipeMs) / connectMs).toFixed(1)}%`);
    console.log(`connect / cat|node reader: ${((100 * nodeMs) / connectMs).toFixed(1)}%`);
    console.log(`ceiling: cat|node / cat:   ${((100 * catMs) / nodeMs).toFixed(1)}% (no Node server can exceed this ratio)`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
