// The whole console under load: createos-local runs 100 processes streaming 10 MB/s in total, the
// console (electron/serve.ts) follows them all, and Chromium shows one lease with a live tail.
// Prints p95 frame time, byte-to-screen p95 latency (each line carries the time it was written)
// and the renderer heap. Targets: p95 frame ≤ 16.7 ms, byte-to-screen p95 ≤ 250 ms, heap ≤ 150 MB.
// Usage: tsx bench/console-stream-frames.ts [seconds=20] [processes=100] [kbPerSecondEach=100]
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CreateosApi } from '../electron/host/createos/api';
import { parseCreateosConfig } from '../electron/host/createos/config';
import { CreateosHttpClient } from '../electron/host/createos/http-client';
import { chromiumArgs } from '../e2e/fixtures/browser';
import { findChromium } from '../scripts/find-chromium';
import { heapUsedMb, percentile, sampleFrames } from './browser-metrics';
import { lineFrom, numberedLineProducer, repoRoot as root, spawnProvider, streamLoadFromArgv } from './support';

const KEY = 'bench-key-console-stream';
const { seconds, processCount, perSandbox, lineBytes, linesPerTick } = streamLoadFromArgv();

const producer = numberedLineProducer({ seconds, linesPerTick, lineBytes, stamped: true });

// Page side, as a string (functions compiled by tsx carry helpers the page lacks).
const latencyProbe = `(() => {
  window.__latencies = [];
  const observe = () => {
    const log = document.querySelector('[role="log"]');
    if (!log) { setTimeout(observe, 100); return; }
    new MutationObserver(() => {
      const texts = log.querySelectorAll('.line-text');
      const last = texts[texts.length - 1];
      const stamp = last ? Number((last.textContent || '').split(' ')[1]) : NaN;
      if (Number.isFinite(stamp)) window.__latencies.push(Date.now() - stamp);
    }).observe(log, { childList: true, subtree: true, characterData: true });
  };
  observe();
})()`;

async function main(): Promise<void> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('Chromium is missing (apt-get install -y chromium).');
  const dir = await mkdtemp(join(tmpdir(), 'leasewatch-console-stream-'));
  const keyFile = join(dir, 'key');
  await writeFile(keyFile, KEY);
  const { url: providerUrl, child: provider } = await spawnProvider(KEY, join(dir, 'provider'), ['--journal-bytes', String(4 * 1024 * 1024)]);
  const consoleProcess = spawn(process.execPath, ['--import', 'tsx', join(root, 'electron', 'serve.ts'), '--port', '0', '--data-dir', join(dir, 'console'), '--createos-url', providerUrl, '--api-key-file', keyFile], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, LEASEWATCH_TOKEN: 'bench-token-0123456789' } });
  const consoleUrl = await lineFrom(consoleProcess, /^Leasewatch console: (\S+)$/);
  const api = new CreateosApi(new CreateosHttpClient({ config: parseCreateosConfig({ apiUrl: providerUrl, timeoutMs: 600_000 }, KEY) }));
  const browser = await chromium.launch({ executablePath, args: chromiumArgs });
  try {
    const sandboxes: string[] = [];
    for (let i = 0; i < processCount / perSandbox; i += 1) {
      const { id } = await api.createSandbox({ shape: 's-1vcpu-1gb', name: `bench-${i}` });
      while ((await api.getSandbox(id)).status !== 'running');
      sandboxes.push(id);
      for (let p = 0; p < perSandbox; p += 1) await api.createProcess(id, { cmd: 'bash', args: ['-c', producer] });
    }
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(consoleUrl);
    await page.locator('[data-app-ready="true"]').waitFor({ timeout: 60_000 });
    const first = sandboxes[0] ?? '';
    await page.locator(`[data-lease-id="${first}"]`).first().click({ timeout: 120_000 });
    await page.getByText(/Reconnects \d+/).first().waitFor({ timeout: 120_000 });
    // Every stream attached (the host paces requests 300 ms apart: ~30 s for 100 connects).
    const listed = Date.now() + 120_000;
    while ((await page.locator('[data-lease-id]').count()) < sandboxes.length) {
      if (Date.now() > listed) throw new Error('the console did not list every lease');
      await page.waitForTimeout(250);
    }
    await new Promise((resolve) => setTimeout(resolve, processCount * 350));
    await page.evaluate(latencyProbe);

    for (const id of sandboxes) await api.putFile(id, '/tmp/go', Buffer.from('go'));
    const frames = await sampleFrames(page, seconds * 1000);
    const latencies = await page.evaluate<number[]>('window.__latencies');
    const heap = await heapUsedMb(page);
    const rate = (processCount * linesPerTick * 10 * lineBytes) / 1e6;
    process.stdout.write(`console-stream-frames: ${processCount} processes, ${rate.toFixed(1)} MB/s offered for ${seconds} s\n`);
    process.stdout.write(`frame time p50 ${percentile(frames, 50).toFixed(1)} ms, p95 ${percentile(frames, 95).toFixed(1)} ms, frames over 25 ms: ${frames.filter((f) => f > 25).length} of ${frames.length} (target p95 ≤ 16.7 ms)\n`);
    process.stdout.write(`byte-to-screen p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms over ${latencies.length} samples (target p95 ≤ 250 ms)\n`);
    process.stdout.write(`renderer heap ${heap.toFixed(0)} MB (target ≤ 150 MB)\n`);
  } finally {
    await browser.close();
    consoleProcess.kill('SIGTERM');
    provider.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
