// CreateOS environments (profiles: URL + API key). The built-in one is what the console started
// with (the embedded createos-local, or --createos-url); others are saved in the data dir with their
// keys in the secret store. Keys never leave the host: the renderer only learns whether one is set.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { ContractInputs, Environment } from '../../../shared/contract';
import { parseCreateosConfig, type CreateosConfig } from '../createos/config';
import { HostError } from '../host-error';
import type { SettingsOperations } from '../services';
import { writeFileAtomic } from './atomic-write';
import type { SecretStore } from './secret-store';

const savedSchema = z.object({
  active: z.string(),
  environments: z.array(z.object({ id: z.string().regex(/^[a-z0-9-]{1,40}$/), name: z.string(), url: z.string() })),
});

export interface BuiltInEnvironment {
  id: string;
  name: string;
  kind: Environment['kind'];
  config: CreateosConfig;
}

export interface EnvironmentServiceOptions {
  dataDir: string;
  secrets: SecretStore;
  builtIn: BuiltInEnvironment;
  /** Switches the host to another environment. */
  activate: (id: string, config: CreateosConfig) => Promise<void>;
  /** Asks the provider who we are; resolves with a short description or rejects with a secret-free error. */
  probe: (config: CreateosConfig) => Promise<string>;
  log?: (line: string) => void;
}

interface Saved { id: string; name: string; url: string }

export class EnvironmentService implements SettingsOperations {
  private saved: Saved[] = [];
  private activeId: string;
  private readonly keys = new Map<string, string>();
  /** Keys replaced or removed in this process: output may still echo them, so they stay redacted. */
  private readonly retiredKeys = new Set<string>();

  private constructor(private readonly options: EnvironmentServiceOptions) {
    this.activeId = options.builtIn.id;
    this.keys.set(options.builtIn.id, options.builtIn.config.apiKey);
  }

  static async load(options: EnvironmentServiceOptions): Promise<EnvironmentService> {
    const service = new EnvironmentService(options);
    try {
      const parsed = savedSchema.safeParse(JSON.parse(await readFile(service.file(), 'utf8')));
      if (parsed.success) service.saved = parsed.data.environments.filter((e) => e.id !== options.builtIn.id);
      else options.log?.('environments.json is malformed and was ignored.');
    } catch {
      // No saved environments yet.
    }
    for (const env of service.saved) {
      let key: string | null;
      try {
        key = await options.secrets.get(env.id);
      } catch {
        // Never the error itself: a store's message could carry key material.
        options.log?.(`The saved API key of environment ${env.id} could not be read; it is treated as not set.`);
        key = null;
      }
      if (key !== null) service.keys.set(env.id, key);
    }
    return service;
  }

  private file(): string {
    return join(this.options.dataDir, 'environments.json');
  }

  private async persist(): Promise<void> {
    await writeFileAtomic(this.file(), `${JSON.stringify({ active: this.activeId, environments: this.saved }, null, 2)}\n`);
  }

  /** Every key the host holds or held in this process (replaced and removed ones too), for redaction. */
  allKeys(): string[] {
    return [...new Set([...this.keys.values(), ...this.retiredKeys])];
  }

  private retire(id: string): void {
    const key = this.keys.get(id);
    if (key !== undefined && key.length > 0) this.retiredKeys.add(key);
  }

  environments(): Environment[] {
    const { builtIn } = this.options;
    return [
      { id: builtIn.id, name: builtIn.name, url: builtIn.config.origin, kind: builtIn.kind, apiKeySet: builtIn.config.apiKey.length > 0, active: this.activeId === builtIn.id },
      ...this.saved.map((e) => ({ id: e.id, name: e.name, url: e.url, kind: 'createos' as const, apiKeySet: this.keys.has(e.id), active: this.activeId === e.id })),
    ];
  }

  private find(id: string): Environment {
    const env = this.environments().find((e) => e.id === id);
    if (!env) throw new HostError('NOT_FOUND', `No environment ${id}.`);
    return env;
  }

  private config(id: string): CreateosConfig {
    if (id === this.options.builtIn.id) return this.options.builtIn.config;
    const env = this.saved.find((e) => e.id === id);
    if (!env) throw new HostError('NOT_FOUND', `No environment ${id}.`);
    return parseCreateosConfig({ apiUrl: env.url, apiKey: this.keys.get(id) ?? '' });
  }

  async save(input: ContractInputs['settings']['saveEnvironment'], _actor: string): Promise<Environment> {
    if (input.id === this.options.builtIn.id) throw new HostError('CONFLICT', 'The built-in environment cannot be edited.');
    const existing = input.id === undefined ? undefined : this.saved.find((e) => e.id === input.id);
    if (input.id !== undefined && !existing) throw new HostError('NOT_FOUND', `No environment ${input.id}.`);
    // Validates the URL with the client's own rules and messages (the key is checked when it is used).
    parseCreateosConfig({ apiUrl: input.url, apiKey: input.apiKey ?? 'placeholder' });
    const id = existing?.id ?? `env-${randomUUID().slice(0, 8)}`;
    const entry = { id, name: input.name, url: input.url };
    this.saved = existing ? this.saved.map((e) => (e.id === id ? entry : e)) : [...this.saved, entry];
    if (input.apiKey !== undefined) {
      await this.options.secrets.set(id, input.apiKey);
      if (this.keys.get(id) !== input.apiKey) this.retire(id);
      this.keys.set(id, input.apiKey);
    }
    await this.persist();
    return this.find(id);
  }

  async remove(id: string, _actor: string): Promise<boolean> {
    if (id === this.options.builtIn.id) throw new HostError('CONFLICT', 'The built-in environment cannot be removed.');
    if (id === this.activeId) throw new HostError('CONFLICT', 'Activate another environment before removing this one.');
    const before = this.saved.length;
    this.saved = this.saved.filter((e) => e.id !== id);
    this.retire(id);
    this.keys.delete(id);
    await this.options.secrets.delete(id);
    await this.persist();
    return this.saved.length < before;
  }

  async test(id: string): Promise<{ ok: boolean; message: string }> {
    this.find(id);
    try {
      const config = this.config(id);
      return { ok: true, message: await this.options.probe(config) };
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : 'The connection test failed.' };
    }
  }

  async activate(id: string, _actor: string): Promise<Environment> {
    this.find(id);
    const config = this.config(id);
    await this.options.activate(id, config);
    this.activeId = id;
    await this.persist();
    return this.find(id);
  }
}
