// One writer per journal directory: a lock file holding the owner's pid. A lock left by a process
// that no longer exists (a crash, SIGKILL) is taken over.
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

const LOCK_NAME = 'journal.lock';

export class JournalLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(`journal ${dir} is already open in process ${pid}`);
    this.name = 'JournalLockedError';
  }
}

/** Takes the directory lock; resolves to its release function. */
export async function acquireLock(dir: string): Promise<() => Promise<void>> {
  const path = join(dir, LOCK_NAME);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(path, 'wx');
      try {
        await handle.writeFile(`${process.pid}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await readOwner(path);
    if (owner !== null && isAlive(owner)) throw new JournalLockedError(dir, owner);
    await rm(path, { force: true });
  }
  throw new Error(`could not take the journal lock in ${dir}`);
}

async function readOwner(path: string): Promise<number | null> {
  try {
    const pid = Number.parseInt(await readFile(path, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
