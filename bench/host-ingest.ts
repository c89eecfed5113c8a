// Host ingest of one process's output through the CreateOS client (connect, NDJSON, base64, seq
// check, per-stream UTF-8 decoding) against `cat` of the same bytes over a loopback socket.
// createos-local runs in its own process so the host's event loop and CPU are measured alone.
// Usage: tsx bench/host-ingest.ts [MiB=64]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateosApi } from '../electron/host/createos/api';
import { parseCreateosConfig } from '../electron/host/createos/config';
import { CreateosHttpClient } from '../electron/host/createos/http-client';
import { RequestPacer } from '../electron/host/createos/pacer';
import { spawnProvider } from './support';
import { ProcessOutputStream } from '../electron/host/createos/process-stream';

const MiB = 1024 * 1024;
const KEY = 'bench-key-host-ingest';

/** `cat file` piped into a loopback TCP socket, drained by this process. */
async function catOverLoopback(file: string): Promise<{ bytes: number; ms: number }> {
  const server = createServer((socket) => {
    const cat = spawn('cat', [file], { stdio: ['ignore', 'pipe', 'inherit'] });
    cat.stdout.pipe(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  const started = performance.now();
  const socket = createConnection(address.port, '127.0.0.1');
  let bytes = 0;
  socket.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  await once(socket, 'end');
  const ms = performance.now() - started;
  server.close();
  return { bytes, ms };
}

async function main(): Promise<void> {
  const size = Math.max(1, Number(process.argv[2] ?? 64)) * MiB;
  const dir = await mkdtemp(join(tmpdir(), 'leasewatch-host-ingest-'));
  const provider = await spawnProvider(KEY, join(dir, 'provider'));
  const config = parseCreateosConfig({ apiUrl: provider.url, timeoutMs: 600_000 }, KEY);
  const pacer = new RequestPacer();
  const http = new CreateosHttpClient({ config, pacer });
  const api = new CreateosApi(http);
  try {
    const { id: sandboxId } = await api.createSandbox({ shape: 's-1vcpu-1gb' });
    while ((await api.getSandbox(sandboxId)).status !== 'running');
    // Text-like bytes (base64 of random data, 76-char lines) made inside the sandbox, fetched for the baseline.
    const made = await api.exec(sandboxId, { cmd: 'bash', args: ['-c', `head -c ${Math.floor((size * 3) / 4)} /dev/urandom | base64 > /tmp/ingest.txt`] });
    if (made.result.exit_code !== 0) throw new Error('could not create the data file');
    const bytes = await api.getFile(sandboxId, '/tmp/ingest.txt');
    const local_file = join(dir, 'ingest.txt');
    await writeFile(local_file, bytes);

    const baseline = await catOverLoopback(local_file);

    let received = 0;
    let chars = 0;
    let lastSeq = 0;
    let reconnects = 0;
    let started = 0;
    let cpuAtStart = process.cpuUsage();
    // Gated start: without a reader, a fast producer would overrun the 1 MiB journal before connect.
    const created = await api.createProcess(sandboxId, {
      cmd: 'bash',
      args: ['-c', 'while [ ! -e /tmp/go ]; do sleep 0.005; done; exec cat /tmp/ingest.txt'],
    });
    const stream = new ProcessOutputStream(api, {
      sandboxId,
      processId: created.process_id,
      onEvent: (event) => {
        if (event.kind === 'data' && event.bytes > 0) {
          if (started === 0) {
            started = performance.now();
            cpuAtStart = process.cpuUsage();
          }
          if (event.seq !== lastSeq + 1) throw new Error(`sequence jumped from ${lastSeq} to ${event.seq}`);
          lastSeq = event.seq;
          received += event.bytes;
          chars += event.text.length;
        } else if (event.kind === 'reconnect') reconnects = event.count;
      },
    });
    const running = stream.run(AbortSignal.timeout(600_000));
    // The pacer is FIFO: this PUT starts ≥300 ms after the connect request did.
    await api.putFile(sandboxId, '/tmp/go', Buffer.alloc(0));
    const exit = await running;
    // From the first byte to the exit: the pacer's 300 ms spacing before the start is not ingest.
    const hostMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuAtStart);
    const cpuMs = (cpu.user + cpu.system) / 1000;

    const rate = (n: number, ms: number): number => n / MiB / (ms / 1000);
    const hostRate = rate(received, hostMs);
    const catRate = rate(baseline.bytes, baseline.ms);
    const lost = bytes.length - received;
    console.log(`bytes: ${bytes.length} (${(bytes.length / MiB).toFixed(1)} MiB), frames: ${lastSeq}, exit: ${exit.exitCode}, reconnects: ${reconnects}`);
    console.log(`cat over loopback: ${catRate.toFixed(1)} MB/s (${baseline.ms.toFixed(0)} ms)`);
    console.log(`host ingest:       ${hostRate.toFixed(1)} MB/s (${hostMs.toFixed(0)} ms, ${chars} chars decoded, host CPU ${cpuMs.toFixed(0)} ms = ${((cpuMs / hostMs) * 100).toFixed(0)}%)`);
    console.log(`ratio: ${((hostRate / catRate) * 100).toFixed(1)}% (target ≥ 50%), lost bytes: ${lost}`);
    if (lost !== 0) process.exitCode = 1;
  } finally {
    pacer.dispose();
    await http.dispose();
    const exited = once(provider.child, 'exit');
    provider.child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
