import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeLease, unprovenLease } from '../../test/lease-fixtures';
import { renderConsole } from '../../test/render-console';

describe('command palette', () => {
  it('opens with Ctrl+K and runs a command chosen with the keyboard', async () => {
    const { platform } = await renderConsole([makeLease({ id: 'ok' }), unprovenLease('bad')]);
    act(() => void platform.pressKey({ key: 'k', ctrlKey: true }));
    const palette = screen.getByRole('dialog', { name: 'Command palette' });
    const input = within(palette).getByRole('combobox', { name: 'Search commands' });
    fireEvent.change(input, { target: { value: 'unproven' } });
    expect(within(palette).getAllByRole('option').map((o) => o.textContent)).toEqual(['Unproven only — off']);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Unproven only' }).checked).toBe(true);
  });

  it('opens with Cmd+K too, closes with Escape, and disables what does not apply', async () => {
    const { platform } = await renderConsole([makeLease({ id: 'ok' })]);
    act(() => void platform.pressKey({ key: 'K', metaKey: true }));
    const palette = screen.getByRole('dialog', { name: 'Command palette' });
    const destroy = within(palette).getByRole('option', { name: /Destroy selected lease/ });
    expect(destroy.getAttribute('aria-disabled')).toBe('true');
    fireEvent.keyDown(within(palette).getByRole('combobox'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('creates a lease, opens settings and toggles the theme', async () => {
    const { platform, fake, container } = await renderConsole([]);
    const run = (label: string): void => {
      act(() => void platform.pressKey({ key: 'k', ctrlKey: true }));
      const palette = screen.getByRole('dialog', { name: 'Command palette' });
      fireEvent.change(within(palette).getByRole('combobox'), { target: { value: label } });
      fireEvent.click(within(palette).getAllByRole('option')[0] as HTMLElement);
    };
    run('New lease');
    await waitFor(() => expect(fake.callsTo('leases.create')).toHaveLength(1));
    expect(await screen.findByRole('region', { name: 'Lease new-lease-1' })).toBeTruthy();

    const app = container.querySelector('[data-theme]');
    expect(app?.getAttribute('data-theme')).toBe('dark');
    run('Toggle theme');
    expect(app?.getAttribute('data-theme')).toBe('light');
    expect(platform.storedTheme).toBe('light');

    run('Settings');
    expect(await screen.findByRole('dialog', { name: 'Settings' })).toBeTruthy();
  });
});
