import { describe, expect, it } from 'vitest';
import { buildIncidentExport } from './build-export';
import { escapeHtml } from './html';
import { API_KEY, incidentInput } from './test-fixture';

describe('incident HTML', () => {
  const { html } = buildIncidentExport(incidentInput(), { secrets: [API_KEY], secretPatterns: [] });

  it('escapes every value: no script from the data reaches the page', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('running &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  });

  it('is self-contained: no external resources, and a CSP that forbids them', () => {
    expect(html).not.toMatch(/\b(src|href)\s*=/i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html.startsWith('<!doctype html>')).toBe(true);
  });

  it('shows the tails and the markers', () => {
    expect(html).toContain('[… 1234 bytes lost: output evicted …]');
    expect(html).toContain('<h5>stderr</h5><pre>warn: retrying');
  });

  it('escapes all five special characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    expect(escapeHtml(null)).toBe('—');
  });
});
