// Incident exports: gathers what the host recorded about the leases in scope and hands it to the
// pure export builder, which redacts secrets and hashes every section. Exporting is itself recorded.
import { createHash } from 'node:crypto';
import type { IncidentFile, IncidentScope, RedactionPreview } from '../../../shared/contract';
import type { TimelineEntry } from '../../../shared/domain';
import { buildIncidentExport, previewRedactions, type IncidentInput } from '../export';
import { HostError } from '../host-error';
import type { IncidentOperations } from '../services';
import type { LeaseRecord } from '../state/lease-record';
import type { LeaseStore } from '../state/lease-store';

export interface IncidentServiceOptions {
  store: LeaseStore;
  appVersion: string;
  providerUrl: string;
  /** Every secret the host knows (API keys): never in an export. */
  secrets: () => string[];
  secretPatterns?: RegExp[];
  now?: () => number;
}

const defaultPatterns = [/sk-[A-Za-z0-9_-]{6,}/g];

function within(at: number, scope: IncidentScope): boolean {
  return scope.kind === 'lease' || (at >= scope.from && at <= scope.to);
}

export class IncidentService implements IncidentOperations {
  private readonly now: () => number;

  constructor(private readonly options: IncidentServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  private recordsIn(scope: IncidentScope): LeaseRecord[] {
    const { store } = this.options;
    if (scope.kind === 'lease') return [store.record(scope.leaseId)];
    return store.allRecords().filter((record) => record.timeline.some((entry) => within(entry.at, scope)));
  }

  private input(scope: IncidentScope): IncidentInput {
    const { store } = this.options;
    const records = this.recordsIn(scope);
    if (records.length === 0) throw new HostError('NOT_FOUND', 'No lease has recorded activity in that time window.');
    const leases = records.map((record) => {
      const leaseId = record.sandbox.id;
      const tails = [...store.tailsOf(leaseId)].map(([processId, tail]) => ({ processId, entries: tail.snapshot().filter((e) => within(e.at, scope)) }));
      const reconnects = tails.flatMap(({ processId, entries }) => entries.flatMap((e) => (e.kind === 'reconnect' ? [{ at: e.at, processId, count: e.count, reason: e.reason }] : [])));
      return { lease: record.toLease(), timeline: record.timeline.filter((e) => within(e.at, scope)), evidence: [...record.evidence], reconnects, tails };
    });
    const operatorActions = records.flatMap((record) => record.timeline
      .filter((entry: TimelineEntry) => entry.kind === 'operator' && within(entry.at, scope))
      .map((entry) => ({ at: entry.at, actor: entry.actor ?? 'unknown', action: entry.summary, leaseId: record.sandbox.id, reason: entry.detail ?? '' })));
    return {
      scope,
      generatedAt: this.now(),
      environment: { appVersion: this.options.appVersion, nodeVersion: process.version, platform: `${process.platform}-${process.arch}`, providerUrl: this.options.providerUrl },
      leases,
      operatorActions,
    };
  }

  private redaction() {
    return { secrets: this.options.secrets().filter((s) => s.length > 0), secretPatterns: [...defaultPatterns, ...(this.options.secretPatterns ?? [])] };
  }

  preview(scope: IncidentScope): Promise<RedactionPreview> {
    const preview = previewRedactions(this.input(scope), this.redaction());
    return Promise.resolve({ leases: preview.leases, redactions: preview.kinds.map(({ kind, count, samples }) => ({ kind, count, samples })) });
  }

  export(scope: IncidentScope, format: 'json' | 'html', actor: string): Promise<IncidentFile> {
    const built = buildIncidentExport(this.input(scope), this.redaction());
    const content = format === 'json' ? built.json : built.html;
    const at = this.now();
    for (const record of this.recordsIn(scope)) {
      this.options.store.update(record.sandbox.id, (r) => r.note({ at, kind: 'operator', summary: 'export incident log', detail: format, actor }));
    }
    return Promise.resolve({
      fileName: format === 'json' ? built.fileName : built.htmlFileName,
      mimeType: format === 'json' ? 'application/json' : 'text/html',
      content,
      sha256: createHash('sha256').update(content).digest('hex'),
    });
  }
}
