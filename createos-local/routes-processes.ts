// Managed-process routes under /v1/sandboxes/:id/processes.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { watchClientGone } from './client-gone';
import { streamOutput, type DropStreamPlan } from './connect';
import type { FaultRegistry } from './faults';
import { badRequest, HttpError, notFound, ok, readJson, readQuery } from './http';
import { ManagedProcess } from './managed-process';
import type { RouteContext } from './routes-sandboxes';
import type { Sandbox } from './sandbox';
import { checkId, connectQuery, emptyBody, createProcessBody, deleteProcessQuery, inputBody, pageQuery, signalBody, waitQuery } from './schemas';

const DEFAULT_GRACE_MS = 1000;

function findProcess(sb: Sandbox, rawId: string): ManagedProcess {
  const id = checkId(rawId, 'process id');
  const proc = sb.processes.get(id);
  if (proc === undefined) throw notFound(`process ${id} not found in sandbox ${sb.id}`);
  return proc;
}

async function createProcess(ctx: RouteContext, sb: Sandbox): Promise<void> {
  const body = await readJson(ctx.req, createProcessBody);
  await sb.requireRunning();
  const cwd = path.posix.normalize(body.cwd ?? '/');
  if (sb.isolation.rooted) {
    if (cwd.split('/').includes('..')) throw badRequest('body.cwd: must not contain ".."');
    const st = await stat(path.join(sb.root, cwd)).catch(() => null);
    if (st === null || !st.isDirectory()) throw badRequest(`body.cwd: ${cwd} is not a directory in the sandbox`);
  }
  const evict = ctx.faults.evictBytes(sb.id);
  const proc = new ManagedProcess(sb, evict ?? sb.journalBytes, evict !== null || sb.forcedJournal);
  sb.processes.set(proc.id, proc);
  await proc.start({ cmd: body.cmd, args: body.args ?? [], cwd, env: body.env ?? {} });
  if (ctx.faults.takeLoseCreateReply(sb.id)) {
    ctx.log(`fault lose-create-reply: started ${proc.id} in ${sb.id}, dropping the reply`);
    ctx.req.socket.destroy();
    return;
  }
  ok(ctx.res, await proc.view());
}

async function listProcesses(ctx: RouteContext, sb: Sandbox): Promise<void> {
  const q = readQuery(ctx.url, pageQuery);
  const all = [...sb.processes.values()];
  const limit = Math.min(q.limit ?? 100, 500);
  const offset = q.offset ?? 0;
  const page = await Promise.all(all.slice(offset, offset + limit).map((p) => p.view()));
  ok(ctx.res, { data: page, pagination: { total: all.length, limit, offset, count: page.length } });
}

async function deleteProcess(ctx: RouteContext, sb: Sandbox, proc: ManagedProcess): Promise<void> {
  const q = readQuery(ctx.url, deleteProcessQuery);
  const stubborn = ctx.faults.isStubborn(sb.id);
  const result = await proc.terminate(q.grace_ms ?? DEFAULT_GRACE_MS, !stubborn);
  if (result.error !== null) ctx.log(`process ${proc.id} termination: ${result.error}`);
  const view = await proc.view();
  ok(ctx.res, { ...view, tree_exited: view.tree_exited && result.treeExited, ...(result.error !== null ? { termination_error: result.error } : {}) });
}

async function waitProcess(ctx: RouteContext, proc: ManagedProcess): Promise<void> {
  const q = readQuery(ctx.url, waitQuery);
  const timeout = q.timeout_ms ?? 30_000;
  // A client that goes away ends the wait: nobody is left to answer.
  const gone = watchClientGone(ctx.res);
  let done: boolean;
  try {
    done = q.scope === 'tree' ? await proc.waitTree(timeout, gone.signal) : await proc.waitLeader(timeout, gone.signal);
  } finally {
    gone.dispose();
  }
  if (gone.signal.aborted) return;
  if (!done) throw new HttpError(408, 'timeout', `process ${proc.id} ${q.scope === 'tree' ? 'tree' : 'leader'} did not exit within ${timeout} ms`);
  ok(ctx.res, await proc.view());
}

/** rest: segments after /v1/sandboxes/:id/processes */
export async function handleProcesses(ctx: RouteContext, sb: Sandbox, rest: string[]): Promise<void> {
  const method = ctx.req.method ?? 'GET';
  const [pid, action, sub] = rest;
  if (pid === undefined) {
    if (method === 'POST') return createProcess(ctx, sb);
    if (method === 'GET') return listProcesses(ctx, sb);
    throw methodNotAllowed(method);
  }
  const proc = findProcess(sb, pid);
  if (action === undefined) {
    if (method === 'GET') return ok(ctx.res, await proc.view());
    if (method === 'DELETE') return deleteProcess(ctx, sb, proc);
    throw methodNotAllowed(method);
  }
  const route = `${method} ${action}${sub === undefined ? '' : `/${sub}`}`;
  if (rest.length > (sub === undefined ? 2 : 3)) throw notFound('no such route');
  switch (route) {
    case 'GET connect': {
      const q = readQuery(ctx.url, connectQuery);
      return streamOutput(ctx.res, proc.journal, q.after ?? 0, { dropStream: planDropStream(ctx.faults, sb.id), heartbeatMs: ctx.heartbeatMs });
    }
    case 'GET wait':
      return waitProcess(ctx, proc);
    case 'POST stdin/close':
      await readJson(ctx.req, emptyBody);
      proc.closeStdin();
      return ok(ctx.res, { process_id: proc.id, stdin_closed: true });
    case 'POST signal': {
      const body = await readJson(ctx.req, signalBody);
      proc.signal(body.signal);
      return ok(ctx.res, { process_id: proc.id, signal: body.signal });
    }
    case 'POST input': {
      const body = await readJson(ctx.req, inputBody);
      return ok(ctx.res, { input_seq: proc.input(Buffer.from(body.data_base64, 'base64')) });
    }
    default:
      throw notFound(`no such route: ${route}`);
  }
}

/**
 * The armed drop-stream fault for the sandbox, if any, read without using it up: it is taken
 * (its `times` counted) only when a stream really is cut, so a refused connect (400/410) or a
 * stream that ends before `after_frames` leaves it armed.
 */
function planDropStream(faults: FaultRegistry, sandboxId: string): DropStreamPlan | null {
  for (const f of faults.list()) {
    if (f.kind === 'drop-stream' && f.sandbox_id === sandboxId) return { afterFrames: f.after_frames, take: () => faults.takeDropStream(sandboxId) !== null };
  }
  return null;
}

export function methodNotAllowed(method: string): HttpError {
  return new HttpError(405, 'method_not_allowed', `method ${method} is not allowed here`);
}
