// `npm run createos-local -- --port P --api-key K [--data-dir D] [--journal-bytes N] [--fault KIND:k=v,...]`
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseFaultFlag, type FaultSpec } from './faults';
import { startCreateosLocal } from './server';

function fail(message: string): never {
  process.stderr.write(`createos-local: ${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        'api-key': { type: 'string' },
        'data-dir': { type: 'string' },
        'journal-bytes': { type: 'string' },
        host: { type: 'string' },
        fault: { type: 'string', multiple: true },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  const port = Number(values.port ?? '0');
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail('--port must be an integer between 0 and 65535');
  const apiKey = values['api-key'] ?? process.env['CREATEOS_API_KEY'];
  if (apiKey === undefined || apiKey.length === 0) fail('--api-key (or CREATEOS_API_KEY) is required');
  const journalBytes = values['journal-bytes'] === undefined ? undefined : Number(values['journal-bytes']);
  if (journalBytes !== undefined && (!Number.isInteger(journalBytes) || journalBytes < 1024)) fail('--journal-bytes must be an integer >= 1024');
  let faults: FaultSpec[];
  try {
    faults = (values.fault ?? []).map(parseFaultFlag);
  } catch (err) {
    fail((err as Error).message);
  }
  const dataDir = path.resolve(values['data-dir'] ?? '.data/createos-local');
  const server = await startCreateosLocal({
    apiKey,
    dataDir,
    port,
    faults,
    log: (line) => process.stderr.write(`${line}\n`),
    ...(values.host !== undefined ? { host: values.host } : {}),
    ...(journalBytes !== undefined ? { journalBytes } : {}),
  });
  process.stdout.write(`createos-local listening on ${server.url}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`createos-local: ${signal}, stopping\n`);
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`createos-local: close failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => fail((err as Error).message));
