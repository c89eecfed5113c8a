import { describe, expect, it } from 'vitest';
import { Redactor, type RedactionOptions } from './redact';

const opts: RedactionOptions = { secrets: ['cos_live_123456'], secretPatterns: [/corp-[0-9]{4}/] };

function redact(text: string, options: RedactionOptions = opts): { out: string; redactor: Redactor } {
  const redactor = new Redactor(options);
  return { out: redactor.text(text, 'x'), redactor };
}

describe('Redactor', () => {
  it.each([
    ['a configured secret', 'key is cos_live_123456 here', 'key is [REDACTED:api-key] here', 'api-key'],
    ['an Authorization header value', 'Authorization: Basic dXNlcjpwdw==\nnext', 'Authorization: [REDACTED:authorization-header]\nnext', 'authorization-header'],
    ['a JSON authorization value', '{"authorization":"Token abc","x":1}', '{"authorization":"[REDACTED:authorization-header]","x":1}', 'authorization-header'],
    ['an X-Api-Key header value', 'x-api-key:  hunter2 \r\n', 'x-api-key:  [REDACTED:x-api-key-header] \r\n', 'x-api-key-header'],
    ['a bearer token in prose', 'sent bearer eyJhbGciOi.payload.sig to it', 'sent bearer [REDACTED:bearer-token] to it', 'bearer-token'],
    ['an sk- token, even as a value', 'token=sk-leak-abc123;', 'token=[REDACTED:sk-token];', 'sk-token'],
    ['an sk- token in prose', 'use sk-leak-abc123 now', 'use [REDACTED:sk-token] now', 'sk-token'],
    ['a sensitive env assignment', 'OPENAI_API_KEY=abc123 make', 'OPENAI_API_KEY=[REDACTED:env-value] make', 'env-value'],
    ['a quoted password assignment', "DB_PASSWORD='a b c' next", 'DB_PASSWORD=[REDACTED:env-value] next', 'env-value'],
    ['any exported variable', 'export DATABASE_URL=postgres://u:p@h/db', 'export DATABASE_URL=[REDACTED:env-value]', 'env-value'],
    ['a flag carrying a key', 'run --api-key=xyz789', 'run --api-key=[REDACTED:env-value]', 'env-value'],
    ['a configured pattern (no g flag)', 'ticket corp-1234 and corp-9999', 'ticket [REDACTED:secret-pattern] and [REDACTED:secret-pattern]', 'secret-pattern'],
  ])('redacts %s', (_name, input, expected, kind) => {
    const { out, redactor } = redact(input);
    expect(out).toBe(expected);
    expect(redactor.summary().kinds.map((k) => k.kind)).toEqual([kind]);
  });

  it('leaves ordinary text alone', () => {
    const text = 'FOO=bar PATH=/usr/bin Authorization failed: bad token; task-abcdefgh disk-usage';
    const { out, redactor } = redact(text);
    expect(out).toBe(text);
    expect(redactor.hits).toEqual([]);
  });

  it('merges overlapping finds into one redaction that covers all of them', () => {
    const { out, redactor } = redact('Authorization: Bearer cos_live_123456 and more\nok');
    expect(out).toBe('Authorization: [REDACTED:authorization-header]\nok');
    expect(redactor.summary()).toEqual({ count: 1, kinds: [{ kind: 'authorization-header', count: 1 }] });
  });

  it('counts every occurrence and records where and a masked context', () => {
    const { redactor } = redact('a cos_live_123456 b\nc cos_live_123456 d');
    expect(redactor.summary()).toEqual({ count: 2, kinds: [{ kind: 'api-key', count: 2 }] });
    expect(redactor.hits[0]).toEqual({ kind: 'api-key', path: 'x', context: 'a [REDACTED:api-key] b⏎c [REDACTED:api-key] …' });
    expect(JSON.stringify(redactor.hits)).not.toContain('cos_live');
  });

  it('survives patterns that match the empty string and ignores empty secrets', () => {
    const { out } = redact('abc', { secrets: [''], secretPatterns: [/x*/g] });
    expect(out).toBe('abc');
  });
});
