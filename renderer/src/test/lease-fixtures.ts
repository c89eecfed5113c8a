// Leases and processes for tests, valid by the domain schemas.
import type { Lease, ProcessInfo, UnprovenReason } from '../../../shared/domain';

export function makeProcess(overrides: Partial<ProcessInfo> & { processId: string; leaseId: string }): ProcessInfo {
  return {
    command: 'echo hi',
    state: 'running',
    exitCode: null,
    signal: null,
    leaderExited: null,
    treeExited: null,
    startedByConsole: true,
    createdAt: '2024-01-01T00:00:00.000Z',
    lastOutputAt: null,
    stream: { reconnects: 0, lostBytes: 0, bytesReceived: 0, attached: true, endedWithoutExit: null },
    ...overrides,
  };
}

export function makeLease(overrides: Partial<Lease> & { id: string }): Lease {
  return {
    name: null,
    status: 'running',
    rawStatus: 'running',
    shape: 'small',
    createdAt: '2024-01-01T00:00:00.000Z',
    guard: 'idle',
    verdict: { status: 'contained', reasons: [], since: null },
    processes: [],
    reconnects: 0,
    lastOutputAt: null,
    destroy: null,
    gone: false,
    ...overrides,
  };
}

export const stubbornReason: UnprovenReason = {
  reason: 'Process tree has not exited.',
  call: 'DELETE /v1/sandboxes/lease-1/processes/p1?grace_ms=1000',
  reply: 'tree_exited=false',
  at: Date.UTC(2024, 0, 1, 12, 0, 0),
  processId: 'p1',
};

export function unprovenLease(id: string, name: string | null = null): Lease {
  return makeLease({ id, name, verdict: { status: 'unproven', reasons: [{ ...stubbornReason, call: `DELETE /v1/sandboxes/${id}/processes/p1?grace_ms=1000` }], since: stubbornReason.at } });
}
