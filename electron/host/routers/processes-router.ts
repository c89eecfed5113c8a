import type { TailEvent } from '../../../shared/contract';
import type { ProcessOperations } from '../services';
import { createPushQueue } from '../util/push-queue';
import { base } from './base';

export function createProcessesRouter(processes: ProcessOperations) {
  return {
    run: base.processes.run.handler(({ input, context }) => processes.run(input, context.actor)),
    stop: base.processes.stop.handler(({ input, context }) => processes.stop(input.leaseId, input.processId, context.actor)),
    tail: base.processes.tail.handler(async function* ({ input, signal }) {
      const queue = createPushQueue<TailEvent>(signal);
      const unsubscribe = processes.tail(input.leaseId, input.processId, (event) => queue.push(event));
      try {
        yield* queue;
      } finally {
        unsubscribe();
      }
    }),
  };
}
