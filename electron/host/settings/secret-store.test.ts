import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EncryptedSecretStore, FileSecretStore } from './secret-store';

const dirs: string[] = [];
afterEach(async () => { for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true }); });

describe('FileSecretStore', () => {
  it('keeps each key in a 0600 file inside a 0700 directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lw-secrets-'));
    dirs.push(dir);
    const store = new FileSecretStore(join(dir, 'secrets'));
    await store.set('prod', 'k-123');
    expect(await store.get('prod')).toBe('k-123');
    expect((await stat(join(dir, 'secrets', 'prod.key'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'secrets'))).mode & 0o777).toBe(0o700);
    await store.delete('prod');
    expect(await store.get('prod')).toBeNull();
    await expect(store.set('../x', 'k')).rejects.toThrow('Invalid secret id.');
  });

  it('stores only ciphertext when a cipher is given', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lw-secrets-'));
    dirs.push(dir);
    const files = new FileSecretStore(dir);
    const cipher = { encrypt: (p: string) => Buffer.from([...p].reverse().join('')), decrypt: (b: Buffer) => [...b.toString()].reverse().join('') };
    const store = new EncryptedSecretStore(files, cipher);
    await store.set('prod', 'secret-key');
    expect(await readFile(join(dir, 'prod.key'), 'utf8')).not.toContain('secret-key');
    expect(await store.get('prod')).toBe('secret-key');
  });
});
