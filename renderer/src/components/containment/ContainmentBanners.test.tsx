import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { unprovenLease } from '../../test/lease-fixtures';
import { renderConsole } from '../../test/render-console';
import { bannerDestroyReason } from './ContainmentBanner';

const proof = 'sandbox gone at 12:01:03 (GET answered 404); no process remains';

function topBanners(): HTMLElement {
  return screen.getByRole('region', { name: 'Unproven leases' });
}

describe('containment banners', () => {
  it('shows an alert for an unproven lease naming it, with reason and evidence, and destroys it in one click', async () => {
    const { fake } = await renderConsole([unprovenLease('lease-1', 'build-box')]);
    const banner = within(topBanners()).getByRole('alert');
    expect(banner.textContent).toContain('Containment unproven');
    expect(banner.textContent).toContain('lease-1 (build-box)');
    expect(banner.textContent).toContain('Process tree has not exited.');
    expect(banner.textContent).toContain('DELETE /v1/sandboxes/lease-1/processes/p1?grace_ms=1000');
    expect(banner.textContent).toContain('tree_exited=false');
    expect(banner.textContent).toContain('12:00:00');

    fireEvent.click(within(banner).getByRole('button', { name: 'Destroy lease' }));
    await waitFor(() => expect(fake.callsTo('leases.destroy')).toEqual([{ leaseId: 'lease-1', reason: bannerDestroyReason }]));
    expect(await within(banner).findByText(/^Destroying… \d+ s$/)).toBeTruthy();
    expect(within(banner).getByRole<HTMLButtonElement>('button', { name: 'Destroy lease' }).disabled).toBe(true);
  });

  it('never disappears without proof: after the destroy, a resolved notice shows the proof until dismissed', async () => {
    const { fake } = await renderConsole([unprovenLease('lease-1', 'build-box')]);
    fireEvent.click(within(within(topBanners()).getByRole('alert')).getByRole('button', { name: 'Destroy lease' }));
    await waitFor(() => expect(fake.pendingDestroys.has('lease-1')).toBe(true));

    fake.confirmDestroy('lease-1', proof);

    const notice = await within(topBanners()).findByRole('status', { name: /Containment resolved/ });
    expect(notice.textContent).toContain(`Destroyed: ${proof}`);
    expect(notice.textContent).toContain('lease-1 (build-box)');
    expect(within(topBanners()).queryByRole('alert')).toBeNull();

    fireEvent.click(within(notice).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Unproven leases' })).toBeNull());
  });

  it('shows a failed destroy with the host message and retries it', async () => {
    const { fake } = await renderConsole([unprovenLease('lease-1')]);
    const banner = within(topBanners()).getByRole('alert');
    fireEvent.click(within(banner).getByRole('button', { name: 'Destroy lease' }));
    await waitFor(() => expect(fake.pendingDestroys.has('lease-1')).toBe(true));

    fake.failDestroy('lease-1', 'HTTP 503 from DELETE /v1/sandboxes/lease-1: provider unavailable');

    expect(await within(banner).findByText('Destroy failed: HTTP 503 from DELETE /v1/sandboxes/lease-1: provider unavailable')).toBeTruthy();
    fireEvent.click(within(banner).getByRole('button', { name: 'Retry destroy' }));
    await waitFor(() => expect(fake.callsTo('leases.destroy')).toHaveLength(2));
  });

  it('keeps the alert, with the reasons last seen, while a retried destroy is only pending', async () => {
    const { fake } = await renderConsole([unprovenLease('lease-1', 'build-box')]);
    const banner = within(topBanners()).getByRole('alert');
    // The retry started: the host's verdict is `pending` (no reasons, and no proof either).
    act(() => {
      fake.update('lease-1', () => ({
        verdict: { status: 'pending', reasons: [], since: null },
        destroy: { state: 'destroying', startedAt: Date.now(), finishedAt: null, attempts: 2, reason: 'retry', requestedBy: 'operator', proof: null, error: null },
      }));
    });
    expect(await within(banner).findByText(/^Destroying… \d+ s$/)).toBeTruthy();
    expect(within(topBanners()).queryByRole('status', { name: /Containment resolved/ })).toBeNull();
    expect(banner.textContent).toContain('Process tree has not exited.');

    act(() => { fake.confirmDestroy('lease-1', proof); });
    expect(await within(topBanners()).findByRole('status', { name: /Containment resolved/ })).toBeTruthy();
  });

  it('keeps an alert for an unproven lease the host stops listing', async () => {
    const { fake } = await renderConsole([unprovenLease('lease-9', 'ghost')]);
    await within(topBanners()).findByRole('alert');
    fake.remove('lease-9');
    const alert = await within(topBanners()).findByText(/no longer lists this lease/);
    expect(alert.closest('[role="alert"]')?.textContent).toContain('lease-9 (ghost)');
  });

  it('shows the banner on the lease itself too', async () => {
    await renderConsole([unprovenLease('lease-1')]);
    fireEvent.click(within(screen.getByRole('table', { name: 'Leases' })).getByRole('button', { name: 'lease-1' }));
    const detail = await screen.findByRole('region', { name: 'Lease lease-1' });
    expect(within(detail).getByRole('alert').textContent).toContain('Containment unproven');
  });
});
