// An in-memory ConsoleClient for component tests: leases, tails and settings held here, with
// controllable event streams (watch, tail) and controllable slow calls (destroy, destroyMany, stop).
import type {
  ConsoleClient, ContractInputs, ContractOutputs, Environment, IncidentFile, LeaseEvent, RedactionPreview, SystemInfo, TailEvent,
} from '../../../shared/contract';
import type { Lease, TailEntry, TimelineEntry } from '../../../shared/domain';
import { AsyncChannel, deferred, type Deferred } from './async-channel';
import { makeLease } from './lease-fixtures';

type Inputs = ContractInputs;
type Outputs = ContractOutputs;

export interface RecordedCall {
  readonly path: string;
  readonly input: unknown;
}

interface TailSource {
  entries: TailEntry[];
  readonly subscribers: Set<AsyncChannel<TailEvent>>;
}

export class FakeConsole {
  readonly leases = new Map<string, Lease>();
  readonly calls: RecordedCall[] = [];
  readonly timelines = new Map<string, TimelineEntry[]>();
  readonly pendingDestroys = new Map<string, Deferred<Lease>>();
  /** Keys the "host" stored: never sent back through the client. */
  readonly storedKeys = new Map<string, string>();
  environments: Environment[] = [
    { id: 'local', name: 'Embedded', url: 'http://127.0.0.1:7001', kind: 'createos-local', apiKeySet: false, active: true },
  ];
  info: SystemInfo = { version: '0.1.0', mode: 'browser', providerUrl: 'http://127.0.0.1:7001', providerKind: 'createos-local', apiKeySet: false, queuedRequests: 0 };
  preview: RedactionPreview = { leases: 1, redactions: [{ kind: 'api-key', count: 2, samples: ['Bearer ****'] }] };
  exportFile: IncidentFile = { fileName: 'incident.json', mimeType: 'application/json', content: '{}', sha256: 'a'.repeat(64) };
  testResult = { ok: true, message: 'Connected: 3 sandboxes listed.' };
  /** When set, destroyMany waits for it; otherwise every lease is reported destroyed. */
  destroyManyResult: Deferred<Outputs['leases']['destroyMany']> | null = null;
  stopResult: Deferred<{ treeExited: boolean }> | null = null;
  now: () => number = () => Date.now();
  private readonly watchers = new Set<AsyncChannel<LeaseEvent>>();
  private readonly tails = new Map<string, TailSource>();
  private nextLease = 1;

  constructor(leases: readonly Lease[] = []) {
    for (const lease of leases) this.leases.set(lease.id, lease);
  }

