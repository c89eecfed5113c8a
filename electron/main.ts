// Electron main process: a hardened window on the built renderer, the host, and the IPC binding.
// Thin on purpose: the host and the binding are plain modules tested without Electron.
import { app, BrowserWindow, ipcMain, safeStorage, session } from 'electron';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHost } from './host/compose';
import { bindIpc } from './ipc/bind-ipc';
import { connectProvider } from './runtime/provider';
import { EncryptedSecretStore, FileSecretStore } from './host/settings/secret-store';
import { securityHeaders } from './server/security-headers';

const root = join(import.meta.dirname, '..');
const indexHtml = join(root, 'dist', 'renderer', 'index.html');
const indexUrl = pathToFileURL(indexHtml).href;

async function start(): Promise<void> {
  const log = (line: string): void => { process.stderr.write(`${line}\n`); };
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const createosUrl = process.argv.find((a) => a.startsWith('--createos-url='))?.slice('--createos-url='.length);
  const apiKeyFile = process.argv.find((a) => a.startsWith('--api-key-file='))?.slice('--api-key-file='.length);
  const dataDir = join(app.getPath('userData'), 'data');
  const provider = await connectProvider({ createosUrl, apiKeyFile, envApiKey: process.env['CREATEOS_API_KEY'], dataDir, log });
  const secretStore = new EncryptedSecretStore(new FileSecretStore(join(dataDir, 'secrets')), {
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (encrypted) => safeStorage.decryptString(encrypted),
  });
  const host = await createHost({ config: provider.config, providerKind: provider.kind, mode: 'desktop', version, log, dataDir, secretStore });
  const binding = bindIpc({ ipcMain, router: host.router, isTrustedFrame: (frame) => frame !== null && frame.parent === null && frame.url === indexUrl });

  // Every permission is denied except desktop notifications (containment alerts).
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => callback(permission === 'notifications'));
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [securityHeaders()['Content-Security-Policy'] ?? "default-src 'self'"] } });
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });

  const window = new BrowserWindow({
    width: 1400,
    height: 900,
    title: 'Leasewatch',
    webPreferences: { preload: join(import.meta.dirname, 'preload.cjs'), contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true },
  });
  await window.loadFile(indexHtml);

  app.on('before-quit', () => {
    binding.dispose();
    void host.dispose().then(() => provider.close());
  });
}

app.on('window-all-closed', () => app.quit());
app.whenReady().then(start).catch((error: unknown) => {
  process.stderr.write(`Leasewatch could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  app.exit(1);
});
