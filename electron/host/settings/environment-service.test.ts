import { chmod, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCreateosConfig } from '../createos/config';
import { EnvironmentService } from './environment-service';
import { EncryptedSecretStore, FileSecretStore, type SecretStore } from './secret-store';

const dirs: string[] = [];
afterEach(async () => { for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true }); });

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lw-env-'));
  dirs.push(dir);
  return dir;
}

function load(dir: string, secrets: SecretStore, log: string[] = []): Promise<EnvironmentService> {
  return EnvironmentService.load({
    dataDir: dir,
    secrets,
    builtIn: { id: 'local', name: 'embedded', kind: 'createos-local', config: parseCreateosConfig({ apiUrl: 'http://127.0.0.1:9', apiKey: 'builtin-key' }) },
    activate: () => Promise.resolve(),
    probe: () => Promise.resolve('ok'),
    log: (line) => log.push(line),
  });
}

/** Reverses the text; refuses (with the ciphertext in its message, as a careless cipher might) to decrypt `bad`. */
const cipher = {
  encrypt: (plain: string) => Buffer.from([...plain].reverse().join('')),
  decrypt: (encrypted: Buffer) => {
    const text = encrypted.toString();
    if (text.startsWith('bad')) throw new Error(`cannot decrypt ${text}`);
    return [...text].reverse().join('');
  },
};

describe('EnvironmentService', () => {
  it('starts when a saved key cannot be read: that key counts as not set, and the problem is logged without key material', async () => {
    const dir = await dataDir();
    const files = new FileSecretStore(join(dir, 'secrets'));
    const saved = [{ id: 'env-good', name: 'good', url: 'https://good.example' }, { id: 'env-bad', name: 'bad', url: 'https://bad.example' }];
    await writeFile(join(dir, 'environments.json'), JSON.stringify({ active: 'local', environments: saved }));
    await files.set('env-good', Buffer.from('yek-doog').toString('base64'));
    await files.set('env-bad', Buffer.from('bad-ciphertext-XYZ').toString('base64'));
    const log: string[] = [];
    const service = await load(dir, new EncryptedSecretStore(files, cipher), log);
    expect(service.environments().map((e) => [e.id, e.apiKeySet])).toEqual([['local', true], ['env-good', true], ['env-bad', false]]);
    expect(service.allKeys()).toEqual(expect.arrayContaining(['builtin-key', 'good-key']));
    expect(log).toHaveLength(1);
    expect(log[0]).toContain('env-bad');
    expect(log.join('\n')).not.toMatch(/ciphertext|XYZ|good-key/);
  });

  it('keeps a replaced or removed key in the redaction set', async () => {
    const dir = await dataDir();
    const service = await load(dir, new FileSecretStore(join(dir, 'secrets')));
    const env = await service.save({ name: 'prod', url: 'https://prod.example', apiKey: 'first-key' }, 'alice');
    await service.save({ id: env.id, name: 'prod', url: 'https://prod.example', apiKey: 'second-key' }, 'alice');
    expect(service.allKeys()).toEqual(expect.arrayContaining(['builtin-key', 'first-key', 'second-key']));
    await service.remove(env.id, 'alice');
    expect(service.allKeys()).toEqual(expect.arrayContaining(['builtin-key', 'first-key', 'second-key']));
    expect(service.environments().map((e) => e.id)).toEqual(['local']);
  });

  it('writes environments.json as a new 0600 file, whatever mode the old one had', async () => {
    const dir = await dataDir();
    await writeFile(join(dir, 'environments.json'), JSON.stringify({ active: 'local', environments: [] }), { mode: 0o644 });
    await chmod(join(dir, 'environments.json'), 0o644);
    const service = await load(dir, new FileSecretStore(join(dir, 'secrets')));
    await service.save({ name: 'prod', url: 'https://prod.example' }, 'alice');
    expect((await stat(join(dir, 'environments.json'))).mode & 0o777).toBe(0o600);
    expect((await readdir(dir)).sort()).toEqual(['environments.json']);
  });
});
