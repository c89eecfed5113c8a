// A realistic incident input for the export tests (not a test file itself). Secrets are planted
// in every place a redaction rule should find them.
import type { Lease, ProcessInfo, TailEntry } from '../../../shared/domain';
import type { IncidentInput } from './incident-input';

export const API_KEY = 'cos_live_9f8e7d6c5b4a';
export const LEAK = 'sk-leak-abc123';

export function processInfo(leaseId: string, processId: string, overrides: Partial<ProcessInfo> = {}): ProcessInfo {
  return {
    processId, leaseId, command: `bash -c 'run ${processId}'`, state: 'exited', exitCode: 0, signal: null,
    leaderExited: true, treeExited: false, startedByConsole: true, createdAt: '2024-05-01T10:00:00Z', lastOutputAt: 1_714_557_700_000,
    stream: { reconnects: 2, lostBytes: 1234, bytesReceived: 9000, attached: false, endedWithoutExit: null },
    ...overrides,
  };
}

export function lease(id: string, processes: ProcessInfo[], overrides: Partial<Lease> = {}): Lease {
  return {
    id, name: `sandbox ${id}`, status: 'running', rawStatus: 'running', shape: 'small', createdAt: '2024-05-01T09:59:00Z', guard: 'unconfirmedCleanup',
    verdict: { status: 'unproven', reasons: [{ reason: 'Process tree has not exited.', call: 'DELETE /processes/p1?grace_ms=1000', reply: 'tree_exited=false', at: 1_714_557_800_000, processId: 'p1' }], since: 1_714_557_800_000 },
    processes, reconnects: 2, lastOutputAt: 1_714_557_700_000, destroy: null, gone: false,
    ...overrides,
  };
}

const T = 1_714_557_600_000; // 2024-05-01T10:00:00Z

export const tailP1: TailEntry[] = [
  { kind: 'text', stream: 'stdout', text: 'starting worker\nAuthorization: Bearer abcdefgh12345678\n', seq: 1, at: T + 1000 },
  { kind: 'text', stream: 'stderr', text: 'warn: retrying\n', seq: 2, at: T + 2000 },
  { kind: 'text', stream: 'stdout', text: `using key ${API_KEY.slice(0, 8)}`, seq: 3, at: T + 3000 },
  { kind: 'text', stream: 'stdout', text: `${API_KEY.slice(8)} ok\n`, seq: 4, at: T + 3100 },
  { kind: 'gap', lostBytes: 1234, reason: 'output evicted', at: T + 3500 },
  { kind: 'text', stream: 'stdout', text: 'after gap: token sk-leak-', seq: 5, at: T + 4000 },
  { kind: 'text', stream: 'stdout', text: 'abc123 done\nexport DB_URL=postgres://u:p@db/x\nAPI_TOKEN="tok en"\nFOO=bar\n', seq: 6, at: T + 5000 },
  { kind: 'truncated', droppedBytes: 4096, at: T + 5500 },
  { kind: 'text', stream: 'stderr', text: 'X-Api-Key: hunter2-key\n<script>alert(1)</script>\n', seq: 7, at: T + 6000 },
  { kind: 'exit', exitCode: 0, signal: null, at: T + 7000 },
];

export function incidentInput(): IncidentInput {
  return {
    scope: { kind: 'lease', leaseId: 'lease-a' },
    generatedAt: T + 3_600_000,
    environment: { appVersion: '0.1.0', nodeVersion: 'v20.20.2', platform: 'linux-x64', providerUrl: 'https://user:pw@api.createos.example/v1/?token=abc#frag' },
    leases: [
      {
        lease: lease('lease-a', [processInfo('lease-a', 'p1')]),
        timeline: [
          { at: T + 8000, kind: 'verdict', summary: 'unproven: tree did not exit', detail: 'DELETE answered tree_exited=false' },
          { at: T, kind: 'state', summary: 'running <script>alert("x")</script>', detail: null, actor: 'alice' },
        ],
        evidence: [
          { kind: 'process-started', at: T, processId: 'p1' },
          { kind: 'process-unproven', at: T + 8000, processId: 'p1', reason: 'Process tree has not exited.', call: 'DELETE /processes/p1?grace_ms=1000', reply: `tree_exited=false key=${API_KEY}` },
        ],
        reconnects: [{ at: T + 2500, processId: 'p1', count: 1, reason: 'stream dropped' }, { at: T + 3600, processId: 'p1', count: 2, reason: 'stream dropped' }],
        tails: [{ processId: 'p1', entries: tailP1 }],
      },
      {
        lease: lease('lease-b', [], { verdict: { status: 'contained', reasons: [], since: T + 100 }, guard: 'idle' }),
        timeline: [{ at: T + 100, kind: 'status', summary: 'destroyed' }],
        evidence: [{ kind: 'destroy-confirmed', at: T + 100, proof: 'GET 404' }],
        reconnects: [],
        tails: [],
      },
    ],
    operatorActions: [
      { at: T + 9000, actor: 'alice', action: 'destroy', leaseId: 'lease-a', reason: `runaway; key was ${API_KEY}` },
      { at: T + 50, actor: 'bob', action: 'clear', leaseId: 'lease-b', reason: 'done' },
    ],
  };
}
