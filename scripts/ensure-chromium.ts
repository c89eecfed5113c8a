// Before the e2e tests: find Chromium, or install Debian's package when running as root, or say
// exactly what to install. Also installs bubblewrap for createos-local's sandboxes when possible.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findChromium } from './find-chromium';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function aptInstall(packages: string[]): void {
  process.stderr.write(`Installing ${packages.join(', ')} with apt-get…\n`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

const missing: string[] = [];
if (!findChromium()) missing.push('chromium');
if (!existsSync('/usr/bin/bwrap')) missing.push('bubblewrap');

if (missing.length > 0 && isRoot) {
  try {
    aptInstall(missing);
  } catch {
    process.stderr.write(`apt-get could not install ${missing.join(', ')}.\n`);
  }
}

if (!findChromium()) {
  process.stderr.write('The e2e tests need Debian\'s Chromium at /usr/bin/chromium. Install it with: sudo apt-get install -y chromium (or set CHROMIUM_PATH).\n');
  process.exit(1);
}
if (!existsSync('/usr/bin/bwrap')) {
  process.stderr.write('Note: bubblewrap is not installed; createos-local falls back to PID namespaces or process groups (sudo apt-get install -y bubblewrap).\n');
}
