// Fault drills: armed over /admin/faults or with `--fault KIND:k=v,...`. Each fault names the
// sandbox or path prefix it affects; `times` counts down and the fault disarms at zero.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { describeIssues } from './http';
import { ID_RE, newId } from './schemas';

const sandboxId = z.string().regex(ID_RE, 'sandbox_id must match ^[A-Za-z0-9_-]{1,200}$');
const times = z.number().int().min(1).max(1_000_000).default(1);
const pathPrefix = z.string().startsWith('/', 'path_prefix must start with "/"').max(2000);

export const faultSpec = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('drop-stream'), sandbox_id: sandboxId, after_frames: z.number().int().min(0).default(1), times }),
  z.strictObject({ kind: z.literal('lose-create-reply'), sandbox_id: sandboxId, times }),
  z.strictObject({ kind: z.literal('stubborn-tree'), sandbox_id: sandboxId }),
  z.strictObject({ kind: z.literal('evict'), sandbox_id: sandboxId, journal_bytes: z.number().int().min(0).max(1 << 30) }),
  z.strictObject({
    kind: z.literal('http-error'),
    path_prefix: pathPrefix,
    status: z.number().int().min(300).max(599),
    times,
    method: z.string().regex(/^[A-Z]+$/).optional(),
  }),
  z.strictObject({ kind: z.literal('slow'), path_prefix: pathPrefix, delay_ms: z.number().int().min(0).max(600_000), times }),
  z.strictObject({ kind: z.literal('rate-limit'), per_minute: z.number().int().min(1).max(1_000_000) }),
]);
export type FaultSpec = z.input<typeof faultSpec>;
type Fault = z.output<typeof faultSpec>;
export type ArmedFault = Fault & { id: string; created_at: string };

/** `KIND:k=v,...` (numbers become numbers, true/false booleans). */
export function parseFaultFlag(flag: string): FaultSpec {
  const colon = flag.indexOf(':');
  const kind = colon < 0 ? flag : flag.slice(0, colon);
  const obj: Record<string, unknown> = { kind };
  const rest = colon < 0 ? '' : flag.slice(colon + 1);
  for (const pair of rest.split(',').filter((p) => p.length > 0)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`--fault ${flag}: "${pair}" is not k=v`);
    const raw = pair.slice(eq + 1);
    obj[pair.slice(0, eq)] = /^-?\d+$/.test(raw) ? Number(raw) : raw === 'true' ? true : raw === 'false' ? false : raw;
  }
  const parsed = faultSpec.safeParse(obj);
  if (!parsed.success) throw new Error(`--fault ${flag}: ${describeIssues(parsed.error, 'fault')}`);
  return parsed.data;
}

function decodeSegment(seg: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}

/**
 * Whether a fault's `path_prefix` covers a request, by whole segments: `segments` are the request
 * path's decoded, non-empty segments (what the router sees), so `/v1/sandboxes/%73b_x` and
 * `//v1/sandboxes/sb_x` match `/v1/sandboxes/sb_x`, while `/v1/sandboxes/sb_xy` does not. A prefix
 * without the leading `/v1` also matches under `/v1`.
 */
export function matchesPath(prefix: string, segments: readonly string[]): boolean {
  const want = prefix.split('/').filter((s) => s.length > 0).map(decodeSegment);
  const at = (offset: number) => want.length + offset <= segments.length && want.every((s, i) => segments[i + offset] === s);
  return at(0) || (want[0] !== 'v1' && segments[0] === 'v1' && at(1));
}

export class FaultRegistry {
  private readonly faults = new Map<string, ArmedFault>();
  /** Called when an `evict` fault is armed, so existing journals shrink at once. */
  onEvict: (sandboxId: string, bytes: number) => void = () => undefined;

  arm(spec: unknown): ArmedFault {
    const parsed = faultSpec.parse(spec);
    const armed: ArmedFault = { ...parsed, id: newId('fault'), created_at: new Date().toISOString() };
    this.faults.set(armed.id, armed);
    if (armed.kind === 'evict') this.onEvict(armed.sandbox_id, armed.journal_bytes);
    return armed;
  }

  list(): ArmedFault[] {
    return [...this.faults.values()];
  }

  remove(id: string): boolean {
    return this.faults.delete(id);
  }

  clear(): number {
    const n = this.faults.size;
    this.faults.clear();
    return n;
  }

  private take<K extends Fault['kind']>(kind: K, match: (f: Extract<ArmedFault, { kind: K }>) => boolean): Extract<ArmedFault, { kind: K }> | null {
    for (const f of this.faults.values()) {
      if (f.kind !== kind) continue;
      const typed = f as Extract<ArmedFault, { kind: K }>;
      if (!match(typed)) continue;
      if ('times' in typed) {
        typed.times -= 1;
        if (typed.times <= 0) this.faults.delete(f.id);
      }
      return typed;
    }
    return null;
  }

  /** `segments`: the request path's decoded, non-empty segments. */
  takeHttpError(method: string, segments: readonly string[]): { status: number; body: Record<string, unknown> } | null {
    const f = this.take('http-error', (x) => matchesPath(x.path_prefix, segments) && (x.method === undefined || x.method === method));
    if (f === null) return null;
    const secret = `sk-leak-${randomBytes(12).toString('hex')}`;
    return { status: f.status, body: { status: 'error', code: 'injected_fault', message: `upstream failure (debug: api_key=${secret})`, api_key: secret } };
  }

  takeSlow(segments: readonly string[]): number {
    return this.take('slow', (x) => matchesPath(x.path_prefix, segments))?.delay_ms ?? 0;
  }

  takeDropStream(sandboxId: string): number | null {
    return this.take('drop-stream', (x) => x.sandbox_id === sandboxId)?.after_frames ?? null;
  }

  takeLoseCreateReply(sandboxId: string): boolean {
    return this.take('lose-create-reply', (x) => x.sandbox_id === sandboxId) !== null;
  }

  isStubborn(sandboxId: string): boolean {
    return this.list().some((f) => f.kind === 'stubborn-tree' && f.sandbox_id === sandboxId);
  }

  evictBytes(sandboxId: string): number | null {
    let bytes: number | null = null;
    for (const f of this.faults.values()) if (f.kind === 'evict' && f.sandbox_id === sandboxId) bytes = f.journal_bytes;
    return bytes;
  }

  ratePerMinute(fallback: number): number {
    let limit = fallback;
    for (const f of this.faults.values()) if (f.kind === 'rate-limit') limit = f.per_minute;
    return limit;
  }
}
