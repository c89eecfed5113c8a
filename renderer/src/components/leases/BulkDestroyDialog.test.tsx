import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred } from '../../test/async-channel';
import { makeLease } from '../../test/lease-fixtures';
import { renderConsole } from '../../test/render-console';
import { isConfirmed } from './bulk-confirmation';

const leases = [makeLease({ id: 'lease-a' }), makeLease({ id: 'lease-b' }), makeLease({ id: 'lease-c' })];

describe('bulk destroy', () => {
  it('accepts only the count or "destroy N leases" as confirmation', () => {
    expect(isConfirmed('2', 2)).toBe(true);
    expect(isConfirmed(' Destroy  2 leases ', 2)).toBe(true);
    expect(isConfirmed('destroy 1 lease', 1)).toBe(true);
    expect(isConfirmed('3', 2)).toBe(false);
    expect(isConfirmed('yes', 2)).toBe(false);
    expect(isConfirmed('0', 0)).toBe(false);
  });

  it('requires a reason and the typed count, then shows each lease\'s result', async () => {
    const { fake } = await renderConsole(leases);
    const table = screen.getByRole('table', { name: 'Leases' });
    fireEvent.click(within(table).getByRole('checkbox', { name: 'Select lease lease-a' }));
    fireEvent.click(within(table).getByRole('checkbox', { name: 'Select lease lease-c' }));
    fireEvent.click(screen.getByRole('button', { name: 'Destroy selected (2)' }));

    const dialog = await screen.findByRole('dialog', { name: 'Destroy 2 leases' });
    const confirm = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Destroy 2 leases' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason' }), { target: { value: 'incident 42' } });
    expect(confirm.disabled).toBe(true);
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Confirmation' }), { target: { value: '3' } });
    expect(confirm.disabled).toBe(true);
    fireEvent.submit(confirm);
    expect(fake.callsTo('leases.destroyMany')).toEqual([]);
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Confirmation' }), { target: { value: 'destroy 2 leases' } });
    expect(confirm.disabled).toBe(false);

    const answer = deferred<{ results: Array<{ leaseId: string; ok: boolean; message: string | null }> }>();
    fake.destroyManyResult = answer;
    fireEvent.click(confirm);
    await waitFor(() => expect(fake.callsTo('leases.destroyMany')).toEqual([{ leaseIds: ['lease-a', 'lease-c'], reason: 'incident 42' }]));
    expect(await within(dialog).findByText(/^Destroying 2 leases…/)).toBeTruthy();

    answer.resolve({ results: [{ leaseId: 'lease-a', ok: true, message: null }, { leaseId: 'lease-c', ok: false, message: 'HTTP 409: sandbox is busy' }] });
    const results = await within(dialog).findByRole('table', { name: 'Destroy results' });
    expect(within(dialog).getByText('1 of 2 destroyed, 1 failed.')).toBeTruthy();
    expect(results.textContent).toContain('Failed: HTTP 409: sandbox is busy');
  });
});
