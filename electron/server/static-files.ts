// Serves the built renderer (dist/renderer) and nothing outside it.
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
};

export interface StaticFile { body: Buffer; contentType: string }

function decodedPath(urlPath: string): string | null {
  try {
    return decodeURIComponent(urlPath);
  } catch {
    return null;
  }
}

/** The file under `root` for a URL path, or null when there is none (or the path is malformed or leaves root). */
export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile | null> {
  const decoded = decodedPath(urlPath);
  if (decoded === null) return null;
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const full = normalize(join(root, relative));
  if (full !== root && !full.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  try {
    const body = await readFile(full);
    return { body, contentType: contentTypes[extname(full)] ?? 'application/octet-stream' };
  } catch {
    return null;
  }
}
