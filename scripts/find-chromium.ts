// Where Debian's Chromium lives (or CHROMIUM_PATH). Playwright never downloads a browser here.
import { existsSync } from 'node:fs';

export const chromiumCandidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

export function findChromium(): string | null {
  const fromEnv = process.env['CHROMIUM_PATH'];
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  return chromiumCandidates.find((path) => existsSync(path)) ?? null;
}
