// Synchronous exec: runs one command in the sandbox, buffers its output (bounded) and answers
// `{result:{exit_code, stdout, stderr}, exec_ms}`. On timeout, or when the caller aborts (its
// client went away), the whole exec tree is killed.
import { launch, type SandboxHandle } from './launch';
import { newId } from './schemas';
import { killTree } from './tree-kill';

export const EXEC_OUTPUT_LIMIT = 16 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 300_000;

export interface ExecRequest {
  cmd: string;
  args?: string[] | undefined;
  cwd?: string | undefined;
  env?: Record<string, string> | undefined;
  stdin?: string | undefined;
  timeout_ms?: number | undefined;
}

export interface ExecResult {
  result: { exit_code: number | null; stdout: string; stderr: string; signal?: string; timed_out?: boolean; truncated?: boolean };
  exec_ms: number;
}

function collector() {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  return {
    push(chunk: Buffer) {
      if (size >= EXEC_OUTPUT_LIMIT) {
        truncated = true;
        return;
      }
      const part = chunk.subarray(0, EXEC_OUTPUT_LIMIT - size);
      truncated ||= part.length < chunk.length;
      chunks.push(part);
      size += part.length;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
    truncated: () => truncated,
  };
}

export async function runExec(sb: SandboxHandle, req: ExecRequest, abort?: AbortSignal): Promise<ExecResult> {
  const started = Date.now();
  const execId = newId('exec');
  const child = launch(sb, execId, { cmd: req.cmd, args: req.args ?? [], cwd: req.cwd ?? '/', env: req.env ?? {} });
  const launcherPid = sb.init.pid === null ? null : (child.pid ?? null);
  const members = () => sb.membership.tree({ sandboxId: sb.id, processId: execId, leader: null, launcherPid });
  const killAll = () => void killTree({ members, graceMs: 500, escalate: true });
  const out = collector();
  const err = collector();
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => err.push(c));
  child.stdin.on('error', () => undefined);
  child.stdin.end(req.stdin ?? '');
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killAll();
  }, req.timeout_ms ?? DEFAULT_TIMEOUT_MS);
  abort?.addEventListener('abort', killAll, { once: true });
  if (abort?.aborted === true) killAll();
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('error', () => resolve({ code: 127, signal: null }));
    child.once('exit', (c, s) => {
      // Descendants may keep the pipes open; give buffered output a moment, then stop reading.
      const done = () => resolve({ code: c, signal: s });
      const t = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        done();
      }, 150);
      child.once('close', () => {
        clearTimeout(t);
        done();
      });
    });
  });
  clearTimeout(timer);
  abort?.removeEventListener('abort', killAll);
  // An empty tree's cgroup goes now (removal fails while it has members); else with the sandbox.
  await sb.membership.release(sb.id, execId).catch(() => false);
  return {
    result: {
      exit_code: code,
      stdout: out.text(),
      stderr: err.text(),
      ...(signal !== null ? { signal } : {}),
      ...(timedOut ? { timed_out: true } : {}),
      ...(out.truncated() || err.truncated() ? { truncated: true } : {}),
    },
    exec_ms: Date.now() - started,
  };
}
