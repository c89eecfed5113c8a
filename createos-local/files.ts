// Files API: raw bytes in and out at sandbox paths, confined to the sandbox root. Rejects `..`,
// `.`, empty segments, NUL and writes into the read-only system mounts. It never follows symbolic
// links: paths are walked component by component from an opened directory (see safe-path.ts), so a
// sandbox process racing a directory against a symlink cannot make it read or write a host file.
import { constants, createWriteStream } from 'node:fs';
import { lstat, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { badRequest, HttpError, notFound } from './http';
import { at, openParent, parseSandboxPath, refusal, symlinkRefused } from './safe-path';
import { newId } from './schemas';

export const FILE_BODY_LIMIT = 512 * 1024 * 1024;
const SMALL_FILE = 16 * 1024 * 1024;
const SYSTEM_MOUNTS = ['/usr', '/etc', '/proc', '/dev', '/bin', '/sbin', '/lib', '/lib64', '/lib32', '/libx32'];
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

const forbidden = (message: string) => new HttpError(403, 'path_forbidden', message);
const tooLarge = () => new HttpError(413, 'payload_too_large', `file body exceeds ${FILE_BODY_LIMIT} bytes`, {}, { connection: 'close' });
const errno = (err: unknown) => (err as NodeJS.ErrnoException).code;

/** A sandbox process may remove or replace the pinned directory mid-upload: that is a conflict, not a 500. */
function uploadConflict(err: unknown, p: string): unknown {
  if (errno(err) === 'ENOENT') return new HttpError(409, 'conflict', `the directory of ${p} was removed during the upload`);
  if (errno(err) === 'EISDIR') return new HttpError(409, 'conflict', `${p} is a directory`);
  return err;
}

/** Refuses to replace a symlink or a directory at `name` (a race past this only replaces a sandbox entry). */
async function checkTarget(dir: FileHandle, name: string, p: string): Promise<void> {
  const st = await lstat(at(dir, name)).catch(() => null);
  if (st?.isSymbolicLink() === true) throw symlinkRefused();
  if (st?.isDirectory() === true) throw new HttpError(409, 'conflict', `${p} is a directory`);
}

/** Streams the body into `tmp` (created in `dir`), returning the byte count. */
async function receive(req: IncomingMessage, dir: FileHandle, tmp: string, p: string, declared: number): Promise<number> {
  const handle = await open(at(dir, tmp), TEMP_FLAGS, 0o644).catch((err: unknown) => {
    throw uploadConflict(err, p);
  });
  let size = 0;
  try {
    const out = createWriteStream('', { fd: handle });
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > FILE_BODY_LIMIT) req.destroy(tooLarge());
    });
    await pipeline(req, out);
    if (req.readableAborted || (Number.isFinite(declared) && req.headers['content-length'] !== undefined && size !== declared)) {
      throw badRequest('request body was truncated');
    }
    return size;
  } finally {
    await handle.close();
  }
}

export async function putFile(root: string, rawPath: string, req: IncomingMessage, res: ServerResponse): Promise<Record<string, unknown>> {
  const sp = parseSandboxPath(rawPath);
  const p = sp.path;
  if (SYSTEM_MOUNTS.some((m) => p === m || p.startsWith(`${m}/`))) throw forbidden(`${p} is on a read-only system mount`);
  const declared = Number(req.headers['content-length'] ?? '0');
  if (Number.isFinite(declared) && declared > FILE_BODY_LIMIT) throw tooLarge();
  const { dir, name } = await openParent(root, sp, 'write');
  try {
    await checkTarget(dir, name, p);
    // Write to a temp file in the same (pinned) directory, then rename: a truncated upload leaves nothing.
    const tmp = `.createos-upload-${newId('exec')}`;
    try {
      const size = await receive(req, dir, tmp, p, declared);
      await rename(at(dir, tmp), at(dir, name)).catch((err: unknown) => {
        throw uploadConflict(err, p);
      });
      return { path: p, bytes: size };
    } catch (err) {
      await unlink(at(dir, tmp)).catch(() => undefined);
      if (err instanceof HttpError) throw err;
      if (res.destroyed) throw new HttpError(400, 'invalid_request', 'upload aborted');
      throw err;
    }
  } finally {
    await dir.close();
  }
}

async function send(handle: FileHandle, p: string, res: ServerResponse): Promise<void> {
  const st = await handle.stat();
  if (!st.isFile()) throw notFound(`${p} is not a regular file`);
  if (st.size <= SMALL_FILE) {
    // Read whole: a file rewritten while it is sent still yields a consistent length.
    const bytes = await handle.readFile();
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length });
    res.end(bytes);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  await pipeline(handle.createReadStream({ start: 0, autoClose: false }), res).catch(() => undefined);
}

export async function getFile(root: string, rawPath: string, res: ServerResponse): Promise<void> {
  const sp = parseSandboxPath(rawPath);
  const { dir, name } = await openParent(root, sp, 'read');
  try {
    // O_NONBLOCK: a FIFO planted in the sandbox must not block the open.
    const handle = await open(at(dir, name), READ_FLAGS).catch(async (err: unknown) => {
      throw await refusal(err, dir, name, sp.path, 'read');
    });
    try {
      await send(handle, sp.path, res);
    } finally {
      await handle.close();
    }
  } finally {
    await dir.close();
  }
}
