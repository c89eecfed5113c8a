// One CreateOS environment: where it points, whether a key is stored (never the key), and its actions.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Environment } from '../../../../shared/contract';
import { useConsoleClient } from '../../api/client-context';
import { errorMessage } from '../../api/error-message';
import { environmentsQuery, leasesQuery, systemInfoQuery } from '../../api/queries';

export function EnvironmentRow({ environment, onEdit }: { environment: Environment; onEdit: (environment: Environment) => void }) {
  const client = useConsoleClient();
  const queryClient = useQueryClient();
  const refreshAll = async (): Promise<void> => {
    await Promise.all([environmentsQuery(client), systemInfoQuery(client), leasesQuery(client)].map((q) => queryClient.invalidateQueries({ queryKey: q.queryKey })));
  };
  const test = useMutation({ mutationFn: () => client.settings.testEnvironment({ id: environment.id }) });
  const activate = useMutation({ mutationFn: () => client.settings.activateEnvironment({ id: environment.id }), onSuccess: refreshAll });
  const remove = useMutation({ mutationFn: () => client.settings.removeEnvironment({ id: environment.id }), onSuccess: refreshAll });
  const error = test.error ?? activate.error ?? remove.error;
  return (
    <tr aria-label={environment.name}>
      <td>{environment.name}</td>
      <td><code>{environment.url}</code></td>
      <td>{environment.kind}</td>
      <td>{environment.apiKeySet ? 'API key: set' : 'API key: not set'}</td>
      <td>{environment.active ? <strong>Active</strong> : '—'}</td>
      <td className="actions">
        <button type="button" onClick={() => test.mutate()} disabled={test.isPending}>Test connection</button>
        <button type="button" onClick={() => activate.mutate()} disabled={environment.active || activate.isPending}>Activate</button>
        <button type="button" onClick={() => onEdit(environment)}>Edit</button>
        <button type="button" className="danger" onClick={() => remove.mutate()} disabled={environment.active || remove.isPending}>Remove</button>
        {test.isPending && <span role="status" className="muted">Testing…</span>}
        {test.data && <span role="status" className={test.data.ok ? 'ok' : 'error'}>{test.data.ok ? 'OK' : 'Failed'}: {test.data.message}</span>}
        {activate.isPending && <span role="status" className="muted">Activating…</span>}
        {error && <span role="alert" className="error">{errorMessage(error)}</span>}
      </td>
    </tr>
  );
}
