import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeConsole } from '../../test/fake-client';
import { FakePlatform } from '../../test/fake-platform';
import { renderWithConsole } from '../../test/render-console';
import { SettingsPanel } from './SettingsPanel';

const secret = 'sk-live-DO-NOT-SHOW-1234567890';

function renderSettings(fake = new FakeConsole(), platform = new FakePlatform()) {
  return renderWithConsole(<SettingsPanel onClose={() => undefined} />, fake, platform);
}

describe('settings', () => {
  it('lists environments with whether a key is set, never the key', async () => {
    const fake = new FakeConsole();
    fake.environments = [
      { id: 'local', name: 'Embedded', url: 'http://127.0.0.1:7001', kind: 'createos-local', apiKeySet: false, active: true },
      { id: 'prod', name: 'Production', url: 'https://createos.example.com', kind: 'createos', apiKeySet: true, active: false },
    ];
    renderSettings(fake);
    const table = await screen.findByRole('table', { name: 'Environments' });
    const prod = within(table).getByRole('row', { name: 'Production' });
    expect(prod.textContent).toContain('https://createos.example.com');
    expect(prod.textContent).toContain('API key: set');
    expect(within(table).getByRole('row', { name: 'Embedded' }).textContent).toContain('API key: not set');
    expect(within(table).getByRole('row', { name: 'Embedded' }).textContent).toContain('Active');
  });

  it('sends a new key once, shows only "set", and never pre-fills or displays it', async () => {
    const { fake, container } = renderSettings();
    fireEvent.click(await screen.findByRole('button', { name: 'Add environment' }));
    const form = screen.getByRole('form', { name: 'Add environment' });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Name' }), { target: { value: 'Staging' } });
    fireEvent.change(within(form).getByRole('textbox', { name: 'URL' }), { target: { value: 'https://staging.example.com' } });
    const key = within(form).getByLabelText<HTMLInputElement>('API key');
    expect(key.type).toBe('password');
    fireEvent.change(key, { target: { value: secret } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save environment' }));

    await waitFor(() => expect(fake.callsTo('settings.saveEnvironment')).toEqual([{ name: 'Staging', url: 'https://staging.example.com', apiKey: secret }]));
    const row = await screen.findByRole('row', { name: 'Staging' });
    expect(row.textContent).toContain('API key: set');
    expect(container.innerHTML).not.toContain(secret);

    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    const edit = screen.getByRole('form', { name: 'Edit environment Staging' });
    expect(within(edit).getByLabelText<HTMLInputElement>('API key').value).toBe('');
    expect(within(edit).getByRole<HTMLInputElement>('textbox', { name: 'URL' }).value).toBe('https://staging.example.com');
    fireEvent.click(within(edit).getByRole('button', { name: 'Save environment' }));
    await waitFor(() => expect(fake.callsTo('settings.saveEnvironment')).toHaveLength(2));
    expect(fake.callsTo('settings.saveEnvironment')[1]).toEqual({ id: 'staging', name: 'Staging', url: 'https://staging.example.com' });
    expect(container.innerHTML).not.toContain(secret);
  });

  it('tests, activates and removes an environment, showing the host\'s answers', async () => {
    const fake = new FakeConsole();
    fake.environments.push({ id: 'prod', name: 'Production', url: 'https://createos.example.com', kind: 'createos', apiKeySet: true, active: false });
    fake.testResult = { ok: false, message: 'HTTP 401 from GET /v1/sandboxes: the API key was refused' };
    renderSettings(fake);
    const row = await screen.findByRole('row', { name: 'Production' });
    fireEvent.click(within(row).getByRole('button', { name: 'Test connection' }));
    expect(await within(row).findByText('Failed: HTTP 401 from GET /v1/sandboxes: the API key was refused')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Activate' }));
    await waitFor(() => expect(within(screen.getByRole('row', { name: 'Production' })).getByText('Active')).toBeTruthy());
    fireEvent.click(within(screen.getByRole('row', { name: 'Embedded' })).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: 'Embedded' })).toBeNull());
  });

  it('asks notification permission from a click', async () => {
    const { platform } = renderSettings();
    expect(screen.getByText('Notifications are off.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Enable notifications' }));
    expect(await screen.findByText(/Notifications are on/)).toBeTruthy();
    expect(platform.notificationPermission).toBe('granted');
  });
});
