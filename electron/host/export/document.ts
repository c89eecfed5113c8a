// Builds the export document (before redaction) from the host's input: scope selection, stable
// ordering, tails as text, and the provider URL without credentials.
import type { ContainmentVerdict, DestroyProgress, Evidence, StreamHealth } from '../../../shared/domain';
import type { IncidentEnvironment, IncidentInput, IncidentScope, LeaseRecord, OperatorAction, ReconnectEvent } from './incident-input';
import type { Manifest } from './manifest';
import type { RedactionKind, Redactor } from './redact';
import { PendingStream } from './tail-redact';
import { planTail, type TailWindow } from './tail-text';

export const EXPORT_FORMAT = 'leasewatch-incident/1';

/** A process of the export; before the redaction pass its output is still a `PendingStream`. */
export interface ExportProcess<Output = string> {
  processId: string;
  command: string | null;
  state: string;
  exitCode: number | null;
  signal: string | null;
  leaderExited: boolean | null;
  treeExited: boolean | null;
  startedByConsole: boolean | null;
  createdAt: string | null;
  stream: StreamHealth | null;
  stdout: Output;
  stderr: Output;
}

export interface ExportLease<Output = string> {
  id: string;
  name: string | null;
  status: string;
  rawStatus: string;
  shape: string | null;
  createdAt: string | null;
  guard: string;
  gone: boolean;
  lastOutputAt: number | null;
  reconnectCount: number;
  destroy: DestroyProgress | null;
  verdict: ContainmentVerdict;
  evidence: Evidence[];
  timeline: { at: number; kind: string; summary: string; detail: string | null; actor: string | null }[];
  reconnects: ReconnectEvent[];
  processes: ExportProcess<Output>[];
}

export interface ExportBody<Output = string> {
  format: typeof EXPORT_FORMAT;
  generatedAt: string;
  scope: IncidentScope;
  environment: IncidentEnvironment;
  leases: ExportLease<Output>[];
  operatorActions: OperatorAction[];
}

export interface RedactionSummary {
  count: number;
  kinds: { kind: RedactionKind; count: number }[];
}

/** The export file's content. */
export interface IncidentDocument extends ExportBody {
  redactions: RedactionSummary;
  manifest: Manifest;
}

const byAt = <T extends { at: number }>(items: readonly T[]): T[] => [...items].sort((a, b) => a.at - b.at);

export function buildBody(input: IncidentInput, redactor: Redactor): ExportBody<PendingStream> {
  const window = input.scope.kind === 'window' ? { from: input.scope.from, to: input.scope.to } : undefined;
  const scope = input.scope;
  const selected = input.leases
    .filter((record) => (window ? touchesWindow(record, input.operatorActions, window) : scope.kind === 'lease' && record.lease.id === scope.leaseId))
    .sort((a, b) => (a.lease.id < b.lease.id ? -1 : a.lease.id > b.lease.id ? 1 : 0));
  const actions = input.operatorActions.filter((action) => (window ? within(action.at, window) : scope.kind === 'lease' && action.leaseId === scope.leaseId));
  return {
    format: EXPORT_FORMAT,
    generatedAt: new Date(input.generatedAt).toISOString(),
    scope: input.scope,
    environment: { ...input.environment, providerUrl: cleanProviderUrl(input.environment.providerUrl, redactor) },
    leases: selected.map((record) => exportLease(record, window)),
    operatorActions: byAt(actions),
  };
}

function within(at: number, window: TailWindow): boolean {
  return at >= window.from && at <= window.to;
}

/** Whether anything recorded about the lease (or done to it) falls in the window. */
export function touchesWindow(record: LeaseRecord, actions: readonly OperatorAction[], window: TailWindow): boolean {
  const times = [
    ...record.timeline.map((e) => e.at),
    ...record.evidence.map((e) => e.at),
    ...record.reconnects.map((e) => e.at),
    ...record.tails.flatMap((tail) => tail.entries.map((e) => e.at)),
    ...actions.filter((a) => a.leaseId === record.lease.id).map((a) => a.at),
  ];
  return times.some((at) => within(at, window));
}

/**
 * One lease. In a window export, timeline, reconnects and output are cut to the window (output after
 * it is redacted whole); the evidence is kept whole, because it is what the verdict stands on.
 */
function exportLease(record: LeaseRecord, window: TailWindow | undefined): ExportLease<PendingStream> {
  const { lease } = record;
  const inWindow = <T extends { at: number }>(items: readonly T[]): T[] => byAt(window ? items.filter((i) => within(i.at, window)) : items);
  const known = new Map(lease.processes.map((p) => [p.processId, p]));
  const ids = [...lease.processes.map((p) => p.processId), ...record.tails.map((t) => t.processId).filter((id) => !known.has(id))];
  const processes = [...new Set(ids)].map((processId): ExportProcess<PendingStream> => {
    const info = known.get(processId);
    const entries = record.tails.filter((t) => t.processId === processId).flatMap((t) => t.entries);
    const plan = planTail(entries, window);
    return {
      processId,
      command: info?.command ?? null,
      state: info?.state ?? 'unknown',
      exitCode: info?.exitCode ?? null,
      signal: info?.signal ?? null,
      leaderExited: info?.leaderExited ?? null,
      treeExited: info?.treeExited ?? null,
      startedByConsole: info?.startedByConsole ?? null,
      createdAt: info?.createdAt ?? null,
      stream: info?.stream ?? null,
      stdout: new PendingStream(plan.stdout),
      stderr: new PendingStream(plan.stderr),
    };
  });
  return {
    id: lease.id,
    name: lease.name,
    status: lease.status,
    rawStatus: lease.rawStatus,
    shape: lease.shape,
    createdAt: lease.createdAt,
    guard: lease.guard,
    gone: lease.gone,
    lastOutputAt: lease.lastOutputAt,
    reconnectCount: lease.reconnects,
    destroy: lease.destroy,
    verdict: lease.verdict,
    evidence: record.evidence,
    timeline: inWindow(record.timeline).map((e) => ({ at: e.at, kind: e.kind, summary: e.summary, detail: e.detail ?? null, actor: e.actor ?? null })),
    reconnects: inWindow(record.reconnects),
    processes,
  };
}

/** The provider URL without user info, query or fragment; each removal is recorded as a redaction. */
export function cleanProviderUrl(raw: string, redactor: Redactor): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    redactor.record('url-credentials', 'environment.providerUrl', 'unparseable URL replaced whole');
    return '[REDACTED:url-credentials]';
  }
  if (url.username !== '' || url.password !== '') {
    url.username = '';
    url.password = '';
    redactor.record('url-credentials', 'environment.providerUrl', 'user info removed');
  }
  if (url.search !== '' || url.hash !== '') {
    url.search = '';
    url.hash = '';
    redactor.record('url-query', 'environment.providerUrl', 'query and fragment removed');
  }
  return url.toString();
}
