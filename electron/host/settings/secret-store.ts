// Where API keys are kept. The host reads them; nothing ever sends them to the renderer.
import { chmod, mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write';

export interface SecretStore {
  get(id: string): Promise<string | null>;
  set(id: string, secret: string): Promise<void>;
  delete(id: string): Promise<void>;
}

/** A stored key that exists but cannot be read back; the message names the key's id only. */
export class SecretUnreadableError extends Error {
  override readonly name = 'SecretUnreadableError';
  constructor(readonly id: string) {
    super(`The stored API key for ${id} cannot be read.`);
  }
}

/** Browser mode: one 0600 file per key in a 0700 directory of the data dir, each written atomically. */
export class FileSecretStore implements SecretStore {
  constructor(private readonly dir: string) {}

  private path(id: string): string {
    if (!/^[a-z0-9-]{1,40}$/.test(id)) throw new Error('Invalid secret id.');
    return join(this.dir, `${id}.key`);
  }

  /** Null when no key is stored; throws SecretUnreadableError when one is but cannot be read. */
  async get(id: string): Promise<string | null> {
    const path = this.path(id);
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new SecretUnreadableError(id);
    }
  }

  async set(id: string, secret: string): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await chmod(this.dir, 0o700);
    await writeFileAtomic(this.path(id), secret);
  }

  async delete(id: string): Promise<void> {
    await rm(this.path(id), { force: true });
  }
}

/** Desktop mode: keys encrypted by the OS keychain (Electron safeStorage, injected by main.ts). */
export class EncryptedSecretStore implements SecretStore {
  constructor(
    private readonly files: FileSecretStore,
    private readonly cipher: { encrypt(plain: string): Buffer; decrypt(encrypted: Buffer): string },
  ) {}

  /** Throws (with a message free of key material) when the stored key cannot be decrypted. */
  async get(id: string): Promise<string | null> {
    const stored = await this.files.get(id);
    if (stored === null) return null;
    try {
      return this.cipher.decrypt(Buffer.from(stored, 'base64'));
    } catch {
      throw new SecretUnreadableError(id);
    }
  }

  set(id: string, secret: string): Promise<void> {
    return this.files.set(id, this.cipher.encrypt(secret).toString('base64'));
  }

  delete(id: string): Promise<void> {
    return this.files.delete(id);
  }
}
