// 5,000 leases with 50 changes a second pushed into one open console in Chromium: p95 frame time.
// The host behind the console is synthetic (the contract served by the real console server and
// routers, with generated leases) so the renderer is measured alone. Target: p95 ≤ 16.7 ms.
// Usage: tsx bench/console-leases-frames.ts [leases=5000] [changesPerSecond=50] [seconds=10]
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { LeaseEvent } from '../shared/contract';
import type { Lease } from '../shared/domain';
import { createHostRouter } from '../electron/host/routers';
import { startConsoleServer } from '../electron/server/console-server';
import { chromiumArgs } from '../e2e/fixtures/browser';
import { findChromium } from '../scripts/find-chromium';
import { createFakeHost } from '../test/fakes/host-services';
import { heapUsedMb, percentile, sampleFrames } from './browser-metrics';

const leaseCount = Number(process.argv[2] ?? 5000);
const changesPerSecond = Number(process.argv[3] ?? 50);
const seconds = Number(process.argv[4] ?? 10);
const statuses = ['running', 'paused', 'creating', 'running', 'running'] as const;

function makeLease(i: number, now: number): Lease {
  const unproven = i % 97 === 0;
  return {
    id: `sb_bench${String(i).padStart(5, '0')}`,
    name: `agent-${i}`,
    status: statuses[i % statuses.length] ?? 'running',
    rawStatus: statuses[i % statuses.length] ?? 'running',
    shape: 's-1vcpu-1gb',
    createdAt: new Date(now - i * 1000).toISOString(),
    guard: 'idle',
    verdict: unproven
      ? { status: 'unproven', reasons: [{ reason: 'Process tree has not exited.', call: 'DELETE /v1/…', reply: 'tree_exited=false', at: now, processId: 'proc_1' }], since: now }
      : { status: 'active', reasons: [], since: null },
    processes: [],
    reconnects: 0,
    lastOutputAt: now,
    destroy: null,
    gone: false,
  };
}

async function main(): Promise<void> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('Chromium is missing (apt-get install -y chromium).');
  const fake = createFakeHost();
  const now = Date.now();
  for (let i = 0; i < leaseCount; i += 1) fake.leases.push(makeLease(i, now));
  const token = 'bench-token-0123456789';
  const server = await startConsoleServer({ router: createHostRouter(fake.services), token, staticDir: join(import.meta.dirname, '..', 'dist', 'renderer'), port: 0 });
  const browser = await chromium.launch({ executablePath, args: chromiumArgs });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(server.url);
    await page.locator('[data-app-ready="true"]').waitFor({ timeout: 60_000 });
    let changes = 0;
    const timer = setInterval(() => {
      const index = Math.floor(Math.random() * leaseCount);
      const current = fake.leases[index];
      if (!current) return;
      const next: Lease = { ...current, reconnects: current.reconnects + 1, lastOutputAt: Date.now() };
      fake.leases[index] = next;
      const event: LeaseEvent = { type: 'upsert', lease: next };
      for (const watcher of fake.watchers) watcher(event);
      changes += 1;
    }, 1000 / changesPerSecond);
    const frames = await sampleFrames(page, seconds * 1000);
    clearInterval(timer);
    const heap = await heapUsedMb(page);
    process.stdout.write(`console-leases-frames: ${leaseCount} leases, ${changes} changes in ${seconds} s (${(changes / seconds).toFixed(0)}/s)\n`);
    process.stdout.write(`frame time p50 ${percentile(frames, 50).toFixed(1)} ms, p95 ${percentile(frames, 95).toFixed(1)} ms, max ${Math.max(...frames).toFixed(1)} ms over ${frames.length} frames (target p95 ≤ 16.7 ms)\n`);
    process.stdout.write(`renderer heap ${heap.toFixed(0)} MB\n`);
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
