// "Export incident log": preview what will be redacted, then save the host's export (a download in
// browser mode, the save dialog in Electron) and show its SHA-256.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { IncidentScope } from '../../../../shared/contract';
import { useConsoleClient } from '../../api/client-context';
import { errorMessage } from '../../api/error-message';
import { incidentPreviewQuery } from '../../api/queries';
import { usePlatform } from '../../platform/platform-context';
import type { ExportRequest } from '../../state/dialog-store';
import { Dialog } from '../Dialog';
import { RedactionPreview } from './RedactionPreview';
import { toLocalInput, windowScope } from './window-input';

const hourMs = 3_600_000;

export function ExportDialog({ request, onClose }: { request: ExportRequest; onClose: () => void }) {
  const client = useConsoleClient();
  const platform = usePlatform();
  const [from, setFrom] = useState(() => toLocalInput(Date.now() - hourMs));
  const [to, setTo] = useState(() => toLocalInput(Date.now() + 60_000));
  const [format, setFormat] = useState<'json' | 'html'>('json');
  const [scope, setScope] = useState<IncidentScope | null>(request.kind === 'lease' ? { kind: 'lease', leaseId: request.leaseId } : null);
  const [windowError, setWindowError] = useState<string | null>(null);
  const preview = useQuery({ ...incidentPreviewQuery(client, scope ?? { kind: 'window', from: 0, to: 0 }), enabled: scope !== null });
  const save = useMutation({
    mutationFn: async (chosen: IncidentScope) => {
      const file = await client.incidents.export({ scope: chosen, format });
      await platform.files.save(file);
      return file;
    },
  });
  const previewWindow = (): void => {
    const result = windowScope(from, to);
    if ('error' in result) {
      setWindowError(result.error);
      setScope(null);
    } else {
      setWindowError(null);
      setScope(result.scope);
    }
    save.reset();
  };
  const title = request.kind === 'lease' ? `Export incident log of ${request.leaseId}` : 'Export incident log for a time window';

  return (
    <Dialog label="Export incident log" onClose={onClose} className="export-dialog">
      <h2>{title}</h2>
      {request.kind === 'window' && (
        <div className="window-inputs">
          <label>From <input type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} /></label>
          <label>To <input type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} /></label>
          <button type="button" onClick={previewWindow}>Preview</button>
          {windowError && <p role="alert" className="error">{windowError}</p>}
        </div>
      )}
      <fieldset className="format">
        <legend>Format</legend>
        <label className="check"><input type="radio" name="export-format" checked={format === 'json'} onChange={() => setFormat('json')} /> JSON</label>
        <label className="check"><input type="radio" name="export-format" checked={format === 'html'} onChange={() => setFormat('html')} /> HTML</label>
      </fieldset>
      {preview.isFetching && <p role="status" className="muted">Preparing the preview…</p>}
      {preview.error && <p role="alert" className="error">Preview failed: {errorMessage(preview.error)}</p>}
      {preview.data && !preview.isFetching && <RedactionPreview preview={preview.data} />}
      {save.isPending && <p role="status" className="muted">Exporting…</p>}
      {save.error && <p role="alert" className="error">Export failed: {errorMessage(save.error)}</p>}
      {save.data && (
        <div role="status" className="export-result">
          <p>Saved <strong>{save.data.fileName}</strong></p>
          <p>SHA-256 <code className="sha256">{save.data.sha256}</code></p>
        </div>
      )}
      <div className="actions">
        <button type="button" disabled={!scope || !preview.isSuccess || save.isPending} onClick={() => { if (scope) save.mutate(scope); }}>Save export</button>
        <button type="button" onClick={onClose}>Close</button>
      </div>
    </Dialog>
  );
}
