// 100 attached process streams at 10 MB/s in total through the real host (discovery, process
// watcher, stream sink, tails, journal): host CPU, RSS, and lost bytes by line-sequence check.
// createos-local runs in its own process so the host is measured alone.
// Usage: tsx bench/host-streams.ts [seconds=20] [processes=100] [kbPerSecondEach=100]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost } from '../electron/host/compose';
import { CreateosApi } from '../electron/host/createos/api';
import { parseCreateosConfig } from '../electron/host/createos/config';
import { CreateosHttpClient } from '../electron/host/createos/http-client';
import { FileSecretStore } from '../electron/host/settings/secret-store';
import { numberedLineProducer, spawnProvider, streamLoadFromArgv } from './support';

const KEY = 'bench-key-host-streams';
const { seconds, processCount, perSandbox, lineBytes, linesPerTick } = streamLoadFromArgv();
const totalLines = linesPerTick * 10 * seconds;

const producer = numberedLineProducer({ seconds, linesPerTick, lineBytes, stamped: false });

async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'leasewatch-host-streams-'));
  const provider = await spawnProvider(KEY, join(dir, 'provider'), ['--journal-bytes', String(4 * 1024 * 1024)]);
  const config = parseCreateosConfig({ apiUrl: provider.url, timeoutMs: 600_000 }, KEY);
  const api = new CreateosApi(new CreateosHttpClient({ config }));
  const host = await createHost({ config, providerKind: 'createos-local', mode: 'browser', version: 'bench', dataDir: join(dir, 'console'), secretStore: new FileSecretStore(join(dir, 'secrets')), discoveryIntervalMs: 1000 });
  try {
    const sandboxes: string[] = [];
    for (let i = 0; i < processCount / perSandbox; i += 1) {
      const { id } = await api.createSandbox({ shape: 's-1vcpu-1gb' });
      while ((await api.getSandbox(id)).status !== 'running');
      sandboxes.push(id);
      for (let p = 0; p < perSandbox; p += 1) await api.createProcess(id, { cmd: 'bash', args: ['-c', producer] });
    }
    const attached = (): number => host.services.leases.list().flatMap((l) => l.processes).filter((p) => p.stream.attached).length;
    await waitFor(() => attached() === processCount, 120_000, 'every stream to attach');
    process.stdout.write(`attached ${processCount} streams; producing ${(processCount * linesPerTick * 10 * lineBytes / 1e6).toFixed(1)} MB/s for ${seconds} s\n`);

    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    let maxRss = 0;
    const sampler = setInterval(() => { maxRss = Math.max(maxRss, process.memoryUsage().rss); }, 200);
    for (const id of sandboxes) await api.putFile(id, '/tmp/go', Buffer.from('go'));
    const progress = setInterval(() => {
      const processes = host.services.leases.list().flatMap((l) => l.processes);
      const bytes = processes.reduce((sum, p) => sum + p.stream.bytesReceived, 0);
      process.stdout.write(`  ${((performance.now() - started) / 1000).toFixed(0)} s: ${(bytes / 1e6).toFixed(1)} MB received, ${processes.filter((p) => p.stream.attached).length} attached, ${processes.reduce((s2, p) => s2 + p.stream.reconnects, 0)} reconnects\n`);
    }, 5000);
    const exited = (): number => host.services.leases.list().flatMap((l) => l.processes).filter((p) => p.stream.bytesReceived >= totalLines * lineBytes).length;
    await waitFor(() => exited() === processCount, (seconds + 60) * 1000, 'every stream to deliver its bytes');
    clearInterval(progress);
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    clearInterval(sampler);

    let lost = 0;
    let received = 0;
    for (const lease of host.services.leases.list()) {
      for (const proc of lease.processes) {
        let expected = 1;
        await new Promise<void>((resolve) => {
          const unsubscribe = host.services.processes.tail(lease.id, proc.processId, (event) => {
            if (event.type !== 'replay') return;
            const text = event.entries.map((e) => (e.kind === 'text' ? e.text : e.kind === 'gap' ? '\u0000GAP\n' : '')).join('');
            for (const line of text.split('\n')) {
              if (line === '') continue;
              const n = Number(line.slice(0, 8));
              if (n !== expected) lost += 1;
              expected = n + 1;
              received += 1;
            }
            resolve();
          });
          unsubscribe();
        });
        if (expected - 1 !== totalLines) lost += totalLines - (expected - 1);
      }
    }
    const mb = (received * lineBytes) / 1e6;
    process.stdout.write(`host-streams: ${processCount} streams, ${mb.toFixed(1)} MB in ${(wallMs / 1000).toFixed(1)} s (${(mb / (wallMs / 1000)).toFixed(1)} MB/s)\n`);
    process.stdout.write(`host CPU: ${((cpu.user + cpu.system) / 1000 / wallMs * 100).toFixed(0)}% of one core; max RSS ${(maxRss / 1e6).toFixed(0)} MB\n`);
    process.stdout.write(`lost lines by sequence check: ${lost} (received ${received} of ${totalLines * processCount})\n`);
  } finally {
    await host.dispose();
    provider.child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
