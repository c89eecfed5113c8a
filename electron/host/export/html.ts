// A self-contained HTML rendering of the (already redacted) export: no scripts, no external
// resources (a CSP forbids them), and every value HTML-escaped.
import type { Evidence } from '../../../shared/domain';
import type { ExportLease, ExportProcess, IncidentDocument } from './document';

type Cell = string | number | boolean | null | undefined;

export function escapeHtml(value: Cell): string {
  const text = value === null || value === undefined ? '—' : String(value);
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

const time = (ms: number | null): string => (ms === null ? '—' : new Date(ms).toISOString());

function table(headers: readonly string[], rows: readonly (readonly Cell[])[]): string {
  if (rows.length === 0) return '<p class="none">None.</p>';
  const head = headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

function fields(pairs: readonly (readonly [string, Cell])[]): string {
  return `<dl>${pairs.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`;
}

function evidenceDetail(item: Evidence): string {
  const parts: string[] = [];
  if ('processId' in item) parts.push(`process ${item.processId}`);
  if ('reason' in item) parts.push(item.reason);
  if ('call' in item) parts.push(`call: ${item.call}`);
  if ('reply' in item) parts.push(`reply: ${item.reply}`);
  if ('proof' in item) parts.push(`proof: ${item.proof}`);
  return parts.join(' · ');
}

function renderProcess(p: ExportProcess): string {
  return `<section class="process"><h4>Process ${escapeHtml(p.processId)}</h4>
${fields([
    ['command', p.command], ['state', p.state], ['exit code', p.exitCode], ['signal', p.signal],
    ['leader exited', p.leaderExited], ['tree exited', p.treeExited], ['started by console', p.startedByConsole],
    ['created', p.createdAt], ['reconnects', p.stream?.reconnects], ['bytes lost', p.stream?.lostBytes],
    ['ended without exit', p.stream?.endedWithoutExit],
  ])}
<h5>stdout</h5><pre>${escapeHtml(p.stdout)}</pre>
<h5>stderr</h5><pre>${escapeHtml(p.stderr)}</pre></section>`;
}

function renderLease(lease: ExportLease): string {
  return `<section class="lease"><h2>Lease ${escapeHtml(lease.id)}</h2>
${fields([
    ['name', lease.name], ['status', `${lease.status} (${lease.rawStatus})`], ['shape', lease.shape], ['created', lease.createdAt],
    ['guard', lease.guard], ['gone', lease.gone], ['reconnects', lease.reconnectCount], ['last output', time(lease.lastOutputAt)],
    ['destroy', lease.destroy ? `${lease.destroy.state} · requested by ${lease.destroy.requestedBy} · ${lease.destroy.reason} · attempts ${lease.destroy.attempts} · proof ${lease.destroy.proof ?? '—'} · error ${lease.destroy.error ?? '—'}` : null],
  ])}
<h3>Verdict: <span class="verdict verdict-${escapeHtml(lease.verdict.status)}">${escapeHtml(lease.verdict.status)}</span> since ${escapeHtml(time(lease.verdict.since))}</h3>
${table(['at', 'process', 'reason', 'call', 'reply'], lease.verdict.reasons.map((r) => [time(r.at), r.processId, r.reason, r.call, r.reply]))}
<h3>Evidence</h3>
${table(['at', 'kind', 'detail'], lease.evidence.map((e) => [time(e.at), e.kind, evidenceDetail(e)]))}
<h3>Timeline</h3>
${table(['at', 'kind', 'summary', 'detail', 'actor'], lease.timeline.map((e) => [time(e.at), e.kind, e.summary, e.detail, e.actor]))}
<h3>Reconnects</h3>
${table(['at', 'process', 'count', 'reason'], lease.reconnects.map((e) => [time(e.at), e.processId, e.count, e.reason]))}
<h3>Processes</h3>
${lease.processes.length === 0 ? '<p class="none">None.</p>' : lease.processes.map(renderProcess).join('\n')}
</section>`;
}

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#111}table{border-collapse:collapse;margin:.5em 0}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px}
dt{font-weight:600}dd{margin:0}pre{background:#f6f6f6;padding:8px;white-space:pre-wrap;word-break:break-all;max-height:40em;overflow:auto}
.verdict-unproven{color:#b00020}.verdict-contained{color:#0a7a2f}.none{color:#777}`;

export function renderHtml(doc: IncidentDocument): string {
  const scope = doc.scope.kind === 'lease' ? `lease ${doc.scope.leaseId}` : `window ${time(doc.scope.from)} – ${time(doc.scope.to)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Leasewatch incident: ${escapeHtml(scope)}</title><style>${STYLE}</style></head>
<body><h1>Leasewatch incident: ${escapeHtml(scope)}</h1>
${fields([['format', doc.format], ['generated', doc.generatedAt], ['scope', scope]])}
<h2>Environment</h2>
${fields([['app version', doc.environment.appVersion], ['node version', doc.environment.nodeVersion], ['platform', doc.environment.platform], ['provider URL', doc.environment.providerUrl]])}
<h2>Redactions</h2>
<p>${escapeHtml(doc.redactions.count)} value(s) redacted.</p>
${table(['kind', 'count'], doc.redactions.kinds.map((k) => [k.kind, k.count]))}
${doc.leases.length === 0 ? '<p class="none">No leases in scope.</p>' : doc.leases.map(renderLease).join('\n')}
<h2>Operator actions</h2>
${table(['at', 'actor', 'action', 'lease', 'reason'], doc.operatorActions.map((a) => [time(a.at), a.actor, a.action, a.leaseId, a.reason]))}
<h2>Manifest (${escapeHtml(doc.manifest.algorithm)})</h2>
<p>${escapeHtml(doc.manifest.canonicalization)}</p>
${table(['section', 'hash'], Object.entries(doc.manifest.sections))}
</body></html>
`;
}