  readonly client: ConsoleClient = {
    leases: {
      list: () => this.record('leases.list', undefined, () => [...this.leases.values()]),
      get: (input: Inputs['leases']['get']) => this.record('leases.get', input, () => this.lease(input.leaseId)),
      create: (input: Inputs['leases']['create']) =>
        this.record('leases.create', input, () => {
          const lease = makeLease({ id: `new-lease-${this.nextLease++}`, name: input.name ?? null });
          this.upsert(lease);
          return lease;
        }),
      destroy: (input: Inputs['leases']['destroy']) => this.destroy(input),
      pause: (input: Inputs['leases']['pause']) =>
        this.record('leases.pause', input, () => {
          const lease = { ...this.lease(input.leaseId), status: 'paused' as const, rawStatus: 'paused' };
          this.upsert(lease);
          return lease;
        }),
      resume: (input: Inputs['leases']['resume']) =>
        this.record('leases.resume', input, () => {
          const lease = { ...this.lease(input.leaseId), status: 'running' as const, rawStatus: 'running' };
          this.upsert(lease);
          return { lease, resumed: true, expired: null };
        }),
      destroyMany: async (input: Inputs['leases']['destroyMany']) => {
        this.calls.push({ path: 'leases.destroyMany', input });
        if (this.destroyManyResult) return this.destroyManyResult.promise;
        return { results: input.leaseIds.map((leaseId) => ({ leaseId, ok: true, message: null })) };
      },
      clear: (input: Inputs['leases']['clear']) => this.record('leases.clear', input, () => ({ cleared: this.leases.delete(input.leaseId) })),
      timeline: (input: Inputs['leases']['timeline']) => this.record('leases.timeline', input, () => this.timelines.get(input.leaseId) ?? []),
      refresh: () => this.record('leases.refresh', undefined, () => ({ leases: this.leases.size })),
      watch: (_input?: unknown, options?: { signal?: AbortSignal }) =>
        this.record('leases.watch', undefined, () => {
          const channel = new AsyncChannel<LeaseEvent>(options?.signal);
          channel.push({ type: 'snapshot', leases: [...this.leases.values()] });
          this.watchers.add(channel);
          return channel.iterator();
        }),
    },
    processes: {
      run: (input: Inputs['processes']['run']) => this.record('processes.run', input, () => ({ runId: `run-${this.calls.length}` })),
      stop: async (input: Inputs['processes']['stop']) => {
        this.calls.push({ path: 'processes.stop', input });
        return this.stopResult ? this.stopResult.promise : { treeExited: true };
      },
      tail: (input: Inputs['processes']['tail'], options?: { signal?: AbortSignal }) =>
        this.record('processes.tail', input, () => {
          const source = this.tailSource(input.leaseId, input.processId);
          const channel = new AsyncChannel<TailEvent>(options?.signal);
          channel.push({ type: 'replay', processId: input.processId, entries: [...source.entries] });
          source.subscribers.add(channel);
          return channel.iterator();
        }),
    },
    incidents: {
      preview: (input: Inputs['incidents']['preview']) => this.record('incidents.preview', input, () => this.preview),
      export: (input: Inputs['incidents']['export']) => this.record('incidents.export', input, () => this.exportFile),
    },
    settings: {
      environments: () => this.record('settings.environments', undefined, () => this.environments.map((e) => ({ ...e }))),
      saveEnvironment: (input: Inputs['settings']['saveEnvironment']) =>
        this.record('settings.saveEnvironment', input, () => {
          const id = input.id ?? input.name.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
          if (input.apiKey) this.storedKeys.set(id, input.apiKey);
          const saved: Environment = { id, name: input.name, url: input.url, kind: 'createos', apiKeySet: this.storedKeys.has(id), active: false };
          this.environments = [...this.environments.filter((e) => e.id !== id), saved];
          return saved;
        }),
      removeEnvironment: (input: Inputs['settings']['removeEnvironment']) =>
        this.record('settings.removeEnvironment', input, () => {
          const before = this.environments.length;
          this.environments = this.environments.filter((e) => e.id !== input.id);
          return { removed: this.environments.length < before };
        }),
      testEnvironment: (input: Inputs['settings']['testEnvironment']) => this.record('settings.testEnvironment', input, () => this.testResult),
      activateEnvironment: (input: Inputs['settings']['activateEnvironment']) =>
        this.record('settings.activateEnvironment', input, () => {
          this.environments = this.environments.map((e) => ({ ...e, active: e.id === input.id }));
          const active = this.environments.find((e) => e.id === input.id);
          if (!active) throw new Error(`No environment ${input.id}.`);
          return active;
        }),
    },
    system: {
      info: () => this.record('system.info', undefined, () => this.info),
    },
  };

  /** Every call made to a procedure, in order. */
  callsTo(path: string): unknown[] {
    return this.calls.filter((c) => c.path === path).map((c) => c.input);
  }

  lease(leaseId: string): Lease {
    const lease = this.leases.get(leaseId);
    if (!lease) throw new Error(`Lease ${leaseId} is not known to the console.`);
    return lease;
  }

