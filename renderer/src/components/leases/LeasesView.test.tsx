import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeLease, unprovenLease } from '../../test/lease-fixtures';
import { renderConsole } from '../../test/render-console';

function table(): HTMLElement {
  return screen.getByRole('table', { name: 'Leases' });
}

/** Lease ids of the body rows, in order. */
function rowIds(): string[] {
  return within(table()).getAllByRole('row').flatMap((row) => row.getAttribute('data-lease-id') ?? []);
}

const leases = [
  makeLease({ id: 'lease-b', name: 'beta', reconnects: 5 }),
  makeLease({ id: 'lease-a', name: 'alpha', reconnects: 1 }),
  makeLease({ id: 'lease-c', name: 'gamma', status: 'paused', rawStatus: 'paused', reconnects: 3 }),
  unprovenLease('lease-d', 'delta'),
];

describe('leases view', () => {
  it('lists every lease in a table named "Leases" with its columns', async () => {
    await renderConsole(leases);
    const headers = within(table()).getAllByRole('columnheader').map((h) => h.textContent.trim());
    expect(headers).toEqual(['', 'ID', 'Name', 'Containment', 'State', 'Guard', 'Shape', 'Age', 'Processes', 'Reconnects', 'Last output']);
    expect(rowIds()).toEqual(['lease-b', 'lease-a', 'lease-c', 'lease-d']);
    const row = within(table()).getAllByRole('row').find((r) => r.getAttribute('data-lease-id') === 'lease-d');
    expect(row && within(row).getAllByRole('cell').map((c) => c.textContent)).toContain('Unproven');
  });

  it('shows live updates pushed by the host', async () => {
    const { fake } = await renderConsole(leases);
    fake.upsert(makeLease({ id: 'lease-new', name: 'fresh' }));
    await waitFor(() => expect(rowIds()).toContain('lease-new'));
    fake.remove('lease-a');
    await waitFor(() => expect(rowIds()).not.toContain('lease-a'));
  });

  it('sorts by clicking a header, with aria-sort', async () => {
    await renderConsole(leases);
    const header = within(table()).getByRole('columnheader', { name: 'Name' });
    fireEvent.click(within(header).getByRole('button'));
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    expect(rowIds()).toEqual(['lease-a', 'lease-b', 'lease-d', 'lease-c']);
    fireEvent.click(within(header).getByRole('button'));
    expect(header.getAttribute('aria-sort')).toBe('descending');
    expect(rowIds()).toEqual(['lease-c', 'lease-d', 'lease-b', 'lease-a']);
    fireEvent.click(within(within(table()).getByRole('columnheader', { name: 'Reconnects' })).getByRole('button'));
    expect(header.getAttribute('aria-sort')).toBe('none');
    expect(rowIds()).toEqual(['lease-d', 'lease-a', 'lease-c', 'lease-b']);
  });

  it('filters by text, by state and by "Unproven only"', async () => {
    await renderConsole(leases);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter leases' }), { target: { value: 'GAM' } });
    expect(rowIds()).toEqual(['lease-c']);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter leases' }), { target: { value: '' } });

    fireEvent.change(screen.getByRole('combobox', { name: 'State' }), { target: { value: 'paused' } });
    expect(rowIds()).toEqual(['lease-c']);
    fireEvent.change(screen.getByRole('combobox', { name: 'State' }), { target: { value: 'all' } });

    fireEvent.click(screen.getByRole('checkbox', { name: 'Unproven only' }));
    expect(rowIds()).toEqual(['lease-d']);
    expect(screen.getByText('Showing 1 of 4')).toBeTruthy();
  });

  it('says when nothing matches the filter', async () => {
    await renderConsole(leases);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter leases' }), { target: { value: 'nothing-like-this' } });
    expect(screen.getByText('No lease matches the filter.')).toBeTruthy();
  });

  it('moves the selection with the arrow keys and opens the lease with Enter', async () => {
    await renderConsole(leases);
    const leasesTable = table();
    leasesTable.focus();
    fireEvent.keyDown(leasesTable, { key: 'ArrowDown' });
    fireEvent.keyDown(leasesTable, { key: 'ArrowDown' });
    const selected = (): string[] => within(leasesTable).getAllByRole('row').filter((r) => r.getAttribute('aria-selected') === 'true').map((r) => r.getAttribute('data-lease-id') ?? '');
    expect(selected()).toEqual(['lease-a']);
    fireEvent.keyDown(leasesTable, { key: 'ArrowUp' });
    expect(selected()).toEqual(['lease-b']);
    fireEvent.keyDown(leasesTable, { key: 'End' });
    expect(selected()).toEqual(['lease-d']);
    expect(screen.queryByRole('region', { name: 'Lease lease-d' })).toBeNull();
    fireEvent.keyDown(leasesTable, { key: 'Enter' });
    expect(await screen.findByRole('region', { name: 'Lease lease-d' })).toBeTruthy();
    fireEvent.keyDown(leasesTable, { key: ' ' });
    expect(within(leasesTable).getByRole<HTMLInputElement>('checkbox', { name: 'Select lease lease-d' }).checked).toBe(true);
  });

  it('renders only the rows in view with 5,000 leases', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => makeLease({ id: `lease-${String(i).padStart(4, '0')}` }));
    await renderConsole(many);
    expect(screen.getByText('Showing 5000 of 5000')).toBeTruthy();
    const rendered = rowIds();
    expect(rendered.length).toBeGreaterThan(5);
    expect(rendered.length).toBeLessThan(100);
    expect(table().getAttribute('aria-rowcount')).toBe('5001');
  });
});
