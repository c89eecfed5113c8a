// The composition root of the host: the environments, the current provider session, and the
// services the routers call. The same host runs in the Electron main process and in the
// browser-mode server.
import type { LeaseEvent, SystemInfo } from '../../shared/contract';
import { CreateosClient } from './createos/client';
import type { CreateosConfig } from './createos/config';
import { createHostRouter, type HostRouter } from './routers';
import type { HostServices } from './services';
import { openSession, type ProviderSession, type SessionOptions } from './session';
import { EnvironmentService } from './settings/environment-service';
import type { SecretStore } from './settings/secret-store';

export interface HostOptions {
  config: CreateosConfig;
  providerKind: SystemInfo['providerKind'];
  mode: SystemInfo['mode'];
  version: string;
  dataDir: string;
  secretStore: SecretStore;
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

async function probe(config: CreateosConfig): Promise<string> {
  const client = new CreateosClient({ config });
  try {
    const who = await client.api.whoami({ signal: AbortSignal.timeout(15_000) });
    return `Connected to ${config.origin}: ${who.stats?.total ?? 0} sandbox(es).`;
  } finally {
    await client.dispose();
  }
}

export async function createHost(options: HostOptions): Promise<Host> {
  const log = options.log ?? (() => undefined);
  const builtInId = options.providerKind === 'createos-local' ? 'local' : 'default';
  let environments: EnvironmentService | null = null;
  const sessionOptions = (environmentId: string, config: CreateosConfig): SessionOptions => ({
    environmentId,
    config,
    dataDir: options.dataDir,
    appVersion: options.version,
    secrets: () => environments?.allKeys() ?? [config.apiKey],
    log,
    ...(options.defaultShape === undefined ? {} : { defaultShape: options.defaultShape }),
    ...(options.discoveryIntervalMs === undefined ? {} : { discoveryIntervalMs: options.discoveryIntervalMs }),
    ...(options.tailBytes === undefined ? {} : { tailBytes: options.tailBytes }),
  });

  let session: ProviderSession = await openSession(sessionOptions(builtInId, options.config));
  let providerKind = options.providerKind;
  const watchers = new Set<(event: LeaseEvent) => void>();
  const forward = (event: LeaseEvent): void => { for (const listener of watchers) listener(event); };
  let unwatchSession = session.store.watch((event) => { if (event.type !== 'snapshot') forward(event); });

  environments = await EnvironmentService.load({
    dataDir: options.dataDir,
    secrets: options.secretStore,
    builtIn: { id: builtInId, name: options.providerKind === 'createos-local' ? 'createos-local (embedded)' : 'CreateOS', kind: options.providerKind, config: options.config },
    probe,
    log,
    activate: async (id, config) => {
      if (id === session.environmentId) return;
      const next = await openSession(sessionOptions(id, config));
      unwatchSession();
      await session.dispose();
      session = next;
      providerKind = id === builtInId ? options.providerKind : 'createos';
      unwatchSession = session.store.watch((event) => forward(event));
    },
  });
  const settings = environments;

  const services: HostServices = {
    leases: {
      list: () => session.leases.list(),
      get: (leaseId) => session.leases.get(leaseId),
      create: (input, actor) => session.leases.create(input, actor),
      destroy: (leaseId, reason, actor) => session.leases.destroy(leaseId, reason, actor),
      pause: (leaseId, actor) => session.leases.pause(leaseId, actor),
      resume: (leaseId, actor) => session.leases.resume(leaseId, actor),
      destroyMany: (leaseIds, reason, actor) => session.leases.destroyMany(leaseIds, reason, actor),
      clear: (leaseId, actor) => session.leases.clear(leaseId, actor),
      timeline: (leaseId) => session.leases.timeline(leaseId),
      refresh: () => session.leases.refresh(),
      watch: (listener) => {
        listener({ type: 'snapshot', leases: session.leases.list() });
        watchers.add(listener);
        return () => watchers.delete(listener);
      },
    },
    processes: {
      run: (input, actor) => session.commands.run(input, actor),
      stop: (leaseId, processId, actor) => session.commands.stop(leaseId, processId, actor),
      tail: (leaseId, processId, listener) => {
        const { store } = session;
        store.record(leaseId);
        const tail = store.tail(leaseId, processId);
        const unsubscribe = tail.subscribe((entries) => listener({ type: 'entries', processId, entries }));
        listener({ type: 'replay', processId, entries: tail.snapshot() });
        return unsubscribe;
      },
    },
    incidents: {
      preview: (scope) => session.incidents.preview(scope),
      export: (scope, format, actor) => session.incidents.export(scope, format, actor),
    },
    settings,
    system: {
      info: () => ({
        version: options.version,
        mode: options.mode,
        providerUrl: session.client.http.config.origin,
        providerKind,
        apiKeySet: session.client.http.config.apiKey.length > 0,
        queuedRequests: session.client.queuedRequests,
      }),
    },
  };

  return {
    services,
    router: createHostRouter(services),
    async dispose() {
      unwatchSession();
      watchers.clear();
      await session.dispose();
    },
  };
}
