// Everything the host knows about one lease. The verdict is always derived from the evidence.
import {
  deriveVerdict, toSandboxStatus,
  type DestroyProgress, type Evidence, type GuardState, type Lease, type ProcessInfo, type StreamHealth, type TimelineEntry,
} from '../../../shared/domain';
import { describeEvidence, evidenceKind } from './describe-evidence';

/** The most timeline entries kept per lease (oldest dropped first). */
export const maxTimelineEntries = 5000;

export interface SandboxFacts {
  id: string;
  status: string;
  name?: string | undefined;
  shape?: string | undefined;
  created_at?: string | undefined;
}

export interface ProcessFacts {
  process_id: string;
  state: string;
  exit_code?: number | null | undefined;
  signal?: string | null | undefined;
  leader_exited?: boolean | undefined;
  tree_exited?: boolean | undefined;
  created_at?: string | null | undefined;
}

const processStates = new Set(['starting', 'running', 'terminating', 'exited', 'failed']);

export function freshStreamHealth(): StreamHealth {
  return { reconnects: 0, lostBytes: 0, bytesReceived: 0, attached: false, endedWithoutExit: null };
}

export class LeaseRecord {
  sandbox: SandboxFacts;
  readonly evidence: Evidence[] = [];
  timeline: TimelineEntry[] = [];
  /** Timeline entries ever added (the array itself is bounded). */
  timelineTotal = 0;
  readonly processes = new Map<string, ProcessInfo>();
  guard: GuardState = 'idle';
  /** The workspace marker written when the console created the lease (checked on resume). */
  marker: string | null = null;
  destroy: DestroyProgress | null = null;
  gone = false;

  constructor(sandbox: SandboxFacts) {
    this.sandbox = sandbox;
  }

  addEvidence(item: Evidence): void {
    this.evidence.push(item);
    this.note({ at: item.at, kind: evidenceKind(item), ...describeEvidence(item), actor: null });
  }

  note(entry: TimelineEntry): void {
    this.timeline.push(entry);
    this.timelineTotal += 1;
    if (this.timeline.length > maxTimelineEntries) this.timeline = this.timeline.slice(-maxTimelineEntries);
  }

  upsertProcess(leaseId: string, facts: ProcessFacts, extra: Partial<Pick<ProcessInfo, 'command' | 'startedByConsole'>> = {}): ProcessInfo {
    const current = this.processes.get(facts.process_id);
    const next: ProcessInfo = {
      processId: facts.process_id,
      leaseId,
      command: extra.command ?? current?.command ?? null,
      state: processStates.has(facts.state) ? (facts.state as ProcessInfo['state']) : 'unknown',
      exitCode: facts.exit_code ?? null,
      signal: facts.signal ?? null,
      leaderExited: facts.leader_exited ?? null,
      treeExited: facts.tree_exited ?? null,
      startedByConsole: extra.startedByConsole ?? current?.startedByConsole ?? false,
      createdAt: facts.created_at ?? current?.createdAt ?? null,
      lastOutputAt: current?.lastOutputAt ?? null,
      stream: current?.stream ?? freshStreamHealth(),
    };
    this.processes.set(next.processId, next);
    return next;
  }

  updateStream(processId: string, change: (health: StreamHealth, process: ProcessInfo) => Partial<StreamHealth>, at?: number): void {
    const process = this.processes.get(processId);
    if (!process) return;
    const stream = { ...process.stream, ...change(process.stream, process) };
    this.processes.set(processId, { ...process, stream, lastOutputAt: at ?? process.lastOutputAt });
  }

  runningProcessIds(): string[] {
    return [...this.processes.values()]
      .filter((p) => p.state === 'starting' || p.state === 'running' || p.state === 'terminating' || p.treeExited === false)
      .map((p) => p.processId);
  }

  toLease(): Lease {
    const processes = [...this.processes.values()];
    const lastOutput = processes.reduce<number | null>((max, p) => (p.lastOutputAt !== null && (max === null || p.lastOutputAt > max) ? p.lastOutputAt : max), null);
    return {
      id: this.sandbox.id,
      name: this.sandbox.name ?? null,
      status: this.gone ? 'destroyed' : toSandboxStatus(this.sandbox.status),
      rawStatus: this.gone ? 'destroyed' : this.sandbox.status,
      shape: this.sandbox.shape ?? null,
      createdAt: this.sandbox.created_at ?? null,
      guard: this.guard,
      verdict: deriveVerdict(this.evidence, this.gone ? [] : this.runningProcessIds()),
      processes,
      reconnects: processes.reduce((sum, p) => sum + p.stream.reconnects, 0),
      lastOutputAt: lastOutput,
      destroy: this.destroy,
      gone: this.gone,
    };
  }
}
