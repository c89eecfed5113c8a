// What an export will redact, before anything is saved.
import type { RedactionPreview as Preview } from '../../../../shared/contract';

export function RedactionPreview({ preview }: { preview: Preview }) {
  const total = preview.redactions.reduce((n, r) => n + r.count, 0);
  return (
    <div className="preview" aria-label="Redaction preview" role="group">
      <p>{preview.leases} {preview.leases === 1 ? 'lease' : 'leases'} in this export. {total === 0 ? 'Nothing will be redacted.' : `${total} values will be redacted:`}</p>
      {preview.redactions.length > 0 && (
        <table aria-label="Redactions">
          <thead><tr><th scope="col">Kind</th><th scope="col">Count</th><th scope="col">Examples (as exported)</th></tr></thead>
          <tbody>
            {preview.redactions.map((r) => (
              <tr key={r.kind}><td>{r.kind}</td><td>{r.count}</td><td>{r.samples.map((s) => <code key={s}>{s}</code>)}</td></tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
