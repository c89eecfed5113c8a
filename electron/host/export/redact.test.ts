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

describe('Redactor: headers, bearer tokens and URL credentials', () => {
  it.each([
    ['a JSON-escaped authorization header', '{\\"authorization\\":\\"Basic dXNlcjpwYXNz\\"}', '{\\"authorization\\":\\"[REDACTED:authorization-header]\\"}', 'dXNlcjpwYXNz'],
    ['a JSON-escaped x-api-key header', '{\\"x-api-key\\":\\"hunter2\\"}', '{\\"x-api-key\\":\\"[REDACTED:x-api-key-header]\\"}', 'hunter2'],
    ['a short bearer token', 'curl -H Bearer abc123 x', 'curl -H Bearer [REDACTED:bearer-token] x', 'abc123'],
    ['credentials in an https URL', 'git clone https://user:ghp_x@github.com/o/r.git', 'git clone https://[REDACTED:url-credentials]@github.com/o/r.git', 'ghp_x'],
    ['credentials in a postgres URL', 'psql postgres://admin:hunter2@db/x', 'psql postgres://[REDACTED:url-credentials]@db/x', 'hunter2'],
    ['a token as URL user', 'fetch https://ghp_abcdef123@github.com/x', 'fetch https://[REDACTED:url-credentials]@github.com/x', 'ghp_abcdef123'],
  ])('redacts %s', (_name, input, expected, secret) => {
    const { out } = redact(input, { secrets: [], secretPatterns: [] });
    expect(out).toBe(expected);
    expect(out).not.toContain(secret);
  });
});

describe('Redactor: sensitive names', () => {
  it.each([
    ['DB_PASS=', 'DB_PASS=s3cr3t next', 's3cr3t'],
    ['GITHUB_PAT=', 'GITHUB_PAT=ghx_abc next', 'ghx_abc'],
    ['MYSQL_PWD=', 'MYSQL_PWD=pw1 next', 'pw1'],
    ['SESSION_COOKIE=', 'SESSION_COOKIE=c00kie next', 'c00kie'],
    ['SENTRY_DSN=', 'SENTRY_DSN=dsnvalue next', 'dsnvalue'],
    ['GCP_CREDENTIALS=', 'GCP_CREDENTIALS=credval next', 'credval'],
    ['a YAML password', 'password: yamlpw', 'yamlpw'],
    ['a YAML value with spaces', '  db_password: correct horse battery\nnext', 'horse'],
    ['a JSON api_key', '{"api_key": "jsonkey", "x": 1}', 'jsonkey'],
    ['a JSON-escaped api_key', '{\\"api_key\\":\\"escapedkey\\"}', 'escapedkey'],
    ['a --password flag', 'mysql --password flagpw -h db', 'flagpw'],
    ['a --token= flag', 'cli --token=tokval', 'tokval'],
    ['a quoted value with escaped quotes', 'PGPASSWORD="a\\"bcd" psql', 'bcd'],
    ['a single-quoted JSON value with escapes', "{'secret': 'x\\'yz'}", 'yz'],
  ])('redacts %s', (_name, input, secret) => {
    const { out, redactor } = redact(input, { secrets: [], secretPatterns: [] });
    expect(out).not.toContain(secret);
    expect(redactor.summary().count).toBeGreaterThan(0);
  });

  it('keeps the JSON shape around a redacted value', () => {
    expect(redact('{"api_key": "jsonkey", "x": 1}').out).toBe('{"api_key": "[REDACTED:env-value]", "x": 1}');
    expect(redact('PGPASSWORD="a\\"bcd" psql').out).toBe('PGPASSWORD=[REDACTED:env-value] psql');
  });

  it('leaves the shell working directory and ordinary words alone', () => {
    const text = 'PWD=/home/me OLDPWD=/tmp PATH=/usr/bin patch: applied';
    expect(redact(text).out).toBe(text);
  });
});

describe('Redactor: encoded forms of configured keys', () => {
  const key = 'cos_live_9f8e7d6c5b4a/+x';
  const options: RedactionOptions = { secrets: [key], secretPatterns: [] };
  const b64 = (s: string): string => Buffer.from(s).toString('base64');
  const b64url = (s: string): string => Buffer.from(s).toString('base64url');

  it.each([
    ['base64', b64(key)],
    ['base64 at offset 1', b64(`a${key}`)],
    ['base64 at offset 2', b64(`ab${key}`)],
    ['base64url at offset 0', b64url(key)],
    ['base64url at offset 1', b64url(`a${key}`)],
    ['base64url at offset 2', b64url(`ab${key}!`)],
    ['percent-encoded', encodeURIComponent(key)],
    ['percent-encoded, lower-case hex', encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
    ['JSON-escaped with \\/', JSON.stringify(key).slice(1, -1).replaceAll('/', '\\/')],
  ])('finds the key %s', (_name, encoded) => {
    const { out, redactor } = redact(`x ${encoded} y`, options);
    expect(out).not.toContain(encoded);
    expect(redactor.summary().kinds.map((k) => k.kind)).toEqual(['api-key']);
  });

  it('derives the same search set whatever the order of the configured keys', () => {
    const text = `${b64(key)} ${b64('another-secret-1234')}`;
    const a = redact(text, { secrets: [key, 'another-secret-1234'], secretPatterns: [] });
    const b = redact(text, { secrets: ['another-secret-1234', key], secretPatterns: [] });
    expect(a.out).toBe(b.out);
    expect(a.redactor.hits).toEqual(b.redactor.hits);
  });
});

describe('Redactor: the built-in sk rule and configured patterns', () => {
  it.each([
    ['upper case', 'leaked SK-LEAK-abc123 here', 'SK-LEAK-abc123'],
    ['an underscore', 'leaked sk_live_abc123 here', 'sk_live_abc123'],
    ['after an underscore', 'leaked my_sk_live_abc123 here', 'sk_live_abc123'],
  ])('finds an sk token with %s', (_name, input, secret) => {
    const { out, redactor } = redact(input, { secrets: [], secretPatterns: [] });
    expect(out).not.toContain(secret);
    expect(redactor.summary().kinds.map((k) => k.kind)).toEqual(['sk-token']);
  });

  it('honours a configured pattern with the sticky flag everywhere in the text', () => {
    const { out } = redact('a corp-1234 b corp-5678', { secrets: [], secretPatterns: [/corp-[0-9]{4}/y] });
    expect(out).toBe('a [REDACTED:secret-pattern] b [REDACTED:secret-pattern]');
  });
});
