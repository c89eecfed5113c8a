import { describe, expect, it } from 'vitest';
import type { IncidentDocument } from '../export';
import type { TailEntry } from '../../../shared/domain';
import { LeaseRecord } from '../state/lease-record';
import { LeaseStore } from '../state/lease-store';
import { IncidentService, type IncidentServiceOptions } from './incident-service';

const KEY = 'cos_live_9f8e7d6c5b4a';
const out = (text: string, at: number, seq = at): TailEntry => ({ kind: 'text', stream: 'stdout', text, seq, at });

/** A store with lease `quiet` (timeline only, at t=1) and lease `busy` (timeline at t=1, output and reconnects later). */
function setup(busyTail: TailEntry[], options: Partial<IncidentServiceOptions> = {}): { store: LeaseStore; service: IncidentService } {
  const store = new LeaseStore();
  for (const id of ['quiet', 'busy']) {
    const record = new LeaseRecord({ id, status: 'running' });
    record.note({ at: 1, kind: 'state', summary: 'Lease discovered', detail: null, actor: null });
    store.restore(record);
  }
  store.tail('busy', 'p1').restore(busyTail);
  const service = new IncidentService({ store, appVersion: '0.1.0', providerUrl: 'https://api.example', secrets: () => [KEY], now: () => 10_000, ...options });
  return { store, service };
}

async function exportDoc(service: IncidentService, from: number, to: number): Promise<IncidentDocument> {
  return JSON.parse((await service.export({ kind: 'window', from, to }, 'json', 'alice')).content) as IncidentDocument;
}

describe('IncidentService window exports', () => {
  it('selects a lease whose only activity in the window is output', async () => {
    const { service } = setup([out('hello\n', 100)]);
    const doc = await exportDoc(service, 50, 150);
    expect(doc.leases.map((l) => l.id)).toEqual(['busy']);
    expect(doc.leases[0]?.processes[0]?.stdout).toBe('hello\n');
  });

  it('selects a lease whose only activity in the window is a reconnect', async () => {
    const { service } = setup([out('a\n', 10), { kind: 'reconnect', count: 1, reason: 'reset', at: 100 }]);
    const doc = await exportDoc(service, 50, 150);
    expect(doc.leases.map((l) => l.id)).toEqual(['busy']);
    expect(doc.leases[0]?.reconnects).toEqual([{ at: 100, processId: 'p1', count: 1, reason: 'reset' }]);
    await expect(service.preview({ kind: 'window', from: 50, to: 150 })).resolves.toMatchObject({ leases: 1 });
  });

  it('still says so when nothing happened in the window', async () => {
    const { service } = setup([out('a\n', 10)]);
    await expect(service.export({ kind: 'window', from: 500, to: 600 }, 'json', 'alice')).rejects.toThrow('No lease has recorded activity in that time window.');
  });

  it('says what output before and after the window it left out, and redacts a key across the window edge', async () => {
    const { service } = setup([out(`early\nkey ${KEY.slice(0, 12)}`, 10), out(`${KEY.slice(12)} ok\n`, 100), out('late\n', 200)]);
    const doc = await exportDoc(service, 50, 150);
    const stdout = doc.leases[0]?.processes[0]?.stdout;
    expect(stdout).toBe('[… earlier output outside the export window omitted …]\n[REDACTED:api-key] ok\n[… later output outside the export window omitted …]\n');
    expect(JSON.stringify(doc)).not.toContain(KEY.slice(12));
  });

  it('records the export only on the leases in it', async () => {
    const { store, service } = setup([out('hello\n', 100)]);
    await exportDoc(service, 50, 150);
    expect(store.record('busy').timeline.map((e) => e.summary)).toContain('export incident log');
    expect(store.record('quiet').timeline.map((e) => e.summary)).not.toContain('export incident log');
  });
});

describe('IncidentService redaction', () => {
  it('redacts sk tokens in any case and with underscores by default', async () => {
    const { service } = setup([out('a SK-LEAK-abc123 b sk_live_abc123 c\n', 100)]);
    const doc = await exportDoc(service, 50, 150);
    expect(doc.leases[0]?.processes[0]?.stdout).toBe('a [REDACTED:sk-token] b [REDACTED:sk-token] c\n');
  });

  it('honours configured secret patterns', async () => {
    const { service } = setup([out('ticket corp-1234\n', 100)], { secretPatterns: [/corp-\d{4}/] });
    const doc = await exportDoc(service, 50, 150);
    expect(doc.leases[0]?.processes[0]?.stdout).toBe('ticket [REDACTED:secret-pattern]\n');
  });
});
