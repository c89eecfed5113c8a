// Request schemas (zod, strict: unknown keys are a 400), ids and the shape catalogue.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { badRequest } from './http';

export const ID_RE = /^[A-Za-z0-9_-]{1,200}$/;
const ENV_KEY_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const noNul = (what: string) => z.string().refine((s) => !s.includes('\0'), `${what} must not contain NUL`);

export function newId(prefix: 'sb' | 'proc' | 'exec' | 'fault'): string {
  return `${prefix}_${randomBytes(9).toString('base64url').replace(/[^A-Za-z0-9]/g, 'x')}`;
}

export function checkId(value: string, what: string): string {
  if (!ID_RE.test(value)) throw badRequest(`${what} is invalid: must match ^[A-Za-z0-9_-]{1,200}$`);
  return value;
}

export interface Shape {
  id: string;
  vcpu: number;
  mem_mib: number;
  default_disk_mib: number;
}

export const SHAPES: Shape[] = [
  { id: 's-1vcpu-512mb', vcpu: 1, mem_mib: 512, default_disk_mib: 5120 },
  { id: 's-1vcpu-1gb', vcpu: 1, mem_mib: 1024, default_disk_mib: 10240 },
  { id: 's-1vcpu-2gb', vcpu: 1, mem_mib: 2048, default_disk_mib: 10240 },
  { id: 's-2vcpu-2gb', vcpu: 2, mem_mib: 2048, default_disk_mib: 20480 },
  { id: 's-2vcpu-4gb', vcpu: 2, mem_mib: 4096, default_disk_mib: 20480 },
  { id: 's-4vcpu-8gb', vcpu: 4, mem_mib: 8192, default_disk_mib: 40960 },
  { id: 's-8vcpu-16gb', vcpu: 8, mem_mib: 16384, default_disk_mib: 81920 },
];

export const ROOTFS = ['debian-12', 'ubuntu-24.04'];
export const DEFAULT_ROOTFS = 'debian-12';

const envMap = z.record(z.string().regex(ENV_KEY_RE, 'environment variable names must match ^[A-Za-z_][A-Za-z0-9_]*$'), noNul('environment values'));
const label = z.string().min(1).max(200).regex(/^[A-Za-z0-9._:-]+$/, 'must be letters, digits, ".", "_", ":" or "-"');

export const createSandboxBody = z.strictObject({
  shape: z.string().min(1).max(200),
  rootfs: label.optional(),
  region: label.optional(),
  ingress_enabled: z.boolean().optional(),
  name: z.string().min(1).max(200).optional(),
  disk_mib: z.number().int().positive().max(1_048_576).optional(),
  envs: envMap.optional(),
  egress: z.unknown().optional(),
  auto_pause_after_seconds: z.number().int().nonnegative().optional(),
  journal_bytes: z.number().int().min(1024).max(256 * 1024 * 1024).optional(),
});
export type CreateSandboxBody = z.infer<typeof createSandboxBody>;

const argv = z.array(noNul('arguments')).max(4096);

export const createProcessBody = z.strictObject({
  cmd: noNul('cmd').pipe(z.string().min(1, 'cmd must not be empty').max(4096)),
  args: argv.optional(),
  cwd: noNul('cwd').pipe(z.string().startsWith('/', 'cwd must be an absolute sandbox path')).optional(),
  env: envMap.optional(),
});
export type CreateProcessBody = z.infer<typeof createProcessBody>;

export const execBody = z.strictObject({
  cmd: noNul('cmd').pipe(z.string().min(1, 'cmd must not be empty').max(4096)),
  args: argv.optional(),
  cwd: noNul('cwd').pipe(z.string().startsWith('/', 'cwd must be an absolute sandbox path')).optional(),
  env: envMap.optional(),
  stdin: z.string().max(512 * 1024).optional(),
  timeout_ms: z.number().int().min(1).max(86_400_000).optional(),
});

export const SIGNALS = ['SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGKILL', 'SIGUSR1', 'SIGUSR2', 'SIGTERM', 'SIGCONT', 'SIGSTOP', 'SIGTSTP', 'SIGWINCH', 'SIGALRM'] as const;
export const signalBody = z.strictObject({
  signal: z
    .string()
    .transform((s) => (s.startsWith('SIG') ? s : `SIG${s}`))
    .pipe(z.enum(SIGNALS, { message: `signal must be one of ${SIGNALS.join(', ')}` })),
});

export const inputBody = z.strictObject({
  data_base64: z
    .string()
    .max(350_000)
    .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'data_base64 must be padded base64'),
});

const intParam = (min: number, max: number) => z.string().regex(/^\d{1,15}$/, 'must be a non-negative integer').transform(Number).pipe(z.number().int().min(min).max(max));

/** Query schemas are strict: an unknown (e.g. misspelt) parameter is a 400 that names it. */
function queryObject<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown query parameter${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')} (allowed: ${Object.keys(shape).join(', ')})` : undefined),
  });
}

export const pageQuery = queryObject({ limit: intParam(1, 100_000).optional(), offset: intParam(0, 1e12).optional(), status: z.string().optional() });
export const connectQuery = queryObject({ after: intParam(0, Number.MAX_SAFE_INTEGER).optional() });
export const deleteProcessQuery = queryObject({ grace_ms: intParam(0, 600_000).optional() });
export const waitQuery = queryObject({ scope: z.enum(['leader', 'tree']).optional(), timeout_ms: intParam(0, 3_600_000).optional() });
export const filesQuery = queryObject({ path: z.string().min(1, 'path is required').max(4096) });

export const emptyBody = z.strictObject({});
