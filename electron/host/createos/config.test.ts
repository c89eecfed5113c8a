import { describe, expect, it } from 'vitest';
import { parseApiOrigin, parseCreateosConfig } from './config';
import { CreateosError } from './errors';

const NOT_ORIGIN = 'CreateOS API URL must be an HTTPS origin (optionally ending in /v1); HTTP is allowed on loopback only.';

function configError(input: unknown, envKey?: string): string {
  try {
    parseCreateosConfig(input, envKey);
  } catch (error) {
    expect(error).toBeInstanceOf(CreateosError);
    expect((error as CreateosError).code).toBe('config');
    return (error as Error).message;
  }
  throw new Error('expected a config error');
}

describe('parseCreateosConfig', () => {
  it('accepts an HTTPS origin with or without /v1 and normalises to the origin', () => {
    for (const apiUrl of ['https://api.example.com', 'https://api.example.com/', 'https://api.example.com/v1', 'https://api.example.com/v1/']) {
      const config = parseCreateosConfig({ apiUrl, apiKey: 'k' });
      expect(config.origin).toBe('https://api.example.com');
      expect(config.baseUrl).toBe('https://api.example.com/v1');
      expect(config.timeoutMs).toBe(300_000);
    }
    expect(parseCreateosConfig({ apiUrl: 'https://api.example.com:8443/v1', apiKey: 'k' }).origin).toBe('https://api.example.com:8443');
  });

  it('allows http only on loopback', () => {
    for (const apiUrl of ['http://localhost:8080', 'http://127.0.0.1:9/v1', 'http://[::1]:3000']) {
      expect(() => parseCreateosConfig({ apiUrl, apiKey: 'k' })).not.toThrow();
    }
    for (const apiUrl of ['http://example.com', 'http://10.0.0.1', 'http://127.0.0.2', 'http://localhost.example.com', 'ftp://example.com']) {
      expect(configError({ apiUrl, apiKey: 'k' })).toBe(NOT_ORIGIN);
    }
  });

  it('rejects userinfo, a query, a hash or another path', () => {
    for (const apiUrl of [
      'https://user:pw@api.example.com',
      'https://user@api.example.com',
      'https://api.example.com/?x=1',
      'https://api.example.com/?',
      'https://api.example.com/#frag',
      'https://api.example.com#',
      'https://api.example.com/v2',
      'https://api.example.com/v1/sandboxes',
      'https://api.example.com/api',
    ]) {
      expect(configError({ apiUrl, apiKey: 'k' }), apiUrl).toBe(NOT_ORIGIN);
    }
  });

  it('uses the catalogue messages for missing and malformed values', () => {
    expect(configError({ apiKey: 'k' })).toBe('CreateOS requires an API URL.');
    expect(configError(undefined)).toBe('CreateOS requires an API URL.');
    expect(configError({ apiUrl: 42, apiKey: 'k' })).toBe('apiUrl must be a non-empty string.');
    expect(configError({ apiUrl: '  ', apiKey: 'k' })).toBe('apiUrl must be a non-empty string.');
    expect(configError({ apiUrl: 'not a url', apiKey: 'k' })).toBe('CreateOS API URL is invalid.');
    expect(configError({ apiUrl: 'https://a.example', apiKey: 7 })).toBe('apiKey must be a non-empty string.');
    expect(configError({ apiUrl: 'https://a.example' })).toBe('CreateOS requires an API key in the environment config or CREATEOS_API_KEY.');
    for (const timeoutMs of [0, -1, 1.5, 86_400_001, '100', Number.NaN]) {
      expect(configError({ apiUrl: 'https://a.example', apiKey: 'k', timeoutMs })).toBe('timeoutMs must be an integer between 1 and 86400000.');
    }
    expect(parseCreateosConfig({ apiUrl: 'https://a.example', apiKey: 'k', timeoutMs: 1 }).timeoutMs).toBe(1);
    expect(parseCreateosConfig({ apiUrl: 'https://a.example', apiKey: 'k', timeoutMs: 86_400_000 }).timeoutMs).toBe(86_400_000);
  });

  it('rejects keys with CR, LF or NUL and falls back to the explicit environment key', () => {
    for (const apiKey of ['a\rb', 'a\nb', 'a\0b']) {
      expect(configError({ apiUrl: 'https://a.example', apiKey })).toBe('apiKey must be a non-empty string.');
    }
    expect(parseCreateosConfig({ apiUrl: 'https://a.example' }, 'env-key').apiKey).toBe('env-key');
    expect(parseCreateosConfig({ apiUrl: 'https://a.example', apiKey: 'cfg' }, 'env-key').apiKey).toBe('cfg');
    expect(configError({ apiUrl: 'https://a.example' }, 'bad\nkey')).toBe('CreateOS requires an API key in the environment config or CREATEOS_API_KEY.');
    expect(configError({ apiUrl: 'https://a.example' }, '')).toBe('CreateOS requires an API key in the environment config or CREATEOS_API_KEY.');
  });

  it('never shows the key when the config is serialised, spread or inspected, and never echoes input in errors', () => {
    const config = parseCreateosConfig({ apiUrl: 'https://a.example', apiKey: 'super-secret-key' });
    expect(JSON.stringify(config)).not.toContain('super-secret-key');
    expect(JSON.stringify({ ...config })).not.toContain('super-secret-key');
    expect(Object.keys(config)).not.toContain('apiKey');
    expect(Object.isFrozen(config)).toBe(true);
    expect(configError({ apiUrl: 'https://u:super-secret-key@a.example', apiKey: 'k' })).not.toContain('super-secret-key');
  });

  it('parseApiOrigin keeps the port and lowercases the host', () => {
    expect(parseApiOrigin('https://API.Example.com:444')).toBe('https://api.example.com:444');
  });
});
