import type { LeaseEvent } from '../../../shared/contract';
import type { LeaseOperations } from '../services';
import { createPushQueue } from '../util/push-queue';
import { base } from './base';

export function createLeasesRouter(leases: LeaseOperations) {
  return {
    list: base.leases.list.handler(() => leases.list()),
    get: base.leases.get.handler(({ input }) => leases.get(input.leaseId)),
    create: base.leases.create.handler(({ input, context }) => leases.create(input, context.actor)),
    destroy: base.leases.destroy.handler(({ input, context }) => leases.destroy(input.leaseId, input.reason, context.actor)),
    pause: base.leases.pause.handler(({ input, context }) => leases.pause(input.leaseId, context.actor)),
    resume: base.leases.resume.handler(({ input, context }) => leases.resume(input.leaseId, context.actor)),
    destroyMany: base.leases.destroyMany.handler(({ input, context }) => leases.destroyMany(input.leaseIds, input.reason, context.actor)),
    clear: base.leases.clear.handler(async ({ input, context }) => ({ cleared: await leases.clear(input.leaseId, context.actor) })),
    timeline: base.leases.timeline.handler(({ input }) => leases.timeline(input.leaseId)),
    refresh: base.leases.refresh.handler(async () => ({ leases: await leases.refresh() })),
    watch: base.leases.watch.handler(async function* ({ signal }) {
      const queue = createPushQueue<LeaseEvent>(signal);
      const unsubscribe = leases.watch((event) => queue.push(event));
      try {
        yield* queue;
      } finally {
        unsubscribe();
      }
    }),
  };
}
