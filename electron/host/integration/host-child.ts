// Child process for the crash test: a real host (createHost, browser mode) against a given provider
// and data dir. It runs the commands it is given and prints one JSON line per event: when a lease's
// verdict becomes (or its verdict or guard changes while) unproven, and for every piece of output reaching a tail. The
// test kills it with SIGKILL mid-stream.
// Usage: host-child.ts <providerUrl> <dataDir> <commands JSON: [{leaseId, command, timeoutSeconds?}]>
// The API key comes in the environment (LEASEWATCH_IT_API_KEY), never on the command line.
import { join } from 'node:path';
import { createHost } from '../compose';
import { parseCreateosConfig } from '../createos/config';
import { FileSecretStore } from '../settings/secret-store';

export type ChildEvent =
  | { kind: 'ready' }
  | { kind: 'started'; leaseId: string; command: string }
  | { kind: 'unproven'; leaseId: string; verdict: unknown; guard: string }
  | { kind: 'output'; leaseId: string; processId: string; seq: number; text: string };

interface Command {
  leaseId: string;
  command: string;
  timeoutSeconds?: number;
}

const [providerUrl, dataDir, commandsJson] = process.argv.slice(2);
const apiKey = process.env['LEASEWATCH_IT_API_KEY'];
if (providerUrl === undefined || dataDir === undefined || commandsJson === undefined || apiKey === undefined) {
  throw new Error('usage: LEASEWATCH_IT_API_KEY=… host-child.ts <providerUrl> <dataDir> <commands JSON>');
}
const commands = JSON.parse(commandsJson) as Command[];

// stdout is a pipe: on Linux each write is synchronous, so a printed line was really emitted.
const say = (event: ChildEvent): void => void process.stdout.write(`${JSON.stringify(event)}\n`);

const host = await createHost({
  config: parseCreateosConfig({ apiUrl: providerUrl, apiKey }),
  providerKind: 'createos-local',
  mode: 'browser',
  version: 'test',
  dataDir,
  secretStore: new FileSecretStore(join(dataDir, 'secrets')),
  discoveryIntervalMs: 500,
  log: (line) => void process.stderr.write(`${line}\n`),
});
const { services } = host;

const verdicts = new Map<string, string>();
const tailed = new Set<string>();
services.leases.watch((event) => {
  const leases = event.type === 'snapshot' ? event.leases : event.type === 'upsert' ? [event.lease] : [];
  for (const lease of leases) {
    const verdict = JSON.stringify([lease.verdict, lease.guard]);
    if (lease.verdict.status === 'unproven' && verdicts.get(lease.id) !== verdict) {
      say({ kind: 'unproven', leaseId: lease.id, verdict: lease.verdict, guard: lease.guard });
    }
    verdicts.set(lease.id, verdict);
    for (const { processId } of lease.processes) {
      const key = `${lease.id}/${processId}`;
      if (tailed.has(key)) continue;
      tailed.add(key);
      services.processes.tail(lease.id, processId, (tail) => {
        for (const entry of tail.entries) {
          if (entry.kind === 'text') say({ kind: 'output', leaseId: lease.id, processId, seq: entry.seq, text: entry.text });
        }
      });
    }
  }
});

await services.leases.refresh();
for (const { leaseId, command, timeoutSeconds } of commands) {
  await services.processes.run({ leaseId, command, ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }) }, 'crash-test');
  say({ kind: 'started', leaseId, command });
}
say({ kind: 'ready' });
