// Incident exports: gathers what the host recorded about the leases in scope and hands it to the
// pure export builder, which selects, cuts to the window, redacts secrets and hashes every section.
// Exporting is itself recorded.
import { createHash } from 'node:crypto';
import type { IncidentFile, IncidentScope, RedactionPreview } from '../../../shared/contract';
import type { TimelineEntry } from '../../../shared/domain';
import { buildIncidentExport, previewRedactions, touchesWindow, type IncidentInput, type LeaseRecord as ExportRecord } from '../export';
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
  /** Redacted on top of the built-in rules (which include sk- tokens in any case). */
  secretPatterns?: RegExp[];
  now?: () => number;
}

function within(at: number, scope: IncidentScope): boolean {
  return scope.kind === 'lease' || (at >= scope.from && at <= scope.to);
}

export class IncidentService implements IncidentOperations {
  private readonly now: () => number;

  constructor(private readonly options: IncidentServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * What the export needs to know about one lease, whole: the export cuts timeline, reconnects and
   * output to the window itself, after redacting them (so a cut never leaves half a secret).
   */
  private exportRecord(record: LeaseRecord): ExportRecord {
    const leaseId = record.sandbox.id;
    const tails = [...this.options.store.tailsOf(leaseId)].map(([processId, tail]) => ({ processId, entries: tail.snapshot() }));
    const reconnects = tails.flatMap(({ processId, entries }) => entries.flatMap((e) => (e.kind === 'reconnect' ? [{ at: e.at, processId, count: e.count, reason: e.reason }] : [])));
    return { lease: record.toLease(), timeline: [...record.timeline], evidence: [...record.evidence], reconnects, tails };
  }

  private operatorActions(record: LeaseRecord, scope: IncidentScope): IncidentInput['operatorActions'] {
    return record.timeline
      .filter((entry: TimelineEntry) => entry.kind === 'operator' && within(entry.at, scope))
      .map((entry) => ({ at: entry.at, actor: entry.actor ?? 'unknown', action: entry.summary, leaseId: record.sandbox.id, reason: entry.detail ?? '' }));
  }

  /** The leases in scope: for a window, those with anything recorded in it (the export's own test). */
  private inScope(scope: IncidentScope): { record: LeaseRecord; input: ExportRecord; actions: IncidentInput['operatorActions'] }[] {
    const { store } = this.options;
    const records = scope.kind === 'lease' ? [store.record(scope.leaseId)] : store.allRecords();
    const gathered = records.map((record) => ({ record, input: this.exportRecord(record), actions: this.operatorActions(record, scope) }));
    if (scope.kind === 'lease') return gathered;
    const selected = gathered.filter(({ input, actions }) => touchesWindow(input, actions, scope));
    if (selected.length === 0) throw new HostError('NOT_FOUND', 'No lease has recorded activity in that time window.');
    return selected;
  }

  private input(scope: IncidentScope): { input: IncidentInput; records: LeaseRecord[] } {
    const selected = this.inScope(scope);
    const input: IncidentInput = {
      scope,
      generatedAt: this.now(),
      environment: { appVersion: this.options.appVersion, nodeVersion: process.version, platform: `${process.platform}-${process.arch}`, providerUrl: this.options.providerUrl },
      leases: selected.map((s) => s.input),
      operatorActions: selected.flatMap((s) => s.actions),
    };
    return { input, records: selected.map((s) => s.record) };
  }

  private redaction() {
    return { secrets: this.options.secrets().filter((s) => s.length > 0), secretPatterns: [...(this.options.secretPatterns ?? [])] };
  }

  // Both work synchronously; a failure (nothing in the window, an unknown lease) rejects the promise.
  preview(scope: IncidentScope): Promise<RedactionPreview> {
    return new Promise((resolve) => {
      const preview = previewRedactions(this.input(scope).input, this.redaction());
      resolve({ leases: preview.leases, redactions: preview.kinds.map(({ kind, count, samples }) => ({ kind, count, samples })) });
    });
  }

  export(scope: IncidentScope, format: 'json' | 'html', actor: string): Promise<IncidentFile> {
    return new Promise((resolve) => resolve(this.exportNow(scope, format, actor)));
  }

  private exportNow(scope: IncidentScope, format: 'json' | 'html', actor: string): IncidentFile {
    const { input, records } = this.input(scope);
    const built = buildIncidentExport(input, this.redaction());
    const content = format === 'json' ? built.json : built.html;
    const at = this.now();
    for (const record of records) {
      this.options.store.update(record.sandbox.id, (r) => r.note({ at, kind: 'operator', summary: 'export incident log', detail: format, actor }));
    }
    return {
      fileName: format === 'json' ? built.fileName : built.htmlFileName,
      mimeType: format === 'json' ? 'application/json' : 'text/html',
      content,
      sha256: createHash('sha256').update(content).digest('hex'),
    };
  }
}
