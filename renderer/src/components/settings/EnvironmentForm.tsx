// Add or edit a CreateOS environment. The API key field is a password field that is never
// pre-filled: the key goes to the host and never comes back.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Environment } from '../../../../shared/contract';
import { useConsoleClient } from '../../api/client-context';
import { errorMessage } from '../../api/error-message';
import { environmentsQuery, systemInfoQuery } from '../../api/queries';

export function EnvironmentForm({ editing, onDone }: { editing: Environment | null; onDone: () => void }) {
  const client = useConsoleClient();
  const queryClient = useQueryClient();
  const [name, setName] = useState(editing?.name ?? '');
  const [url, setUrl] = useState(editing?.url ?? '');
  const [apiKey, setApiKey] = useState('');
  const save = useMutation({
    mutationFn: () => client.settings.saveEnvironment({ ...(editing ? { id: editing.id } : {}), name, url, ...(apiKey ? { apiKey } : {}) }),
    onSettled: () => setApiKey(''),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: environmentsQuery(client).queryKey });
      await queryClient.invalidateQueries({ queryKey: systemInfoQuery(client).queryKey });
      onDone();
    },
  });
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="environment-form" onSubmit={submit} aria-label={editing ? `Edit environment ${editing.name}` : 'Add environment'}>
      <label>Name <input type="text" value={name} onChange={(e) => setName(e.target.value)} required maxLength={80} autoFocus /></label>
      <label>URL <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} required placeholder="https://createos.example.com" /></label>
      <label>
        API key{' '}
        <input
          type="password"
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
          autoComplete="new-password"
          placeholder={editing?.apiKeySet ? 'Stored; type a new key to replace it' : 'Not set'}
        />
      </label>
      {save.isPending && <p role="status" className="muted">Saving…</p>}
      {save.error && <p role="alert" className="error">Save failed: {errorMessage(save.error)}</p>}
      <div className="actions">
        <button type="submit" disabled={save.isPending || name.trim() === '' || url.trim() === ''}>Save environment</button>
        <button type="button" onClick={onDone}>Cancel</button>
      </div>
    </form>
  );
}
