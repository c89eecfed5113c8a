// "Run command" and "Stop process": commands go through the execute rules (spec §4) under the
// lease's lifecycle guard; everything they prove or fail to prove becomes evidence on the lease.
import { randomUUID } from 'node:crypto';
import type { ContractInputs } from '../../../shared/contract';
import type { CreateosApi } from '../createos/api';
import { CreateosCleanupError, CreateosError } from '../createos/errors';
import type { CleanupOutcome, CommandExecutor } from '../createos/execute';
import { HostError } from '../host-error';
import type { LifecycleGuard } from '../lifecycle/lifecycle-guard';
import type { LeaseStore } from '../state/lease-store';
import type { ProcessWatcher } from './process-watcher';
import { streamEventSink } from './stream-sink';
import { recordTreeOutcome } from './tree-check';

export interface CommandRunnerOptions {
  api: CreateosApi;
  executor: CommandExecutor;
  store: LeaseStore;
  guard: LifecycleGuard;
  watcher: ProcessWatcher;
  graceMs?: number;
  now?: () => number;
  onActivity?: (summary: { leaseId: string; actor: string; action: string; detail: string }) => void;
}

type RunInput = ContractInputs['processes']['run'];

export class CommandRunner {
  private readonly now: () => number;

  constructor(private readonly options: CommandRunnerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Starts a command; resolves once the provider confirmed its process (or refused it). */
  run(input: RunInput, actor: string): Promise<{ runId: string }> {
    const { store, guard } = this.options;
    const record = store.record(input.leaseId);
    if (record.gone) return Promise.reject(new HostError('CONFLICT', `Lease ${input.leaseId} is destroyed.`));
    const runId = randomUUID();
    this.options.onActivity?.({ leaseId: input.leaseId, actor, action: 'run command', detail: input.command });
    return new Promise((resolve, reject) => {
      let started = false;
      const onStarted = (): void => {
        started = true;
        resolve({ runId });
      };
      guard
        .track(input.leaseId, (signal) => this.execute(input, signal, onStarted))
        .catch((error: unknown) => {
          if (!started) reject(error instanceof Error ? error : new Error(String(error)));
        });
    });
  }

  private async execute(input: RunInput, signal: AbortSignal, onStarted: () => void): Promise<void> {
    const { executor, store, watcher, api, guard } = this.options;
    const leaseId = input.leaseId;
    let processId: string | null = null;
    let sink: ReturnType<typeof streamEventSink> | null = null;
    let keepWatching = false;
    const created = watcher.creatingOn(leaseId);
    try {
      const result = await executor.execute(
        {
          sandboxId: leaseId,
          command: '/bin/bash',
          args: ['-c', input.command],
          signal,
          ...(input.timeoutSeconds === undefined ? {} : { timeoutMs: input.timeoutSeconds * 1000 }),
          ...(input.stdin === undefined ? {} : { stdin: input.stdin }),
        },
        {
          onProcessId: (id) => {
            processId = id;
            watcher.claim(leaseId, id);
            created();
            store.update(leaseId, (record) => {
              const listedAlready = record.processes.has(id);
              record.upsertProcess(leaseId, { process_id: id, state: 'running' }, { command: input.command, startedByConsole: true });
              if (!listedAlready) record.addEvidence({ kind: 'process-started', at: this.now(), processId: id });
            });
            sink = streamEventSink(store, leaseId, id, this.now);
            onStarted();
          },
          onEvent: (event) => sink?.(event),
          onCleanup: (outcome) => this.recordCleanup(leaseId, outcome),
        },
      );
      if (processId !== null && !result.timedOut) await recordTreeOutcome(api, store, leaseId, processId, this.now);
      if (processId !== null && result.timedOut) {
        store.tail(leaseId, processId).append({ kind: 'exit', exitCode: null, signal: 'timeout', at: this.now() });
        await this.refreshProcess(leaseId, processId);
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : 'command failed';
      if (error instanceof CreateosCleanupError) {
        guard.markUnconfirmed(leaseId);
        // The tree may still run: keep showing what it writes until the lease is destroyed.
        keepWatching = error.code === 'cleanup_unconfirmed';
        if (error.code === 'creation_unconfirmed') {
          store.update(leaseId, (record) => record.addEvidence({
            kind: 'lease-unproven', at: this.now(), reason: message,
            call: `POST /v1/sandboxes/${leaseId}/processes`, reply: 'no confirmed answer (connection lost, timeout or server error)',
          }));
        }
      } else if (processId !== null && error instanceof CreateosError) {
        store.tail(leaseId, processId).append({ kind: 'gap', lostBytes: null, reason: message, at: this.now() });
      }
      if (processId !== null) await this.refreshProcess(leaseId, processId);
      throw error;
    } finally {
      created();
      if (processId !== null) {
        watcher.release(leaseId, processId);
        if (keepWatching) watcher.followAgain(leaseId, processId);
      }
    }
  }

  private recordCleanup(leaseId: string, outcome: CleanupOutcome): void {
    const call = `DELETE /v1/sandboxes/${leaseId}/processes/${outcome.processId}?grace_ms=${this.options.graceMs ?? 1000}`;
    this.options.store.update(leaseId, (record) => {
      if (outcome.result === 'unconfirmed') {
        record.addEvidence({ kind: 'process-unproven', at: outcome.at, processId: outcome.processId, reason: 'Process tree has not exited.', call, reply: outcome.detail });
      } else {
        record.addEvidence({ kind: 'tree-exit-proven', at: outcome.at, processId: outcome.processId, call });
      }
    });
  }

  private async refreshProcess(leaseId: string, processId: string): Promise<void> {
    try {
      const facts = await this.options.api.getProcess(leaseId, processId, { signal: AbortSignal.timeout(10_000) });
      this.options.store.update(leaseId, (record) => record.upsertProcess(leaseId, facts));
    } catch {
      // The next discovery cycle tries again; evidence already says what is unproven.
    }
  }

  /** Stops one process tree: DELETE with grace; only tree_exited === true proves it. */
  async stop(leaseId: string, processId: string, actor: string): Promise<{ treeExited: boolean }> {
    const { api, store, guard } = this.options;
    store.record(leaseId);
    this.options.onActivity?.({ leaseId, actor, action: 'stop process', detail: processId });
    const graceMs = this.options.graceMs ?? 1000;
    const call = `DELETE /v1/sandboxes/${leaseId}/processes/${processId}?grace_ms=${graceMs}`;
    return guard.serialize(leaseId, async () => {
      try {
        const reply = await api.deleteProcess(leaseId, processId, graceMs);
        const treeExited = reply === null || reply.tree_exited === true;
        store.update(leaseId, (record) => {
          if (reply) record.upsertProcess(leaseId, reply);
          if (treeExited) record.addEvidence({ kind: 'tree-exit-proven', at: this.now(), processId, call });
          else record.addEvidence({ kind: 'process-unproven', at: this.now(), processId, reason: 'Process tree has not exited.', call, reply: `tree_exited=${String(reply?.tree_exited)}` });
        });
        if (!treeExited) guard.markUnconfirmed(leaseId);
        return { treeExited };
      } catch (error) {
        const message = error instanceof Error ? error.message : 'stop failed';
        guard.markUnconfirmed(leaseId);
        store.update(leaseId, (record) => record.addEvidence({ kind: 'process-unproven', at: this.now(), processId, reason: 'Stopping the process failed; its tree may still run.', call, reply: message }));
        throw error;
      }
    });
  }
}
