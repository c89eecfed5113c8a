// The composition root of the host: builds every part once, wires them, and disposes them in order.
// The same host runs in the Electron main process and in the browser-mode server.
import type { SystemInfo } from '../../shared/contract';
import { CreateosClient } from './createos/client';
import type { CreateosConfig } from './createos/config';
import { DestroyWorkflow } from './leases/destroy-workflow';
import { Discovery } from './leases/discovery';
import { LeaseService } from './leases/lease-service';
import { LifecycleGuard } from './lifecycle/lifecycle-guard';
import { CommandRunner } from './processes/command-runner';
import { ProcessWatcher } from './processes/process-watcher';
import { createHostRouter, type HostRouter } from './routers';
import type { HostServices } from './services';
import { LeaseStore } from './state/lease-store';
import { SystemService } from './system-service';

export interface HostOptions {
  config: CreateosConfig;
  providerKind: SystemInfo['providerKind'];
  mode: SystemInfo['mode'];
  version: string;
  defaultShape?: string;
  discoveryIntervalMs?: number;
  tailBytes?: number;
  log?: (line: string) => void;
}

export interface Host {
  readonly services: HostServices;
  readonly router: HostRouter;
  dispose(): Promise<void>;
}

export function createHost(options: HostOptions): Host {
  const log = options.log ?? (() => undefined);
  const client = new CreateosClient({ config: options.config });
  const store = new LeaseStore(options.tailBytes);
  const guard = new LifecycleGuard((leaseId) => {
    if (store.has(leaseId)) store.update(leaseId, (record) => { record.guard = guard.state(leaseId); });
  });
  const watcher = new ProcessWatcher(client.api, store);
  const discovery = new Discovery({
    api: client.api,
    store,
    watcher,
    ...(options.discoveryIntervalMs === undefined ? {} : { intervalMs: options.discoveryIntervalMs }),
    onError: (message) => log(`discovery: ${message}`),
  });
  const destroyer = new DestroyWorkflow({ api: client.api, store, guard, onGone: (leaseId) => watcher.stopLease(leaseId) });
  const activity = (entry: { leaseId: string; actor: string; action: string; detail: string }): void => log(`${entry.actor}: ${entry.action} ${entry.leaseId}`);
  const leases = new LeaseService({ api: client.api, store, discovery, destroyer, defaultShape: options.defaultShape ?? 's-1vcpu-1gb', onActivity: activity });
  const commands = new CommandRunner({ api: client.api, executor: client.executor, store, guard, watcher, onActivity: activity });
  const system = new SystemService({
    version: options.version,
    mode: options.mode,
    providerUrl: options.config.origin,
    providerKind: options.providerKind,
    apiKeySet: options.config.apiKey.length > 0,
    queuedRequests: () => client.queuedRequests,
  });

  const services: HostServices = {
    leases,
    processes: {
      run: (input, actor) => commands.run(input, actor),
      stop: (leaseId, processId, actor) => commands.stop(leaseId, processId, actor),
      tail: (leaseId, processId, listener) => {
        store.record(leaseId);
        const tail = store.tail(leaseId, processId);
        const unsubscribe = tail.subscribe((entries) => listener({ type: 'entries', processId, entries }));
        listener({ type: 'replay', processId, entries: tail.snapshot() });
        return unsubscribe;
      },
    },
    system,
  };
  discovery.start();

  return {
    services,
    router: createHostRouter(services),
    async dispose() {
      discovery.dispose();
      guard.shutdown();
      watcher.dispose();
      store.dispose();
      await client.dispose();
    },
  };
}
