import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred } from '../../test/async-channel';
import { makeLease, makeProcess } from '../../test/lease-fixtures';
import { renderConsole } from '../../test/render-console';

const lease = makeLease({
  id: 'lease-1',
  name: 'worker',
  processes: [
    makeProcess({ processId: 'p1', leaseId: 'lease-1', state: 'exited', exitCode: 0, treeExited: true, stream: { reconnects: 2, lostBytes: 2048, bytesReceived: 10_240, attached: false, endedWithoutExit: null } }),
    makeProcess({ processId: 'p2', leaseId: 'lease-1', command: 'sleep 300', state: 'running' }),
  ],
});

async function openLease() {
  const rendered = await renderConsole([lease]);
  fireEvent.click(within(screen.getByRole('table', { name: 'Leases' })).getByRole('button', { name: 'lease-1' }));
  const detail = await screen.findByRole('region', { name: 'Lease lease-1' });
  return { ...rendered, detail };
}

describe('lease view', () => {
  it('lists processes with state, exit, "Reconnects N", bytes received and lost', async () => {
    const { detail } = await openLease();
    const processes = within(detail).getByRole('table', { name: 'Processes' });
    const rows = within(processes).getAllByRole('row');
    expect(rows[1]?.textContent).toContain('exited');
    expect(rows[1]?.textContent).toContain('exit 0 · tree exited');
    expect(within(processes).getByText('Reconnects 2')).toBeTruthy();
    expect(rows[1]?.textContent).toContain('10.0 KiB received');
    expect(rows[1]?.textContent).toContain('2.0 KiB lost');
    expect(rows[2]?.textContent).not.toContain('tree');
    expect(within(rows[1] as HTMLElement).queryByRole('button', { name: 'Stop process' })).toBeNull();
  });

  it('stops a running process and shows whether the tree exited', async () => {
    const { detail, fake } = await openLease();
    const answer = deferred<{ treeExited: boolean }>();
    fake.stopResult = answer;
    fireEvent.click(within(detail).getByRole('button', { name: 'Stop process' }));
    expect(await within(detail).findByText('Stopping…')).toBeTruthy();
    expect(fake.callsTo('processes.stop')).toEqual([{ leaseId: 'lease-1', processId: 'p2' }]);
    answer.resolve({ treeExited: false });
    expect(await within(detail).findByText(/Not proven: the process tree did not exit/)).toBeTruthy();
  });

  it('shows the timeline with its evidence', async () => {
    const { detail, fake } = await renderConsole([lease]).then(async (r) => {
      r.fake.timelines.set('lease-1', [
        { at: Date.UTC(2024, 0, 1, 12, 0, 0), kind: 'operator', summary: 'Command started: sleep 300', detail: null, actor: 'operator@browser' },
        { at: Date.UTC(2024, 0, 1, 12, 0, 5), kind: 'evidence', summary: 'Process tree has not exited', detail: 'DELETE /v1/sandboxes/lease-1/processes/p2 → tree_exited=false', actor: null },
      ]);
      fireEvent.click(within(screen.getByRole('table', { name: 'Leases' })).getByRole('button', { name: 'lease-1' }));
      return { ...r, detail: await screen.findByRole('region', { name: 'Lease lease-1' }) };
    });
    const timeline = within(detail).getByRole('region', { name: 'Timeline' });
    expect(await within(timeline).findByText(/Process tree has not exited/)).toBeTruthy();
    expect(timeline.textContent).toContain('tree_exited=false');
    expect(timeline.textContent).toContain('operator@browser');
    // A change that matters refreshes the timeline.
    const before = fake.callsTo('leases.timeline').length;
    fake.update('lease-1', () => ({ guard: 'busy' }));
    await waitFor(() => expect(fake.callsTo('leases.timeline').length).toBeGreaterThan(before));
  });

  it('runs a command with a timeout and closes the form once started', async () => {
    const { detail, fake } = await openLease();
    fireEvent.click(within(detail).getByRole('button', { name: 'Run command' }));
    fireEvent.change(within(detail).getByRole('textbox', { name: 'Command' }), { target: { value: 'printf a' } });
    fireEvent.change(within(detail).getByRole('spinbutton', { name: 'Timeout (seconds)' }), { target: { value: '5' } });
    fireEvent.click(within(detail).getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(within(detail).queryByRole('textbox', { name: 'Command' })).toBeNull());
    expect(fake.callsTo('processes.run')).toEqual([{ leaseId: 'lease-1', command: 'printf a', timeoutSeconds: 5 }]);
  });

  it('destroys after a confirmation naming the lease and asking a reason, then shows progress and proof', async () => {
    const { detail, fake } = await openLease();
    fireEvent.click(within(detail).getByRole('button', { name: 'Destroy lease' }));
    const dialog = screen.getByRole('dialog', { name: 'Destroy lease lease-1' });
    expect(dialog.textContent).toContain('lease-1 (worker)');
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Confirm destroy' }).disabled).toBe(true);
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason' }), { target: { value: 'done with it' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm destroy' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.callsTo('leases.destroy')).toEqual([{ leaseId: 'lease-1', reason: 'done with it' }]);
    const status = detail.querySelector('.destroy-status');
    expect(status?.textContent).toMatch(/^Destroying… \d+ s$/);
    fake.confirmDestroy('lease-1', 'sandbox gone at 12:01:03 (GET answered 404); no process remains');
    await waitFor(() => expect(detail.querySelector('.destroy-status')?.textContent).toBe('Destroyed: sandbox gone at 12:01:03 (GET answered 404); no process remains'));
  });

  it('opens the incident export for this lease', async () => {
    const { detail } = await openLease();
    fireEvent.click(within(detail).getByRole('button', { name: 'Export incident log' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export incident log' });
    expect(dialog.textContent).toContain('Export incident log of lease-1');
  });
});
