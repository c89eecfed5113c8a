// One provider session: everything that talks to one CreateOS environment, with its own lease
// store and journal. The host runs one session at a time and swaps it when the operator activates
// another environment.
import { join } from 'node:path';
import { CreateosClient } from './createos/client';
import type { CreateosConfig } from './createos/config';
import { IncidentService } from './incidents/incident-service';
import { DestroyWorkflow } from './leases/destroy-workflow';
import { Discovery } from './leases/discovery';
import { LeaseLifecycle } from './leases/lease-lifecycle';
import { LeaseService } from './leases/lease-service';
import { LifecycleGuard } from './lifecycle/lifecycle-guard';
import { LeaseJournal } from './persistence/lease-journal';
import { CommandRunner } from './processes/command-runner';
import { ProcessWatcher } from './processes/process-watcher';
import { LeaseStore } from './state/lease-store';

export interface SessionOptions {
  environmentId: string;
  config: CreateosConfig;
  dataDir: string;
  appVersion: string;
  secrets: () => string[];
  defaultShape?: string;
  discoveryIntervalMs?: number;
  tailBytes?: number;
  journalMaxBytes?: number;
  log: (line: string) => void;
}

export interface ProviderSession {
  readonly environmentId: string;
  readonly client: CreateosClient;
  readonly store: LeaseStore;
  readonly leases: LeaseService;
  readonly commands: CommandRunner;
  readonly incidents: IncidentService;
  dispose(): Promise<void>;
}

export async function openSession(options: SessionOptions): Promise<ProviderSession> {
  const { log } = options;
  const journal = await LeaseJournal.open(join(options.dataDir, 'journal', options.environmentId), {
    onProblem: log,
    ...(options.journalMaxBytes === undefined ? {} : { maxBytes: options.journalMaxBytes }),
  });
  const store = new LeaseStore({ persistence: journal, ...(options.tailBytes === undefined ? {} : { tailBytes: options.tailBytes }) });
  const restored = await journal.restoreInto(store);
  for (const problem of restored.skipped) log(`journal: ${problem}`);
  if (restored.leases > 0) log(`journal: restored ${restored.leases} lease(s) from ${restored.records} record(s)`);

  // A command whose output is evicted before it was read fails with the spec's eviction error
  // (and a gap marker in its tail); processes the console only follows show the loss as a gap.
  const client = new CreateosClient({ config: options.config });
  const guard = new LifecycleGuard((leaseId) => {
    if (store.has(leaseId)) store.update(leaseId, (record) => { record.guard = guard.state(leaseId); });
  });
  for (const leaseId of restored.unconfirmed) guard.markUnconfirmed(leaseId);
  const watcher = new ProcessWatcher(client.api, store);
  const discovery = new Discovery({
    api: client.api,
    store,
    watcher,
    ...(options.discoveryIntervalMs === undefined ? {} : { intervalMs: options.discoveryIntervalMs }),
    onError: (message) => log(`discovery: ${message}`),
  });
  const destroyer = new DestroyWorkflow({ api: client.api, store, guard, onGone: (leaseId) => watcher.stopLease(leaseId) });
  const recordAction = (entry: { leaseId: string; actor: string; action: string; detail: string }): void => {
    if (store.has(entry.leaseId)) store.update(entry.leaseId, (r) => r.note({ at: Date.now(), kind: 'operator', summary: entry.action, detail: entry.detail || null, actor: entry.actor }));
    log(`${entry.actor}: ${entry.action} ${entry.leaseId}`);
  };
  const lifecycle = new LeaseLifecycle({ api: client.api, store, guard });
  const leases = new LeaseService({ api: client.api, store, discovery, destroyer, lifecycle, defaultShape: options.defaultShape ?? 's-1vcpu-1gb', onActivity: recordAction });
  const commands = new CommandRunner({ api: client.api, executor: client.executor, store, guard, watcher, onActivity: recordAction });
  const incidents = new IncidentService({ store, appVersion: options.appVersion, providerUrl: options.config.origin, secrets: options.secrets });
  discovery.start();

  return {
    environmentId: options.environmentId,
    client,
    store,
    leases,
    commands,
    incidents,
    async dispose() {
      discovery.dispose();
      guard.shutdown();
      watcher.dispose();
      store.dispose();
      await journal.dispose();
      await client.dispose();
    },
  };
}
