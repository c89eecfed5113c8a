// Secrets in tails must be redacted even when a marker (reconnect, gap, truncation, window cut)
// falls inside them: the stream's joined text is redacted before markers split it.
import { describe, expect, it } from 'vitest';
import type { TailEntry } from '../../../shared/domain';
import { buildIncidentExport, previewRedactions } from './build-export';
import type { IncidentDocument } from './document';
import type { IncidentInput, IncidentScope } from './incident-input';
import { verifyExport } from './manifest';
import type { RedactionOptions } from './redact';
import { API_KEY, lease, processInfo } from './test-fixture';

const opts: RedactionOptions = { secrets: [API_KEY], secretPatterns: [] };
const out = (t: string, at: number): TailEntry => ({ kind: 'text', stream: 'stdout', text: t, seq: at, at });
const reconnect = (at: number): TailEntry => ({ kind: 'reconnect', count: 1, reason: 'connection reset', at });
const gap = (at: number): TailEntry => ({ kind: 'gap', lostBytes: 3, reason: 'output evicted', at });

function input(entries: TailEntry[], scope: IncidentScope = { kind: 'lease', leaseId: 'lease-a' }): IncidentInput {
  return {
    scope,
    generatedAt: 1_000_000,
    environment: { appVersion: '0.1.0', nodeVersion: 'v20', platform: 'linux-x64', providerUrl: 'https://api.example/' },
    leases: [{ lease: lease('lease-a', [processInfo('lease-a', 'p1')]), timeline: [], evidence: [], reconnects: [], tails: [{ processId: 'p1', entries }] }],
    operatorActions: [],
  };
}

function exported(entries: TailEntry[], scope?: IncidentScope): { json: string; html: string; doc: IncidentDocument; stdout: string } {
  const { json, html } = buildIncidentExport(input(entries, scope), opts);
  const doc = JSON.parse(json) as IncidentDocument;
  return { json, html, doc, stdout: doc.leases[0]?.processes[0]?.stdout ?? '' };
}

function expectAbsent(texts: string[], secrets: string[]): void {
  for (const text of texts) for (const secret of secrets) expect(text).not.toContain(secret);
}

describe('tail redaction across markers', () => {
  it('redacts a configured key split by a reconnect; the marker moves to the end of the line', () => {
    const { json, html, stdout, doc } = exported([out('using cos_live_9', 1), reconnect(2), out('f8e7d6c5b4a ok\nnext\n', 3)]);
    expectAbsent([json, html], ['cos_live_9', 'f8e7d6c5b4a']);
    expect(stdout).toBe('using [REDACTED:api-key] ok\n[… stream reconnected (1): connection reset …]\nnext\n');
    expect(doc.redactions).toEqual({ count: 1, kinds: [{ kind: 'api-key', count: 1 }] });
  });

  it('redacts an sk- token split across entries and across a reconnect', () => {
    const { json, stdout } = exported([out('token sk-live-ab', 1), out('c12', 2), reconnect(3), out('3def ok\n', 4)]);
    expectAbsent([json], ['sk-live-ab', 'c123def', '3def']);
    expect(stdout).toBe('token [REDACTED:sk-token] ok\n[… stream reconnected (1): connection reset …]\n');
  });

  it('redacts a key whose halves straddle a gap (the lost bytes were elsewhere)', () => {
    const { json, stdout } = exported([out('using cos_live_9', 1), gap(2), out('f8e7d6c5b4a ok\n', 3)]);
    expectAbsent([json], ['cos_live_9', 'f8e7d6c5b4a']);
    expect(stdout).toBe('using [REDACTED:api-key]\n[… 3 bytes lost: output evicted …]\n ok\n');
  });

  it('masks the token fragments on both sides of a gap that cut a secret', () => {
    const { json, html, stdout, doc } = exported([out('using cos_live_9f8', 1), gap(2), out('6c5b4a ok\nkey sk-live-abc', 3), gap(4), out('def123 done\n', 5)]);
    expectAbsent([json, html], ['cos_live_9f8', '9f8', '6c5b4a', 'sk-live-abc', 'def123']);
    expect(stdout).toBe([
      'using [REDACTED:fragment]', '[… 3 bytes lost: output evicted …]', '[REDACTED:fragment] ok',
      // Joined across the loss the sk- rule matches on: one redaction, shown where it starts.
      'key [REDACTED:sk-token]', '[… 3 bytes lost: output evicted …]', ' done', '',
    ].join('\n'));
    expect(doc.redactions.kinds).toEqual([{ kind: 'sk-token', count: 1 }, { kind: 'fragment', count: 2 }]);
  });

  it('masks a secret-like fragment at the start of a truncated tail, and the end of a known key after a loss', () => {
    const truncated: TailEntry = { kind: 'truncated', droppedBytes: 4096, at: 1 };
    const { stdout } = exported([truncated, out('e7d6c5b4a9 rest\n', 2), gap(3), out('c5b4a ok\n', 4)]);
    expect(stdout).toBe('[… 4096 bytes truncated …]\n[REDACTED:fragment] rest\n[… 3 bytes lost: output evicted …]\n[REDACTED:fragment] ok\n');
  });

  it('leaves ordinary words at a clean line start after a loss alone', () => {
    const { stdout } = exported([out('line one\n', 1), gap(2), out('after gap\n', 3)]);
    expect(stdout).toBe('line one\n[… 3 bytes lost: output evicted …]\nafter gap\n');
  });

  it('redacts before cutting to a window: a secret across the window start is not exported in part', () => {
    const entries = [out('early\nkey cos_live_9f8e', 1), out('7d6c5b4a ok\n', 5), out('late cos_live_9f8e7d6', 9), out('c5b4a\n', 10)];
    const { json, stdout, doc } = exported(entries, { kind: 'window', from: 4, to: 9 });
    expectAbsent([json], ['7d6c5b4a', 'cos_live_9f8e7d6', 'cos_live']);
    expect(stdout).toBe([
      '[… earlier output outside the export window omitted …]',
      '[REDACTED:api-key] ok',
      'late [REDACTED:api-key]',
      '[… later output outside the export window omitted …]', '',
    ].join('\n'));
    expect(doc.redactions).toEqual({ count: 2, kinds: [{ kind: 'api-key', count: 2 }] });
  });

  it('is deterministic, verifies, and the preview matches the export', () => {
    const entries = [out('using cos_live_9', 1), reconnect(2), out('f8e7d6c5b4a ok\n', 3), gap(4), out('abcdef123456 x\n', 5)];
    const first = buildIncidentExport(input(entries), opts);
    expect(buildIncidentExport(input(entries), opts)).toEqual(first);
    expect(verifyExport(first.json)).toEqual({ ok: true, mismatched: [] });
    const preview = previewRedactions(input(entries), opts);
    const path = 'leases[lease-a].processes[p1].stdout';
    expect(preview.items.map((i) => [i.kind, i.path])).toEqual([['api-key', path], ['fragment', path]]);
    expect((JSON.parse(first.json) as IncidentDocument).leases[0]?.processes[0]?.stdout).toContain('[… 3 bytes lost: output evicted …]\n[REDACTED:fragment] x\n');
    expect(JSON.stringify(preview)).not.toContain('f8e7d6c5b4a');
  });
});
