import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('npm run desktop without the Electron binary', () => {
  it('exits 1 with one line that says the binary is missing and how to get it', () => {
    const empty = mkdtempSync(join(tmpdir(), 'lw-no-electron-'));
    try {
      const result = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'desktop.ts')], {
        env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty },
        encoding: 'utf8',
      });
      expect(result.status).toBe(1);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/Electron binary is missing.*node node_modules\/electron\/install\.js.*npm start/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
