// Race-free resolution of sandbox paths for the files API. The files API never follows symbolic
// links: each directory component is opened relative to the already-opened parent (openat
// emulated through the `/proc/self/fd/<dirfd>/<name>` magic link, which pins the opened directory
// rather than re-resolving a path string) with O_DIRECTORY|O_NOFOLLOW, so a sandbox process
// swapping a directory for a symlink between a check and a use cannot redirect the server to a
// host path. A symlink anywhere in the path is refused with 403 `path contains a symbolic link`.
import { constants } from 'node:fs';
import { lstat, mkdir, open, type FileHandle } from 'node:fs/promises';
import { badRequest, HttpError, notFound } from './http';

export const SYMLINK_MESSAGE = 'path contains a symbolic link (the files API never follows symlinks)';
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

export type WalkMode = 'read' | 'write';

export interface SandboxPath {
  /** The path as given, validated: `/a/b/c`. */
  readonly path: string;
  /** Its components: `['a', 'b', 'c']`. */
  readonly parts: readonly string[];
}

/** Validates a sandbox file path: absolute, no NUL, no `..`, `.` or empty components, names a file. */
export function parseSandboxPath(raw: string): SandboxPath {
  if (!raw.startsWith('/')) throw badRequest('query.path: must be an absolute sandbox path');
  if (raw.includes('\0')) throw badRequest('query.path: must not contain NUL');
  const parts = raw.slice(1).split('/');
  if (parts.some((seg) => seg === '..')) throw badRequest('query.path: must not contain ".." segments');
  if (raw === '/' || raw.endsWith('/')) throw badRequest('query.path: must name a file, not a directory');
  if (parts.some((seg) => seg === '')) throw badRequest('query.path: must not contain empty segments ("//")');
  if (parts.some((seg) => seg === '.')) throw badRequest('query.path: must not contain "." segments');
  return { path: raw, parts };
}

/** `name` inside the directory `dir` is open on, resolved through the pinned directory. */
export function at(dir: FileHandle, name: string): string {
  return `/proc/self/fd/${dir.fd}/${name}`;
}

export const symlinkRefused = () => new HttpError(403, 'path_forbidden', SYMLINK_MESSAGE);

const errnoOf = (err: unknown) => (err as NodeJS.ErrnoException).code ?? 'error';

async function isSymlink(dir: FileHandle, name: string): Promise<boolean> {
  try {
    return (await lstat(at(dir, name))).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Maps a failed open/mkdir of `name` in `dir` to the files API's answer. */
export async function refusal(err: unknown, dir: FileHandle, name: string, shown: string, mode: WalkMode): Promise<HttpError> {
  const code = errnoOf(err);
  if (code === 'ELOOP' || ((code === 'ENOTDIR' || code === 'EEXIST') && (await isSymlink(dir, name)))) return symlinkRefused();
  if (code === 'EACCES' || code === 'EPERM') return new HttpError(403, 'path_forbidden', `${shown}: permission denied`);
  if (mode === 'read') return notFound(code === 'ENOENT' ? `file ${shown} not found` : `file ${shown} not found (${code})`);
  return new HttpError(409, 'conflict', `cannot create parent directory: ${code}`);
}

async function openChild(dir: FileHandle, name: string, shown: string, mode: WalkMode): Promise<FileHandle> {
  if (mode === 'write') {
    try {
      await mkdir(at(dir, name), 0o755);
    } catch (err) {
      if (errnoOf(err) !== 'EEXIST') throw await refusal(err, dir, name, shown, mode);
    }
  }
  try {
    return await open(at(dir, name), DIR_FLAGS);
  } catch (err) {
    throw await refusal(err, dir, name, shown, mode);
  }
}

/**
 * Opens the parent directory of `p` inside `root` without following any symlink; in `write` mode
 * missing directories are created. The caller owns (and must close) the returned handle.
 */
export async function openParent(root: string, p: SandboxPath, mode: WalkMode): Promise<{ dir: FileHandle; name: string }> {
  let dir = await open(root, DIR_FLAGS);
  try {
    const dirs = p.parts.slice(0, -1);
    for (const name of dirs) {
      const next = await openChild(dir, name, p.path, mode);
      const prev = dir;
      dir = next;
      await prev.close();
    }
    return { dir, name: p.parts.at(-1) ?? '' };
  } catch (err) {
    await dir.close();
    throw err;
  }
}
