// Browser mode: `npm start`. Starts the provider (embedded createos-local unless --createos-url),
// the host, and the console server on 127.0.0.1, then prints the one URL to open.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createHost } from './host/compose';
import { FileSecretStore } from './host/settings/secret-store';
import { connectProvider } from './runtime/provider';
import { startConsoleServer } from './server/console-server';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const usage = 'Usage: npm start -- [--port N] [--data-dir DIR] [--createos-url URL --api-key-file FILE]';

function fail(message: string): never {
  process.stderr.write(`leasewatch: ${message}\n`);
  process.exit(2);
}

function parseOptions() {
  try {
    const { values } = parseArgs({
      options: {
        port: { type: 'string', default: '4780' },
        'data-dir': { type: 'string', default: join(root, '.data') },
        'createos-url': { type: 'string' },
        'api-key-file': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    });
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be an integer between 0 and 65535. ${usage}`);
    return { port, dataDir: resolve(values['data-dir']), createosUrl: values['createos-url'], apiKeyFile: values['api-key-file'] };
  } catch (error) {
    return fail(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  }
}

async function main(): Promise<void> {
  const options = parseOptions();
  const staticDir = join(root, 'dist', 'renderer');
  if (!existsSync(join(staticDir, 'index.html'))) fail('the renderer is not built; run `npm run build` (npm start does this for you).');
  await mkdir(options.dataDir, { recursive: true });
  const log = (line: string): void => { process.stderr.write(`${line}\n`); };
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const token = process.env['LEASEWATCH_TOKEN'] ?? randomBytes(24).toString('base64url');
  if (!/^[A-Za-z0-9_-]{16,200}$/.test(token)) fail('LEASEWATCH_TOKEN must be 16 to 200 letters, digits, _ or -.');

  const provider = await connectProvider({ createosUrl: options.createosUrl, apiKeyFile: options.apiKeyFile, envApiKey: process.env['CREATEOS_API_KEY'], dataDir: options.dataDir, log });
  const host = await createHost({
    config: provider.config, providerKind: provider.kind, mode: 'browser', version, log,
    dataDir: options.dataDir, secretStore: new FileSecretStore(join(options.dataDir, 'secrets')),
  });
  let server;
  try {
    server = await startConsoleServer({ router: host.router, token, staticDir, port: options.port });
  } catch (error) {
    await host.dispose();
    await provider.close();
    const code = (error as NodeJS.ErrnoException).code;
    fail(code === 'EADDRINUSE' ? `port ${options.port} is in use; pass --port N (or --port 0 for any free port).` : `cannot start the console server: ${String(error)}`);
  }
  process.stdout.write(`Leasewatch console: ${server.url}\n`);

  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await server.close();
    await host.dispose();
    await provider.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
