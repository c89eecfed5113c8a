import { chmod, link, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EncryptedSecretStore, FileSecretStore, SecretUnreadableError } from './secret-store';

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

describe('FileSecretStore writes', () => {
  it('replaces a key by renaming a new 0600 file over it, never by rewriting the old file in place', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lw-secrets-'));
    dirs.push(dir);
    const secrets = join(dir, 'secrets');
    await mkdir(secrets, { mode: 0o755 });
    await chmod(secrets, 0o755);
    await writeFile(join(secrets, 'prod.key'), 'old-key', { mode: 0o644 });
    await chmod(join(secrets, 'prod.key'), 0o644);
    await link(join(secrets, 'prod.key'), join(dir, 'observer'));
    const store = new FileSecretStore(secrets);
    await store.set('prod', 'new-key');
    expect(await readFile(join(dir, 'observer'), 'utf8')).toBe('old-key');
    expect(await store.get('prod')).toBe('new-key');
    expect((await stat(join(secrets, 'prod.key'))).mode & 0o777).toBe(0o600);
    expect((await stat(secrets)).mode & 0o777).toBe(0o700);
    expect(await readdir(secrets)).toEqual(['prod.key']);
  });

  it('leaves no temporary file behind when the write fails', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lw-secrets-'));
    dirs.push(dir);
    await mkdir(join(dir, 'prod.key', 'blocker'), { recursive: true });
    await expect(new FileSecretStore(dir).set('prod', 'k')).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['prod.key']);
  });
});

describe('unreadable keys', () => {
  it('says a key exists but cannot be read, naming only its id', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lw-secrets-'));
    dirs.push(dir);
    const files = new FileSecretStore(dir);
    await files.set('garbled', 'not-a-ciphertext-SECRETISH');
    const cipher = { encrypt: (p: string) => Buffer.from(p), decrypt: (b: Buffer): string => { throw new Error(`bad ${b.toString('hex')}`); } };
    const error: unknown = await new EncryptedSecretStore(files, cipher).get('garbled').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretUnreadableError);
    expect((error as Error).message).toBe('The stored API key for garbled cannot be read.');
    await mkdir(join(dir, 'dir.key'));
    await expect(files.get('dir')).rejects.toBeInstanceOf(SecretUnreadableError);
    expect(await files.get('missing')).toBeNull();
  });
});
