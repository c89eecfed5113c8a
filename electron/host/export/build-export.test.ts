import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildIncidentExport, previewRedactions } from './build-export';
import type { IncidentDocument } from './document';
import type { IncidentInput } from './incident-input';
import { canonicalJson, verifyExport } from './manifest';
import type { RedactionOptions } from './redact';
import { API_KEY, LEAK, incidentInput } from './test-fixture';

const opts: RedactionOptions = { secrets: [API_KEY], secretPatterns: [/hunter\d/] };
const parse = (json: string): IncidentDocument => JSON.parse(json) as IncidentDocument;

/** The same data with every object's keys in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversedKeys(v)]));
  }
  return value;
}

describe('buildIncidentExport', () => {
  it('is deterministic: the same input gives the same bytes, whatever the key or lease order', () => {
    const first = buildIncidentExport(incidentInput(), opts);
    const again = buildIncidentExport(incidentInput(), opts);
    const shuffled = incidentInput();
    shuffled.leases.reverse();
    const reordered = buildIncidentExport(reversedKeys(shuffled) as IncidentInput, opts);
    expect(again).toEqual(first);
    expect(reordered.json).toBe(first.json);
    expect(reordered.html).toBe(first.html);
    expect(first.fileName).toBe('leasewatch-incident-lease-lease-a-20240501T110000Z.json');
    expect(first.htmlFileName).toBe('leasewatch-incident-lease-lease-a-20240501T110000Z.html');
  });

  it('writes the documented shape', () => {
    const doc = parse(buildIncidentExport(incidentInput(), opts).json);
    expect(Object.keys(doc)).toEqual(['format', 'generatedAt', 'scope', 'environment', 'leases', 'operatorActions', 'redactions', 'manifest']);
    expect(doc.format).toBe('leasewatch-incident/1');
    expect(doc.generatedAt).toBe('2024-05-01T11:00:00.000Z');
    expect(doc.leases.map((l) => l.id)).toEqual(['lease-a']);
    const [lease] = doc.leases;
    expect(lease?.timeline).toEqual([
      { at: 1_714_557_600_000, kind: 'state', summary: 'running <script>alert("x")</script>', detail: null, actor: 'alice' },
      { at: 1_714_557_608_000, kind: 'verdict', summary: 'unproven: tree did not exit', detail: 'DELETE answered tree_exited=false', actor: null },
    ]);
    expect(lease?.verdict.status).toBe('unproven');
    expect(lease?.evidence).toHaveLength(2);
    expect(lease?.reconnects.map((r) => r.count)).toEqual([1, 2]);
    expect(lease?.processes[0]).toMatchObject({ processId: 'p1', exitCode: 0, treeExited: false });
    expect(doc.operatorActions.map((a) => a.actor)).toEqual(['alice']);
  });

  it('renders tails as readable text, stdout and stderr apart, with gap and truncation lines', () => {
    const process = parse(buildIncidentExport(incidentInput(), opts).json).leases[0]?.processes[0];
    expect(process?.stdout.split('\n')).toEqual([
      'starting worker',
      'Authorization: [REDACTED:authorization-header]',
      'using key [REDACTED:api-key] ok',
      '[… 1234 bytes lost: output evicted …]',
      'after gap: token [REDACTED:sk-token] done',
      'export DB_URL=[REDACTED:env-value]',
      'API_TOKEN=[REDACTED:env-value]',
      'FOO=bar',
      '[… 4096 bytes truncated …]',
      '[… process exited: exit code 0 …]',
      '',
    ]);
    expect(process?.stderr).toBe(
      'warn: retrying\n[… 1234 bytes lost: output evicted …]\n[… 4096 bytes truncated …]\nX-Api-Key: [REDACTED:x-api-key-header]\n<script>alert(1)</script>\n[… process exited: exit code 0 …]\n',
    );
  });

  it('redacts every kind, including secrets split across tail entries, and says what it redacted', () => {
    const { json, html } = buildIncidentExport(incidentInput(), opts);
    for (const output of [json, html]) {
      expect(output).not.toContain(LEAK);
      expect(output).not.toContain(API_KEY);
      expect(output).not.toContain(API_KEY.slice(8));
      expect(output).not.toContain('abcdefgh12345678');
      expect(output).not.toContain('hunter2');
      expect(output).not.toContain('postgres://u:p@');
      expect(output).not.toContain('tok en');
      expect(output).not.toContain('user:pw');
      expect(output).not.toContain('token=abc');
    }
    const doc = parse(json);
    expect(doc.environment.providerUrl).toBe('https://api.createos.example/v1/');
    expect(doc.redactions).toEqual({
      count: 10,
      kinds: [
        { kind: 'api-key', count: 3 },
        { kind: 'authorization-header', count: 1 },
        { kind: 'x-api-key-header', count: 1 },
        { kind: 'sk-token', count: 1 },
        { kind: 'env-value', count: 2 },
        { kind: 'url-credentials', count: 1 },
        { kind: 'url-query', count: 1 },
      ],
    });
  });

  it('applies configured secret patterns', () => {
    const input = incidentInput();
    input.operatorActions[0] = { at: 1, actor: 'carol', action: 'note', leaseId: 'lease-a', reason: 'ticket hunter7' };
    const doc = parse(buildIncidentExport(input, opts).json);
    expect(doc.operatorActions[0]?.reason).toBe('ticket [REDACTED:secret-pattern]');
  });

  it('carries a manifest that verifies, and notices tampering', () => {
    const { json } = buildIncidentExport(incidentInput(), opts);
    const doc = parse(json);
    expect(doc.manifest.algorithm).toBe('sha256');
    for (const [name, hash] of Object.entries(doc.manifest.sections)) {
      const section = (doc as unknown as Record<string, unknown>)[name];
      expect(createHash('sha256').update(canonicalJson(section)).digest('hex')).toBe(hash);
    }
    expect(verifyExport(json)).toEqual({ ok: true, mismatched: [] });
    expect(verifyExport(json.replace('starting worker', 'starting wörker'))).toEqual({ ok: false, mismatched: ['leases'] });
  });

  it('exports a time window: leases active in it, cut to it, with the actions in it', () => {
    const input = incidentInput();
    input.scope = { kind: 'window', from: 1_714_557_600_000 + 2000, to: 1_714_557_600_000 + 4500 };
    const { json, fileName } = buildIncidentExport(input, opts);
    const doc = parse(json);
    expect(fileName).toBe('leasewatch-incident-window-20240501T100002Z-20240501T100004Z-20240501T110000Z.json');
    expect(doc.leases.map((l) => l.id)).toEqual(['lease-a']);
    expect(doc.leases[0]?.reconnects.map((r) => r.count)).toEqual([1, 2]);
    expect(doc.leases[0]?.timeline).toEqual([]);
    expect(doc.leases[0]?.evidence).toHaveLength(2);
    expect(doc.leases[0]?.processes[0]?.stdout).toMatch(/^\[… earlier output outside the export window omitted …\]\nusing key \[REDACTED:api-key\] ok\n/);
    expect(doc.operatorActions).toEqual([]);
  });

  it('rejects input that is not an IncidentInput', () => {
    const bad = { ...incidentInput(), generatedAt: 'yesterday' } as unknown as IncidentInput;
    expect(() => buildIncidentExport(bad, opts)).toThrow();
  });
});

describe('previewRedactions', () => {
  it('lists every redaction with its kind, where it is, and masked context, matching the export', () => {
    const preview = previewRedactions(incidentInput(), opts);
    const doc = parse(buildIncidentExport(incidentInput(), opts).json);
    expect({ count: preview.count, kinds: preview.kinds.map(({ kind, count }) => ({ kind, count })) }).toEqual(doc.redactions);
    expect(preview.leases).toBe(1);
    expect(preview.kinds.find((k) => k.kind === 'api-key')?.samples).toHaveLength(3);
    expect(preview.items).toContainEqual({ kind: 'sk-token', path: 'leases[lease-a].processes[p1].stdout', context: expect.stringContaining('token [REDACTED:sk-token] done') as unknown });
    expect(preview.items).toContainEqual({ kind: 'api-key', path: 'operatorActions[0].reason', context: 'runaway; key was [REDACTED:api-key]' });
    expect(preview.items.filter((item) => item.path === 'environment.providerUrl').map((item) => item.kind)).toEqual(['url-credentials', 'url-query']);
    const serialized = JSON.stringify(preview);
    expect(serialized).not.toContain(LEAK);
    expect(serialized).not.toContain(API_KEY);
  });
});
