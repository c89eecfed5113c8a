// One writer per directory: a lock file holding the owner's pid and a random nonce drawn once per
// process. A lock left by a process that no longer exists (a crash, SIGKILL) is taken over, and so
// is one that names our pid with another nonce: an earlier process that had the same pid (common
// when a container restarts), which cannot be alive since we are.
import { randomBytes } from 'node:crypto';
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

const LOCK_NAME = 'journal.lock';

/** Tells this process's locks from those of an earlier process that had the same pid. */
const processNonce = randomBytes(16).toString('hex');

export class JournalLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(`journal ${dir} is already open in process ${pid}`);
    this.name = 'JournalLockedError';
  }
}

interface LockOwner { pid: number; nonce: string | null }

/** Takes the directory lock; resolves to its release function. */
export async function acquireLock(dir: string): Promise<() => Promise<void>> {
  const path = join(dir, LOCK_NAME);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(path, 'wx');
      try {
        await handle.writeFile(`${process.pid} ${processNonce}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await readOwner(path);
    if (owner !== null && isAlive(owner)) throw new JournalLockedError(dir, owner.pid);
    await rm(path, { force: true });
  }
  throw new Error(`could not take the journal lock in ${dir}`);
}

/** The lock's owner: `<pid> <nonce>`, or a bare pid (older lock files); `null` when unreadable. */
async function readOwner(path: string): Promise<LockOwner | null> {
  try {
    const [pidText, nonce] = (await readFile(path, 'utf8')).trim().split(/\s+/);
    const pid = Number.parseInt(pidText ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? { pid, nonce: nonce ?? null } : null;
  } catch {
    return null;
  }
}

function isAlive(owner: LockOwner): boolean {
  if (owner.pid === process.pid) return owner.nonce === processNonce;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
