import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeConsole } from '../../test/fake-client';
import { renderWithConsole } from '../../test/render-console';
import { ExportDialog } from './ExportDialog';

describe('incident export', () => {
  it('previews the redactions of a lease export, then saves the file and shows its SHA-256', async () => {
    const fake = new FakeConsole();
    fake.preview = { leases: 1, redactions: [{ kind: 'api-key', count: 3, samples: ['Bearer [redacted]'] }, { kind: 'env-secret', count: 1, samples: [] }] };
    fake.exportFile = { fileName: 'leasewatch-lease-1.json', mimeType: 'application/json', content: '{"lease":"lease-1"}', sha256: 'ab'.repeat(32) };
    const { platform } = renderWithConsole(<ExportDialog request={{ kind: 'lease', leaseId: 'lease-1' }} onClose={() => undefined} />, fake);
    const dialog = screen.getByRole('dialog', { name: 'Export incident log' });
    const redactions = await within(dialog).findByRole('table', { name: 'Redactions' });
    expect(redactions.textContent).toContain('api-key');
    expect(redactions.textContent).toContain('Bearer [redacted]');
    expect(within(dialog).getByText(/4 values will be redacted/)).toBeTruthy();
    expect(fake.callsTo('incidents.preview')).toEqual([{ scope: { kind: 'lease', leaseId: 'lease-1' } }]);

    fireEvent.click(within(dialog).getByRole('radio', { name: 'HTML' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save export' }));
    expect(await within(dialog).findByText('ab'.repeat(32))).toBeTruthy();
    expect(fake.callsTo('incidents.export')).toEqual([{ scope: { kind: 'lease', leaseId: 'lease-1' }, format: 'html' }]);
    expect(platform.saved).toEqual([fake.exportFile]);
  });

  it('exports a time window after checking it', async () => {
    const fake = new FakeConsole();
    const { platform } = renderWithConsole(<ExportDialog request={{ kind: 'window' }} onClose={() => undefined} />, fake);
    const dialog = screen.getByRole('dialog', { name: 'Export incident log' });
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Save export' }).disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('From'), { target: { value: '2024-01-02T10:00' } });
    fireEvent.change(within(dialog).getByLabelText('To'), { target: { value: '2024-01-01T10:00' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('The start must not be after the end.');
    fireEvent.change(within(dialog).getByLabelText('To'), { target: { value: '2024-01-02T11:00' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Preview' }));
    await within(dialog).findByRole('table', { name: 'Redactions' });
    const scope = { kind: 'window', from: Date.parse('2024-01-02T10:00'), to: Date.parse('2024-01-02T11:00') };
    expect(fake.callsTo('incidents.preview')).toEqual([{ scope }]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save export' }));
    await waitFor(() => expect(platform.saved).toHaveLength(1));
    expect(fake.callsTo('incidents.export')).toEqual([{ scope, format: 'json' }]);
  });
});
