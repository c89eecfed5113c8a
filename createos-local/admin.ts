// /admin/faults: arm (POST), list (GET), clear (DELETE) and disarm one (DELETE /:id).
import type { FaultRegistry } from './faults';
import { faultSpec } from './faults';
import { HttpError, notFound, ok, parseWith, readBody, readJson } from './http';
import type { RouteContext } from './routes-sandboxes';
import { z } from 'zod';

const anyJson = z.unknown();

export async function handleAdmin(ctx: RouteContext, faults: FaultRegistry, segments: string[]): Promise<void> {
  const method = ctx.req.method ?? 'GET';
  const [head, id, ...more] = segments;
  if (head !== 'faults' || more.length > 0) throw notFound('no such admin route');
  if (id === undefined) {
    if (method === 'POST') {
      const raw = await readJson(ctx.req, anyJson);
      const spec = parseWith(faultSpec, raw, 'body');
      const armed = faults.arm(spec);
      ctx.log(`fault armed: ${armed.kind} ${armed.id}`);
      return ok(ctx.res, { id: armed.id, fault: armed });
    }
    if (method === 'GET') return ok(ctx.res, { faults: faults.list() });
    if (method === 'DELETE') {
      await readBody(ctx.req, 64 * 1024);
      return ok(ctx.res, { cleared: faults.clear() });
    }
  } else if (method === 'DELETE') {
    if (!faults.remove(id)) throw notFound(`fault ${id} not found`);
    return ok(ctx.res, { id, cleared: 1 });
  } else if (method === 'GET') {
    const f = faults.list().find((x) => x.id === id);
    if (f === undefined) throw notFound(`fault ${id} not found`);
    return ok(ctx.res, { fault: f });
  }
  throw new HttpError(405, 'method_not_allowed', `method ${method} is not allowed here`);
}
