// The console as an operator sees it: every e2e step goes through these actions.
import type { Download, Locator, Page } from 'playwright-core';

export interface ExportedIncident {
  readonly download: Download;
  readonly fileName: string;
  readonly sha256: string;
}

export interface NewEnvironment {
  readonly name: string;
  readonly url: string;
  readonly apiKey?: string;
}

/** The part of a DOM element that layout checks read (the e2e tsconfig has no DOM types). */
interface LaidOutElement {
  scrollWidth: number;
  clientWidth: number;
  querySelectorAll(selector: string): ArrayLike<{ getBoundingClientRect(): { top: number; height: number } }>;
}

export class ConsolePage {
  constructor(readonly page: Page) {}

  async waitUntilReady(): Promise<void> {
    await this.page.locator('[data-app-ready="true"]').waitFor({ timeout: 30_000 });
  }

  // ── Leases list ────────────────────────────────────────────────────────────────────────────

  leasesTable(): Locator {
    return this.page.getByRole('table', { name: 'Leases' });
  }

  /** The lease's row (rendered only while it is in the table's view: the table is virtualised). */
  leaseRow(leaseId: string): Locator {
    return this.leasesTable().locator(`[role="row"][data-lease-id="${leaseId}"]`);
  }

  /** Clicks "New lease" and returns the id of the lease it created (the one that gets selected). */
  async newLease(): Promise<string> {
    const before = await this.leaseIds();
    await this.page.getByRole('button', { name: 'New lease' }).click();
    const notBefore = before.map((id) => `:not([aria-label="Lease ${id}"])`).join('');
    const detail = this.page.locator(`section.lease-detail${notBefore}`);
    await detail.waitFor({ timeout: 60_000 });
    const id = (await detail.getAttribute('aria-label'))?.replace(/^Lease /, '') ?? '';
    if (!id) throw new Error('No new lease was selected.');
    return id;
  }

  /** Ids of the rows in view, in table order. */
  async leaseIds(): Promise<string[]> {
    const ids: string[] = [];
    for (const row of await this.leasesTable().locator('[role="row"][data-lease-id]').all()) {
      const id = await row.getAttribute('data-lease-id');
      if (id) ids.push(id);
    }
    return ids;
  }

  async selectLease(leaseId: string): Promise<void> {
    await this.leaseRow(leaseId).getByRole('button', { name: leaseId, exact: true }).click();
  }

  /** The row's cells by column name ("State", "Containment", "Reconnects", …). */
  async leaseCells(leaseId: string): Promise<Record<string, string>> {
    const headers = (await this.leasesTable().getByRole('columnheader').allInnerTexts()).map((h) => h.replace(/[▲▼]/g, '').trim());
    const cells = await this.leaseRow(leaseId).getByRole('cell').allInnerTexts();
    const result: Record<string, string> = {};
    headers.forEach((header, index) => { if (header) result[header] = cells[index]?.trim() ?? ''; });
    return result;
  }

  async filterLeases(text: string): Promise<void> {
    await this.page.getByRole('searchbox', { name: 'Filter leases' }).fill(text);
  }

  /** A sandbox status, "destroyed", or "all". */
  async filterByState(state: string): Promise<void> {
    await this.page.getByRole('combobox', { name: 'State' }).selectOption(state);
  }

  async setUnprovenOnly(on: boolean): Promise<void> {
    await this.page.getByRole('checkbox', { name: 'Unproven only' }).setChecked(on);
  }

  /** Clicks a column header; returns its aria-sort afterwards. */
  async sortBy(column: string): Promise<string | null> {
    const header = this.leasesTable().getByRole('columnheader', { name: column, exact: true });
    await header.getByRole('button').click();
    return header.getAttribute('aria-sort');
  }

  /** Keyboard: focus the table, move with arrow keys (negative = up), Enter opens. */
  async openLeaseWithKeyboard(steps: number): Promise<void> {
    await this.leasesTable().focus();
    for (let i = 0; i < Math.abs(steps); i += 1) await this.page.keyboard.press(steps < 0 ? 'ArrowUp' : 'ArrowDown');
    await this.page.keyboard.press('Enter');
  }

  async checkLease(leaseId: string): Promise<void> {
    await this.leaseRow(leaseId).getByRole('checkbox').check();
  }

