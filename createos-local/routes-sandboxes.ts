// Routes under /v1: sandboxes, files, exec, whoami, shapes, rootfs.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { watchClientGone } from './client-gone';
import { runExec } from './exec';
import type { FaultRegistry } from './faults';
import { getFile, putFile } from './files';
import { notFound, ok, readBody, readJson, readQuery, sendJson } from './http';
import { handleProcesses, methodNotAllowed } from './routes-processes';
import type { SandboxRegistry } from './sandbox';
import { checkId, createSandboxBody, DEFAULT_ROOTFS, execBody, filesQuery, pageQuery, ROOTFS, SHAPES } from './schemas';

export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  registry: SandboxRegistry;
  faults: FaultRegistry;
  log: (line: string) => void;
  heartbeatMs: number;
}

const LISTABLE = ['creating', 'running', 'pausing', 'paused', 'resuming', 'destroying', 'error', 'failed', 'destroyed'];

function page<T>(items: T[], limit: number | undefined, offset: number | undefined) {
  const l = Math.min(limit ?? 100, 500);
  const o = offset ?? 0;
  const data = items.slice(o, o + l);
  return { data, pagination: { total: items.length, limit: l, offset: o, count: data.length } };
}

async function sandboxesRoot(ctx: RouteContext): Promise<void> {
  const method = ctx.req.method ?? 'GET';
  if (method === 'POST') {
    const body = await readJson(ctx.req, createSandboxBody);
    const sb = ctx.registry.create(body);
    return ok(ctx.res, sb.view());
  }
  if (method === 'GET') {
    const q = readQuery(ctx.url, pageQuery);
    if (q.status !== undefined && !LISTABLE.includes(q.status)) {
      return sendJson(ctx.res, 400, { status: 'error', code: 'invalid_request', message: `query.status: unknown status "${q.status}"` });
    }
    const rows = ctx.registry.all().filter((sb) => q.status === undefined || sb.status === q.status);
    return ok(ctx.res, page(rows.map((sb) => sb.view()), q.limit, q.offset));
  }
  throw methodNotAllowed(method);
}

async function sandboxRoutes(ctx: RouteContext, rawId: string, rest: string[]): Promise<void> {
  const method = ctx.req.method ?? 'GET';
  const id = checkId(rawId, 'sandbox id');
  const sb = ctx.registry.get(id);
  const [action, ...more] = rest;
  if (action === undefined) {
    if (method === 'GET') return ok(ctx.res, sb.view());
    if (method === 'DELETE') {
      await ctx.registry.destroy(id);
      return ok(ctx.res, { id, status: 'destroyed' });
    }
    throw methodNotAllowed(method);
  }
  if (action === 'processes') return handleProcesses(ctx, sb, more);
  if (more.length > 0) throw notFound('no such route');
  switch (`${method} ${action}`) {
    case 'POST pause': {
      await readBody(ctx.req, 64 * 1024);
      const r = ctx.registry.pause(id);
      return ok(ctx.res, { id, status: r.status }, r.code);
    }
    case 'POST resume': {
      await readBody(ctx.req, 64 * 1024);
      const r = ctx.registry.resume(id);
      return ok(ctx.res, { id, status: r.status }, r.code);
    }
    case 'PUT files': {
      const q = readQuery(ctx.url, filesQuery);
      if (sb.destroying !== null) throw notFound(`sandbox ${id} not found`);
      await sb.ready;
      return ok(ctx.res, await putFile(sb.root, q.path, ctx.req, ctx.res));
    }
    case 'GET files': {
      const q = readQuery(ctx.url, filesQuery);
      await sb.ready;
      return getFile(sb.root, q.path, ctx.res);
    }
    case 'POST exec': {
      const body = await readJson(ctx.req, execBody);
      await sb.requireRunning();
      // A client that goes away before the answer gets its exec tree killed, not left to its timeout.
      const gone = watchClientGone(ctx.res);
      try {
        const result = await runExec(sb, body, gone.signal);
        if (!gone.signal.aborted) ok(ctx.res, { ...result });
        return;
      } finally {
        gone.dispose();
      }
    }
    default:
      throw notFound(`no such route: ${method} ${action}`);
  }
}

/** segments: path split after /v1 */
export async function handleV1(ctx: RouteContext, segments: string[]): Promise<void> {
  const method = ctx.req.method ?? 'GET';
  const [head, id, ...rest] = segments;
  if (head === 'sandboxes') {
    if (id === undefined) return sandboxesRoot(ctx);
    return sandboxRoutes(ctx, id, rest);
  }
  if (segments.length !== 1) throw notFound('no such route');
  if (head === 'whoami' && method === 'GET') {
    const all = ctx.registry.all();
    const running = all.filter((s) => s.status === 'running').length;
    const paused = all.filter((s) => s.status === 'paused').length;
    return ok(ctx.res, { user_id: 'local', stats: { running, paused, other: all.length - running - paused, total: all.length } });
  }
  if (head === 'shapes' && method === 'GET') {
    const q = readQuery(ctx.url, pageQuery);
    return ok(ctx.res, page(SHAPES, q.limit, q.offset));
  }
  if (head === 'rootfs' && method === 'GET') {
    return ok(ctx.res, { rootfs: ROOTFS, default: DEFAULT_ROOTFS });
  }
  throw notFound(`no such route: ${method} /v1/${segments.join('/')}`);
}
