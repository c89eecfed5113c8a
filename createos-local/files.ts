// Files API: raw bytes in and out at sandbox paths, confined to the sandbox root. Rejects `..`,
// NUL, writes into the read-only system mounts, and any symlink that resolves outside the root.
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, open, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { badRequest, HttpError, notFound } from './http';
import { newId } from './schemas';

export const FILE_BODY_LIMIT = 512 * 1024 * 1024;
const SMALL_FILE = 16 * 1024 * 1024;
const SYSTEM_MOUNTS = ['/usr', '/etc', '/proc', '/dev', '/bin', '/sbin', '/lib', '/lib64', '/lib32', '/libx32'];

const forbidden = (message: string) => new HttpError(403, 'path_forbidden', message);

/** Validates a sandbox path and returns its normalised form. */
export function sandboxPath(raw: string): string {
  if (!raw.startsWith('/')) throw badRequest('query.path: must be an absolute sandbox path');
  if (raw.includes('\0')) throw badRequest('query.path: must not contain NUL');
  if (raw.split('/').some((seg) => seg === '..')) throw badRequest('query.path: must not contain ".." segments');
  const norm = path.posix.normalize(raw);
  if (norm === '/' || norm.endsWith('/')) throw badRequest('query.path: must name a file, not a directory');
  return norm;
}

function inside(realRoot: string, candidate: string): boolean {
  return candidate === realRoot || candidate.startsWith(`${realRoot}/`);
}

/** Deepest existing ancestor of hostPath, resolved, must stay inside the root. */
async function checkAncestors(realRoot: string, hostPath: string): Promise<void> {
  let cur = path.dirname(hostPath);
  for (;;) {
    try {
      const real = await realpath(cur);
      if (!inside(realRoot, real)) throw forbidden('path escapes the sandbox through a symlink');
      return;
    } catch (err) {
      if (err instanceof HttpError) throw err;
      const parent = path.dirname(cur);
      if (parent === cur) throw forbidden('path escapes the sandbox');
      cur = parent;
    }
  }
}

export async function putFile(root: string, rawPath: string, req: IncomingMessage, res: ServerResponse): Promise<Record<string, unknown>> {
  const p = sandboxPath(rawPath);
  if (SYSTEM_MOUNTS.some((m) => p === m || p.startsWith(`${m}/`))) throw forbidden(`${p} is on a read-only system mount`);
  const declared = Number(req.headers['content-length'] ?? '0');
  if (Number.isFinite(declared) && declared > FILE_BODY_LIMIT) {
    throw new HttpError(413, 'payload_too_large', `file body exceeds ${FILE_BODY_LIMIT} bytes`, {}, { connection: 'close' });
  }
  const realRoot = await realpath(root);
  const hostPath = path.join(realRoot, p);
  await checkAncestors(realRoot, hostPath);
  const dir = path.dirname(hostPath);
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw new HttpError(409, 'conflict', `cannot create parent directory: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  if (!inside(realRoot, await realpath(dir))) throw forbidden('path escapes the sandbox through a symlink');
  try {
    const st = await lstat(hostPath);
    if (st.isSymbolicLink()) throw forbidden('path is a symlink');
    if (st.isDirectory()) throw new HttpError(409, 'conflict', `${p} is a directory`);
  } catch (err) {
    if (err instanceof HttpError) throw err;
  }
  // Write to a temp file in the same directory, then rename: a truncated upload leaves nothing.
  const tmp = path.join(dir, `.createos-upload-${newId('exec')}`);
  const handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  let size = 0;
  try {
    const out = createWriteStream('', { fd: handle });
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > FILE_BODY_LIMIT) req.destroy(new HttpError(413, 'payload_too_large', `file body exceeds ${FILE_BODY_LIMIT} bytes`, {}, { connection: 'close' }));
    });
    await pipeline(req, out);
    if (req.readableAborted || (Number.isFinite(declared) && req.headers['content-length'] !== undefined && size !== declared)) {
      throw badRequest('request body was truncated');
    }
    await rename(tmp, hostPath);
  } catch (err) {
    await rm(tmp, { force: true });
    if (err instanceof HttpError) throw err;
    if (res.destroyed) throw new HttpError(400, 'invalid_request', 'upload aborted');
    throw err;
  }
  return { path: p, bytes: size };
}

export async function getFile(root: string, rawPath: string, res: ServerResponse): Promise<void> {
  const p = sandboxPath(rawPath);
  const realRoot = await realpath(root);
  const hostPath = path.join(realRoot, p);
  let real: string;
  try {
    real = await realpath(hostPath);
  } catch {
    throw notFound(`file ${p} not found`);
  }
  if (!inside(realRoot, real)) throw forbidden('path escapes the sandbox through a symlink');
  const st = await stat(real);
  if (!st.isFile()) throw notFound(`${p} is not a regular file`);
  if (st.size <= SMALL_FILE) {
    // Read whole: a file rewritten while it is sent still yields a consistent length.
    const bytes = await readFile(real);
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length });
    res.end(bytes);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  await pipeline(createReadStream(real), res).catch(() => undefined);
}
