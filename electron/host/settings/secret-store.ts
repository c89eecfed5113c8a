// Where API keys are kept. The host reads them; nothing ever sends them to the renderer.
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface SecretStore {
  get(id: string): Promise<string | null>;
  set(id: string, secret: string): Promise<void>;
  delete(id: string): Promise<void>;
}

/** Browser mode: one 0600 file per key in a 0700 directory of the data dir. */
export class FileSecretStore implements SecretStore {
  constructor(private readonly dir: string) {}

  private path(id: string): string {
    if (!/^[a-z0-9-]{1,40}$/.test(id)) throw new Error('Invalid secret id.');
    return join(this.dir, `${id}.key`);
  }

  async get(id: string): Promise<string | null> {
    try {
      return await readFile(this.path(id), 'utf8');
    } catch {
      return null;
    }
  }

  async set(id: string, secret: string): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await chmod(this.dir, 0o700);
    await writeFile(this.path(id), secret, { mode: 0o600 });
    await chmod(this.path(id), 0o600);
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

  async get(id: string): Promise<string | null> {
    const stored = await this.files.get(id);
    return stored === null ? null : this.cipher.decrypt(Buffer.from(stored, 'base64'));
  }

  set(id: string, secret: string): Promise<void> {
    return this.files.set(id, this.cipher.encrypt(secret).toString('base64'));
  }

  delete(id: string): Promise<void> {
    return this.files.delete(id);
  }
}
