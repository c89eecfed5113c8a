// Which CreateOS the console talks to: the embedded createos-local (default) or a real one.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startCreateosLocal, type CreateosLocal } from '../../createos-local/server';
import { parseCreateosConfig, type CreateosConfig } from '../host/createos/config';

export interface ProviderChoice {
  createosUrl?: string | undefined;
  apiKeyFile?: string | undefined;
  envApiKey?: string | undefined;
  dataDir: string;
  log: (line: string) => void;
}

export interface ProviderConnection {
  config: CreateosConfig;
  kind: 'createos-local' | 'createos';
  embedded: CreateosLocal | null;
  close(): Promise<void>;
}

async function readKeyFile(path: string): Promise<string> {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    throw new Error(`Cannot read the API key file ${path}.`);
  }
}

export async function connectProvider(choice: ProviderChoice): Promise<ProviderConnection> {
  if (choice.createosUrl !== undefined) {
    const apiKey = choice.apiKeyFile !== undefined ? await readKeyFile(choice.apiKeyFile) : undefined;
    const config = parseCreateosConfig({ apiUrl: choice.createosUrl, ...(apiKey === undefined ? {} : { apiKey }) }, choice.envApiKey);
    return { config, kind: 'createos', embedded: null, close: () => Promise.resolve() };
  }
  const apiKey = randomBytes(24).toString('base64url');
  const embedded = await startCreateosLocal({ apiKey, dataDir: join(choice.dataDir, 'createos-local'), port: 0, log: choice.log });
  const config = parseCreateosConfig({ apiUrl: embedded.url, apiKey });
  return { config, kind: 'createos-local', embedded, close: () => embedded.close() };
}