  /** Ticks the leases, confirms the bulk destroy with the typed count, and returns each lease's result line. */
  async bulkDestroy(leaseIds: readonly string[], reason: string): Promise<string[]> {
    for (const id of leaseIds) await this.checkLease(id);
    const noun = leaseIds.length === 1 ? 'lease' : 'leases';
    await this.page.getByRole('button', { name: `Destroy selected (${leaseIds.length})` }).click();
    const dialog = this.page.getByRole('dialog', { name: `Destroy ${leaseIds.length} ${noun}` });
    await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
    await dialog.getByRole('textbox', { name: 'Confirmation' }).fill(String(leaseIds.length));
    await dialog.getByRole('button', { name: `Destroy ${leaseIds.length} ${noun}` }).click();
    const results = dialog.getByRole('table', { name: 'Destroy results' });
    await results.waitFor({ timeout: 120_000 });
    const lines = (await results.getByRole('row').allInnerTexts()).slice(1).map((r) => r.replace(/\s+/g, ' ').trim());
    await dialog.getByRole('button', { name: 'Close' }).click();
    return lines;
  }

  // ── One lease ──────────────────────────────────────────────────────────────────────────────

  leaseDetail(leaseId: string): Locator {
    return this.page.getByRole('region', { name: `Lease ${leaseId}` });
  }

  /** Opens "Run command", fills it and clicks "Run", without waiting for the outcome. */
  async startCommand(leaseId: string, command: string, options: { timeoutSeconds?: number; stdin?: string } = {}): Promise<void> {
    const detail = this.leaseDetail(leaseId);
    await detail.getByRole('button', { name: 'Run command' }).click();
    await detail.getByRole('textbox', { name: 'Command' }).fill(command);
    if (options.timeoutSeconds !== undefined) await detail.getByRole('spinbutton', { name: 'Timeout (seconds)' }).fill(String(options.timeoutSeconds));
    if (options.stdin !== undefined) await detail.getByRole('textbox', { name: 'Stdin (optional)' }).fill(options.stdin);
    await detail.getByRole('button', { name: 'Run', exact: true }).click();
  }

  /** Runs a command and waits until the host has started it (the form closes). */
  async runCommand(leaseId: string, command: string, options: { timeoutSeconds?: number; stdin?: string } = {}): Promise<void> {
    await this.startCommand(leaseId, command, options);
    await this.leaseDetail(leaseId).getByRole('textbox', { name: 'Command' }).waitFor({ state: 'detached' });
  }

  /** The error the run form shows when the host refused or failed the command. */
  runError(leaseId: string): Locator {
    return this.leaseDetail(leaseId).getByRole('form', { name: 'Run command' }).getByRole('alert');
  }

  processRow(leaseId: string, processId: string): Locator {
    return this.leaseDetail(leaseId).getByRole('table', { name: 'Processes' }).getByRole('row').filter({ has: this.page.getByRole('button', { name: `Show output of ${processId}`, exact: true }) });
  }

  /** Process ids of the lease, oldest first. */
  async processIds(leaseId: string): Promise<string[]> {
    const labels = await this.leaseDetail(leaseId).getByRole('table', { name: 'Processes' }).getByRole('button', { name: /^Show output of / }).all();
    const ids: string[] = [];
    for (const label of labels) ids.push((await label.innerText()).trim());
    return ids;
  }

  /** The row of a process, or of the newest one when no id is given. */
  private processRowOrNewest(leaseId: string, processId?: string): Locator {
    return processId ? this.processRow(leaseId, processId) : this.leaseDetail(leaseId).getByRole('table', { name: 'Processes' }).getByRole('row').last();
  }

  /** The "Stream" cell of a process (newest when no id is given): "Reconnects N", bytes received and lost, detached, ended without exit. */
  async processStreamCell(leaseId: string, processId?: string): Promise<string> {
    const row = this.processRowOrNewest(leaseId, processId);
    return (await row.getByRole('cell').nth(2).innerText()).trim();
  }

  /** The "State" cell of a process (newest when no id is given): state, then exit code or signal and the tree. */
  async processStateCell(leaseId: string, processId?: string): Promise<string> {
    return (await this.processRowOrNewest(leaseId, processId).getByRole('cell').nth(1).innerText()).trim();
  }

  /** The "Reconnects N" of a process (of the newest one when no id is given). */
  async reconnects(leaseId: string, processId?: string): Promise<number> {
    const text = await this.processRowOrNewest(leaseId, processId).getByText(/^Reconnects \d+$/).innerText();
    return Number(/\d+/.exec(text)?.[0] ?? Number.NaN);
  }

  async showProcessOutput(leaseId: string, processId: string): Promise<void> {
    await this.leaseDetail(leaseId).getByRole('button', { name: `Show output of ${processId}`, exact: true }).click();
  }

