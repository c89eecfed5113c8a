// A real crash: a child process appends to the journal and is killed with SIGKILL mid-stream,
// three times over the same journal. Every record it reported flushed must be back, in order.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, reopen, segmentFiles } from './test-support';

const child = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

/** Runs the child until it has reported `records` more flushed records, then SIGKILLs it. */
function runAndKill(records: number): Promise<{ start: number; flushed: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, dir], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let start = -1;
    let flushed = -1;
    let stdout = '';
    let stderr = '';
    proc.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const lines = stdout.split('\n');
      stdout = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('start ')) start = Number(line.slice(6));
        else flushed = Math.max(flushed, Number(line));
      }
      if (start >= 0 && flushed >= start + records && proc.exitCode === null && !proc.killed) proc.kill('SIGKILL');
    });
    proc.on('error', reject);
    proc.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`child exited with ${code ?? signal ?? '?'} before it was killed:\n${stderr}`));
      else resolve({ start, flushed, stderr });
    });
  });
}

describe('Journal crash safety', () => {
  it('keeps every flushed record, in order, across repeated SIGKILLs mid-stream', async () => {
    let expectedStart = 0;
    for (let round = 0; round < 3; round += 1) {
      const { start, flushed, stderr } = await runAndKill(3000);
      expect(stderr).not.toMatch(/journal error/);
      expect(stderr.match(/journal corrupt/g)?.length ?? 0).toBeLessThanOrEqual(1);
      expect(start).toBe(expectedStart);

      const { records, problems } = await reopen(dir);
      expect(problems.length).toBeLessThanOrEqual(1);
      for (const problem of problems) expect(problem).toMatch(/torn tail/);
      const seqs = records.map((r) => (r.data as { seq: number }).seq);
      expect(seqs.length).toBeGreaterThan(flushed);
      expect(seqs.every((seq, i) => seq === i)).toBe(true);
      expectedStart = seqs.length;
    }
    expect((await segmentFiles(dir)).length).toBeGreaterThan(3);
  }, 60_000);
});
