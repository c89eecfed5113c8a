// The console as an operator sees it: every e2e step goes through these actions.
import type { Locator, Page } from 'playwright-core';

export class ConsolePage {
  constructor(readonly page: Page) {}

  async waitUntilReady(): Promise<void> {
    await this.page.locator('[data-app-ready="true"]').waitFor({ timeout: 30_000 });
  }

  leasesTable(): Locator {
    return this.page.getByRole('table', { name: 'Leases' });
  }

  leaseRow(leaseId: string): Locator {
    return this.leasesTable().getByRole('row').filter({ hasText: leaseId });
  }

  /** Clicks "New lease" and returns the id of the lease it created (the one that gets selected). */
  async newLease(): Promise<string> {
    const before = await this.leaseIds();
    await this.page.getByRole('button', { name: 'New lease' }).click();
    const detail = this.page.locator('section.lease-detail');
    await detail.waitFor({ timeout: 60_000 });
    const id = (await detail.getAttribute('aria-label'))?.replace(/^Lease /, '') ?? '';
    if (!id || before.includes(id)) throw new Error('No new lease was selected.');
    return id;
  }

  async leaseIds(): Promise<string[]> {
    const cells = await this.leasesTable().locator('tbody tr td:first-child').allInnerTexts();
    return cells.map((c) => c.trim());
  }

  async selectLease(leaseId: string): Promise<void> {
    await this.leaseRow(leaseId).getByRole('button', { name: leaseId }).click();
  }

  leaseDetail(leaseId: string): Locator {
    return this.page.getByRole('region', { name: `Lease ${leaseId}` });
  }

  async runCommand(leaseId: string, command: string, options: { timeoutSeconds?: number } = {}): Promise<void> {
    const detail = this.leaseDetail(leaseId);
    await detail.getByRole('button', { name: 'Run command' }).click();
    await detail.getByRole('textbox', { name: 'Command' }).fill(command);
    if (options.timeoutSeconds !== undefined) await detail.getByRole('spinbutton', { name: 'Timeout (seconds)' }).fill(String(options.timeoutSeconds));
    await detail.getByRole('button', { name: 'Run', exact: true }).click();
    await detail.getByRole('textbox', { name: 'Command' }).waitFor({ state: 'detached' });
  }

  /** Like runCommand, but does not wait for the form to close (the command may fail to start). */
  async startCommand(leaseId: string, command: string): Promise<void> {
    const detail = this.leaseDetail(leaseId);
    await detail.getByRole('button', { name: 'Run command' }).click();
    await detail.getByRole('textbox', { name: 'Command' }).fill(command);
    await detail.getByRole('button', { name: 'Run', exact: true }).click();
  }

  /** The "Reconnects N" text of the lease's newest process. */
  async processStreamCell(leaseId: string): Promise<string> {
    return this.leaseDetail(leaseId).getByText(/Reconnects \d+/).last().innerText();
  }

  tail(leaseId: string): Locator {
    return this.leaseDetail(leaseId).getByRole('log');
  }

  async tailLines(leaseId: string): Promise<string[]> {
    return (await this.tail(leaseId).locator('.line:not(.marker)').allInnerTexts()).map((l) => l.replace(/\n$/, ''));
  }

  async destroyLease(leaseId: string, reason: string): Promise<void> {
    const detail = this.leaseDetail(leaseId);
    await detail.getByRole('button', { name: 'Destroy lease' }).first().click();
    const dialog = this.page.getByRole('dialog', { name: `Destroy lease ${leaseId}` });
    await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
    await dialog.getByRole('button', { name: 'Confirm destroy' }).click();
  }

  destroyStatus(leaseId: string): Locator {
    return this.leaseDetail(leaseId).locator('.destroy-status');
  }

  /** The lease's banner in the list of unproven leases at the top of the app. */
  banner(leaseId: string): Locator {
    return this.page.getByRole('region', { name: 'Unproven leases' }).getByRole('alert').filter({ hasText: 'Containment unproven' }).filter({ hasText: leaseId });
  }

  async screenshot(path: string): Promise<void> {
    await this.page.screenshot({ path, fullPage: true });
  }
}