  /** Clicks "Stop process" and returns the host's answer as shown ("Stopped: …" or "Not proven: …"). */
  async stopProcess(leaseId: string, processId: string): Promise<string> {
    const row = this.processRow(leaseId, processId);
    await row.getByRole('button', { name: 'Stop process' }).click();
    const answer = row.locator('.stop [role="status"], .stop [role="alert"]').filter({ hasNotText: 'Stopping…' });
    await answer.first().waitFor({ timeout: 60_000 });
    return (await answer.first().innerText()).trim();
  }

  tail(leaseId: string): Locator {
    return this.leaseDetail(leaseId).getByRole('log');
  }

  /** The text of the output lines in view (markers left out). */
  async tailLines(leaseId: string): Promise<string[]> {
    return (await this.tail(leaseId).locator('.line:not(.marker) .line-text').allInnerTexts()).map((l) => l.replace(/\n$/, ''));
  }

  /** Gap, truncation, reconnect and exit markers in view. */
  async tailMarkers(leaseId: string): Promise<string[]> {
    return this.tail(leaseId).locator('.line.marker .line-text').allInnerTexts();
  }

  async tailIsFollowing(leaseId: string): Promise<boolean> {
    return (await this.leaseDetail(leaseId).getByRole('button', { name: 'Follow', exact: true }).getAttribute('aria-pressed')) === 'true';
  }

  async followTail(leaseId: string): Promise<void> {
    await this.leaseDetail(leaseId).getByRole('button', { name: 'Follow', exact: true }).click();
  }

  /** Types into the tail's search; returns the match count text ("3 matches", "No matches"). */
  async searchTail(leaseId: string, query: string): Promise<string> {
    const detail = this.leaseDetail(leaseId);
    await detail.getByRole('searchbox', { name: 'Search output' }).fill(query);
    return (await detail.locator('.match-count').innerText()).trim();
  }

  async setWrapLines(leaseId: string, on: boolean): Promise<void> {
    await this.leaseDetail(leaseId).getByRole('checkbox', { name: 'Wrap lines' }).setChecked(on);
  }

  /** How the tail is laid out: whether it scrolls sideways, and each row's box in view (top, height). */
  async tailLayout(leaseId: string): Promise<{ scrollsSideways: boolean; rows: Array<{ top: number; height: number }> }> {
    return this.tail(leaseId).evaluate((log: LaidOutElement) => ({
      scrollsSideways: log.scrollWidth > log.clientWidth,
      rows: Array.from(log.querySelectorAll('.line'), (row) => row.getBoundingClientRect())
        .sort((a, b) => a.top - b.top)
        .map((box) => ({ top: box.top, height: box.height })),
    }));
  }

  destroyStatus(leaseId: string): Locator {
    return this.leaseDetail(leaseId).locator('.destroy-status');
  }

  async destroyLease(leaseId: string, reason: string): Promise<void> {
    const detail = this.leaseDetail(leaseId);
    await detail.getByRole('button', { name: 'Destroy lease' }).first().click();
    const dialog = this.page.getByRole('dialog', { name: `Destroy lease ${leaseId}` });
    await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
    await dialog.getByRole('button', { name: 'Confirm destroy' }).click();
  }

  timeline(leaseId: string): Locator {
    return this.leaseDetail(leaseId).getByRole('region', { name: 'Timeline' });
  }

  // ── Containment ────────────────────────────────────────────────────────────────────────────

  /**
   * The lease's "Containment unproven" banner in the list at the top of the app: exactly one per
   * lease, so strict actions (waitFor, innerText, click) work. The open lease shows its own too:
   * see `leaseBanner`.
   */
  banner(leaseId: string): Locator {
    return this.page.getByRole('region', { name: 'Unproven leases' }).getByRole('alert').filter({ hasText: 'Containment unproven' }).filter({ hasText: leaseId });
  }

  /** Same as `banner` (kept for readability in specs about the top list). */
  topBanner(leaseId: string): Locator {
    return this.banner(leaseId);
  }

  /** The banner inside the open lease's view. */
  leaseBanner(leaseId: string): Locator {
    return this.leaseDetail(leaseId).getByRole('alert').filter({ hasText: 'Containment unproven' });
  }

  /** One click on the top banner's "Destroy lease". */
  async destroyFromBanner(leaseId: string): Promise<void> {
    await this.topBanner(leaseId).getByRole('button', { name: 'Destroy lease' }).click();
  }

  /** The notice that replaces a banner once the lease is proven contained (shows the proof). */
  resolvedNotice(leaseId: string): Locator {
    return this.page.getByRole('region', { name: 'Unproven leases' }).getByRole('status').filter({ hasText: 'Containment resolved' }).filter({ hasText: leaseId });
  }

