// Where stream events of one process land: its tail, its stream health, the lease's reconnect count.
import type { StreamEvent } from '../createos/process-stream';
import type { LeaseStore } from '../state/lease-store';

export function streamEventSink(store: LeaseStore, leaseId: string, processId: string, now: () => number = Date.now) {
  const tail = store.tail(leaseId, processId);
  // Output only changes counters: coalesced. Reconnects, gaps and exits are published at once.
  const publishSoon = (force: boolean): void => {
    if (!store.has(leaseId)) return;
    if (force) store.publish(store.record(leaseId));
    else store.publishSoon(leaseId);
  };

  return (event: StreamEvent): void => {
    if (!store.has(leaseId)) return;
    const record = store.record(leaseId);
    const at = now();
    switch (event.kind) {
      case 'data':
        if (event.text !== '') tail.append({ kind: 'text', stream: event.stream, text: event.text, seq: event.seq, at });
        record.updateStream(processId, (h) => ({ bytesReceived: h.bytesReceived + event.bytes, attached: true }), at);
        publishSoon(false);
        break;
      case 'reconnect':
        tail.append({ kind: 'reconnect', count: event.count, reason: event.reason, at });
        record.updateStream(processId, () => ({ reconnects: event.count }));
        publishSoon(true);
        break;
      case 'gap': {
        const reason = `output evicted (frames ${event.fromSeq}–${event.toSeq})`;
        tail.append({ kind: 'gap', lostBytes: event.lostBytes ?? null, reason, at });
        record.updateStream(processId, (h) => ({ lostBytes: h.lostBytes + (event.lostBytes ?? 0) }));
        publishSoon(true);
        break;
      }
      case 'exit':
        tail.append({ kind: 'exit', exitCode: event.exitCode, signal: event.signal, at });
        record.updateStream(processId, () => ({ attached: false }));
        publishSoon(true);
        break;
    }
  };
}
