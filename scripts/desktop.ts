// `npm run desktop`: builds the renderer and the Electron entry points, then starts Electron.
// Where the Electron binary is missing (it cannot be downloaded offline), says so in one line.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const electronDir = join(root, 'node_modules', 'electron');

function electronBinary(): string | null {
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH'];
  if (override) {
    const candidate = join(override, process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron');
    return existsSync(candidate) ? candidate : null;
  }
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

const binary = electronBinary();
if (!binary) {
  process.stderr.write('Leasewatch desktop cannot start: the Electron binary is missing (node_modules/electron/dist). On a machine with internet run `node node_modules/electron/install.js`, or set ELECTRON_OVERRIDE_DIST_PATH to an unpacked Electron 45; meanwhile `npm start` runs the same console in a browser.\n');
  process.exit(1);
}

const vite = join(root, 'node_modules', '.bin', 'vite');
execFileSync(vite, ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
execFileSync(vite, ['build', '--config', 'vite.electron.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
execFileSync(vite, ['build', '--config', 'vite.electron.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit', env: { ...process.env, LEASEWATCH_ELECTRON_ENTRY: 'preload' } });
const child = spawn(binary, [join(root, 'dist-electron', 'main.js'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 1));