  async dismissResolvedNotice(leaseId: string): Promise<void> {
    await this.resolvedNotice(leaseId).getByRole('button', { name: 'Dismiss' }).click();
  }

  // ── Incident export ────────────────────────────────────────────────────────────────────────

  exportDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Export incident log' });
  }

  /** The redaction preview of the open export dialog, once shown. */
  async redactionPreview(): Promise<string> {
    const preview = this.exportDialog().getByRole('group', { name: 'Redaction preview' });
    await preview.waitFor({ timeout: 30_000 });
    return preview.innerText();
  }

  /** "Export incident log" on the lease: waits for the preview, saves, returns the download and its SHA-256. */
  async exportIncidentLog(leaseId: string, format: 'json' | 'html' = 'json'): Promise<ExportedIncident> {
    await this.leaseDetail(leaseId).getByRole('button', { name: 'Export incident log' }).click();
    return this.saveExport(format);
  }

  /** The export for a time window (local times, as the inputs take them). */
  async exportTimeWindow(from: Date, to: Date, format: 'json' | 'html' = 'json'): Promise<ExportedIncident> {
    await this.page.getByRole('button', { name: 'Export time window' }).click();
    const dialog = this.exportDialog();
    await dialog.getByLabel('From').fill(localInput(from));
    await dialog.getByLabel('To').fill(localInput(to));
    await dialog.getByRole('button', { name: 'Preview' }).click();
    return this.saveExport(format);
  }

  private async saveExport(format: 'json' | 'html'): Promise<ExportedIncident> {
    const dialog = this.exportDialog();
    await dialog.getByRole('radio', { name: format === 'json' ? 'JSON' : 'HTML' }).check();
    await this.redactionPreview();
    const downloaded = this.page.waitForEvent('download', { timeout: 60_000 });
    await dialog.getByRole('button', { name: 'Save export' }).click();
    const download = await downloaded;
    const sha256 = (await dialog.locator('.sha256').innerText({ timeout: 60_000 })).trim();
    await dialog.getByRole('button', { name: 'Close' }).click();
    return { download, fileName: download.suggestedFilename(), sha256 };
  }

  // ── Settings, palette, theme ───────────────────────────────────────────────────────────────

  async openSettings(): Promise<Locator> {
    await this.page.getByRole('button', { name: 'Settings', exact: true }).click();
    return this.page.getByRole('dialog', { name: 'Settings' });
  }

  environmentRow(name: string): Locator {
    return this.page.getByRole('dialog', { name: 'Settings' }).getByRole('row', { name, exact: true });
  }

  async addEnvironment(environment: NewEnvironment): Promise<void> {
    const settings = this.page.getByRole('dialog', { name: 'Settings' });
    await settings.getByRole('button', { name: 'Add environment' }).click();
    const form = settings.getByRole('form', { name: 'Add environment' });
    await form.getByRole('textbox', { name: 'Name' }).fill(environment.name);
    await form.getByRole('textbox', { name: 'URL' }).fill(environment.url);
    if (environment.apiKey !== undefined) await form.getByLabel('API key').fill(environment.apiKey);
    await form.getByRole('button', { name: 'Save environment' }).click();
    await form.waitFor({ state: 'detached', timeout: 30_000 });
  }

  /** "Test connection" on an environment; returns the answer shown. */
  async testEnvironment(name: string): Promise<string> {
    const row = this.environmentRow(name);
    await row.getByRole('button', { name: 'Test connection' }).click();
    const answer = row.getByRole('status').filter({ hasText: /^(OK|Failed):/ });
    await answer.waitFor({ timeout: 60_000 });
    return (await answer.innerText()).trim();
  }

  async closeSettings(): Promise<void> {
    await this.page.getByRole('dialog', { name: 'Settings' }).getByRole('button', { name: 'Close', exact: true }).click();
  }

  /** Ctrl+K, type, Enter. */
  async runPaletteCommand(label: string): Promise<void> {
    await this.page.keyboard.press('Control+K');
    const palette = this.page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox', { name: 'Search commands' }).fill(label);
    await palette.getByRole('combobox', { name: 'Search commands' }).press('Enter');
    await palette.waitFor({ state: 'detached' });
  }

  async theme(): Promise<string | null> {
    return this.page.locator('[data-theme]').first().getAttribute('data-theme');
  }

  async toggleTheme(): Promise<void> {
    await this.page.getByRole('button', { name: 'Toggle theme' }).click();
  }

  async screenshot(path: string): Promise<void> {
    await this.page.screenshot({ path, fullPage: true });
  }
}

function localInput(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