  /** Changes a lease and pushes the upsert to every open watch. */
  upsert(lease: Lease): void {
    this.leases.set(lease.id, lease);
    this.emit({ type: 'upsert', lease });
  }

  update(leaseId: string, change: (lease: Lease) => Partial<Lease>): Lease {
    const current = this.lease(leaseId);
    const next = { ...current, ...change(current) };
    this.upsert(next);
    return next;
  }

  remove(leaseId: string): void {
    this.leases.delete(leaseId);
    this.emit({ type: 'removed', leaseId });
  }

  emit(event: LeaseEvent): void {
    for (const watcher of this.watchers) watcher.push(event);
  }

  /** Drops every open watch (as a lost connection would). */
  dropWatches(error = new Error('connection lost')): void {
    for (const watcher of this.watchers) watcher.fail(error);
    this.watchers.clear();
  }

  /** Live output: stored (for later replays) and pushed to every open tail of the process. */
  pushTail(leaseId: string, processId: string, entries: TailEntry[]): void {
    const source = this.tailSource(leaseId, processId);
    source.entries = [...source.entries, ...entries];
    for (const subscriber of source.subscribers) subscriber.push({ type: 'entries', processId, entries });
  }

  /** Breaks every open tail of the process (as a lost connection would). */
  failTails(leaseId: string, processId: string, error = new Error('connection lost')): void {
    const source = this.tailSource(leaseId, processId);
    for (const subscriber of source.subscribers) subscriber.fail(error);
    source.subscribers.clear();
  }

  openTails(leaseId: string, processId: string): number {
    return [...this.tailSource(leaseId, processId).subscribers].filter((s) => !s.closed).length;
  }

  /** The host confirms the sandbox gone: the lease becomes contained with the proof. */
  confirmDestroy(leaseId: string, proof: string): Lease {
    const at = this.now();
    const lease = this.update(leaseId, (l) => ({
      gone: true,
      status: 'destroyed',
      rawStatus: 'destroyed',
      verdict: { status: 'contained', reasons: [], since: at },
      destroy: { state: 'destroyed', startedAt: l.destroy?.startedAt ?? at, finishedAt: at, attempts: 1, reason: l.destroy?.reason ?? '', requestedBy: 'operator', proof, error: null },
    }));
    this.pendingDestroys.get(leaseId)?.resolve(lease);
    this.pendingDestroys.delete(leaseId);
    return lease;
  }

  failDestroy(leaseId: string, message: string): void {
    const at = this.now();
    this.update(leaseId, (l) => ({
      destroy: { state: 'failed', startedAt: l.destroy?.startedAt ?? at, finishedAt: at, attempts: 5, reason: l.destroy?.reason ?? '', requestedBy: 'operator', proof: null, error: message },
    }));
    this.pendingDestroys.get(leaseId)?.reject(new Error(message));
    this.pendingDestroys.delete(leaseId);
  }

  private destroy(input: Inputs['leases']['destroy']): Promise<Lease> {
    this.calls.push({ path: 'leases.destroy', input });
    const current = this.leases.get(input.leaseId);
    if (!current) return Promise.reject(new Error(`Lease ${input.leaseId} is not known to the console.`));
    this.update(input.leaseId, () => ({
      destroy: { state: 'destroying', startedAt: this.now(), finishedAt: null, attempts: 1, reason: input.reason, requestedBy: 'operator', proof: null, error: null },
    }));
    const pending = deferred<Lease>();
    this.pendingDestroys.set(input.leaseId, pending);
    return pending.promise;
  }

  private tailSource(leaseId: string, processId: string): TailSource {
    const key = `${leaseId}/${processId}`;
    let source = this.tails.get(key);
    if (!source) {
      source = { entries: [], subscribers: new Set() };
      this.tails.set(key, source);
    }
    return source;
  }

  private record<T>(path: string, input: unknown, answer: () => T): Promise<T> {
    this.calls.push({ path, input });
    try {
      return Promise.resolve(answer());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
