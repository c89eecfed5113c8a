import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakePlatform } from '../test/fake-platform';
import { makeLease, unprovenLease } from '../test/lease-fixtures';
import { renderConsole } from '../test/render-console';

describe('the console', () => {
  it('marks the page ready once live and says when the connection drops', async () => {
    const { container, fake } = await renderConsole([makeLease({ id: 'a' })]);
    await waitFor(() => expect(container.querySelector('[data-app-ready="true"]')).not.toBeNull());
    act(() => fake.dropWatches());
    expect(await screen.findByText(/Connection to the host lost/)).toBeTruthy();
    // It subscribes again and is live once more.
    await waitFor(() => expect(screen.queryByText(/Connection to the host lost/)).toBeNull(), { timeout: 3000 });
  });

  it('follows the system theme until the operator chooses one', async () => {
    const platform = new FakePlatform();
    platform.systemThemeValue = 'light';
    const { container } = await renderConsole([], platform);
    const app = container.querySelector('[data-theme]');
    expect(app?.getAttribute('data-theme')).toBe('light');
    act(() => platform.setSystemTheme('dark'));
    expect(app?.getAttribute('data-theme')).toBe('dark');
  });

  it('notifies when a lease becomes unproven, when notifications are allowed', async () => {
    const platform = new FakePlatform();
    platform.notificationPermission = 'granted';
    const { fake } = await renderConsole([makeLease({ id: 'lease-5', name: 'api' })], platform);
    act(() => fake.upsert(unprovenLease('lease-5', 'api')));
    await waitFor(() => expect(platform.notifications.map((n) => n.title)).toEqual(['Containment unproven: lease-5 (api)']));
  });
});
