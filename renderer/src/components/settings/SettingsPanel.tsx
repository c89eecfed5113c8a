// Settings: CreateOS environments (the key shows only as "set"), notifications and theme.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Environment } from '../../../../shared/contract';
import { useConsoleClient } from '../../api/client-context';
import { errorMessage } from '../../api/error-message';
import { environmentsQuery } from '../../api/queries';
import { Dialog } from '../Dialog';
import { EnvironmentForm } from './EnvironmentForm';
import { EnvironmentRow } from './EnvironmentRow';
import { PreferencesSection } from './PreferencesSection';

type FormState = { readonly mode: 'closed' } | { readonly mode: 'add' } | { readonly mode: 'edit'; readonly environment: Environment };

export function SettingsPanel({ onClose }: { onClose: () => void }) {
  const client = useConsoleClient();
  const environments = useQuery(environmentsQuery(client));
  const [form, setForm] = useState<FormState>({ mode: 'closed' });
  return (
    <Dialog label="Settings" onClose={onClose} className="settings">
      <h2>Settings</h2>
      <section aria-label="CreateOS environments">
        <h3>CreateOS environments</h3>
        {environments.isPending && <p role="status" className="muted">Loading environments…</p>}
        {environments.error && <p role="alert" className="error">Could not load environments: {errorMessage(environments.error)} <button type="button" onClick={() => void environments.refetch()}>Retry</button></p>}
        {environments.data?.length === 0 && <p className="muted">No environments yet.</p>}
        {environments.data && environments.data.length > 0 && (
          <table aria-label="Environments">
            <thead><tr><th scope="col">Name</th><th scope="col">URL</th><th scope="col">Kind</th><th scope="col">Key</th><th scope="col">Active</th><th scope="col">Actions</th></tr></thead>
            <tbody>
              {environments.data.map((environment) => <EnvironmentRow key={environment.id} environment={environment} onEdit={(e) => setForm({ mode: 'edit', environment: e })} />)}
            </tbody>
          </table>
        )}
        {form.mode === 'closed' && <button type="button" onClick={() => setForm({ mode: 'add' })}>Add environment</button>}
        {form.mode !== 'closed' && (
          <EnvironmentForm key={form.mode === 'edit' ? form.environment.id : 'add'} editing={form.mode === 'edit' ? form.environment : null} onDone={() => setForm({ mode: 'closed' })} />
        )}
      </section>
      <PreferencesSection />
      <div className="actions"><button type="button" onClick={onClose}>Close</button></div>
    </Dialog>
  );
}
