import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, JournalLockedError } from './lock';
import { makeTempDir, removeDir } from './test-support';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

const lockFile = (): string => join(dir, 'journal.lock');

describe('journal lock', () => {
  it('takes over a lock left by an earlier process that had our pid (a restarted container)', async () => {
    await writeFile(lockFile(), `${process.pid} 0123456789abcdef0123456789abcdef\n`);
    const release = await acquireLock(dir);
    expect((await readFile(lockFile(), 'utf8')).startsWith(`${process.pid} `)).toBe(true);
    await expect(acquireLock(dir)).rejects.toBeInstanceOf(JournalLockedError);
    await release();
  });

  it('takes over a lock in the old pid-only format when the pid is ours', async () => {
    await writeFile(lockFile(), `${process.pid}\n`);
    const release = await acquireLock(dir);
    await release();
  });

  it('refuses a lock held in this process, and one held by another live process', async () => {
    const release = await acquireLock(dir);
    await expect(acquireLock(dir)).rejects.toBeInstanceOf(JournalLockedError);
    await release();
    await writeFile(lockFile(), `${process.ppid} 0123456789abcdef0123456789abcdef\n`);
    await expect(acquireLock(dir)).rejects.toThrow(`already open in process ${process.ppid}`);
  });
});
