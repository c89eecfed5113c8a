// Runs every benchmark in turn, printing their figures. Usage: npm run bench [-- name ...]
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = import.meta.dirname;
const wanted = process.argv.slice(2);
/** Modules the benchmarks share; not benchmarks themselves. */
const helpers = new Set(['run.ts', 'support.ts', 'browser-metrics.ts']);
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !helpers.has(f) && !f.startsWith('.') && !f.endsWith('.test.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)));

let failed = 0;
for (const file of benches) {
  process.stdout.write(`\n== ${file}\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(dir, file)], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
