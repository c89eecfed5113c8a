import { describe, expect, it } from 'vitest';
import { deriveVerdict, type Evidence } from './containment';

const unproven: Evidence = { kind: 'process-unproven', at: 2, processId: 'p1', reason: 'Process tree has not exited.', call: 'DELETE /processes/p1?grace_ms=1000', reply: 'tree_exited=false' };

describe('deriveVerdict', () => {
  it('is contained with no evidence and nothing running', () => {
    expect(deriveVerdict([]).status).toBe('contained');
  });

  it('is active while processes run and nothing is unproven', () => {
    expect(deriveVerdict([{ kind: 'process-started', at: 1, processId: 'p1' }], ['p1']).status).toBe('active');
  });

  it('is pending, not contained, when a process stopped and its tree is not yet proven gone', () => {
    const started: Evidence = { kind: 'process-started', at: 1, processId: 'p1' };
    expect(deriveVerdict([started]).status).toBe('pending');
    expect(deriveVerdict([started, { kind: 'tree-exit-proven', at: 2, processId: 'p1', call: 'GET /wait' }]).status).toBe('contained');
    expect(deriveVerdict([started, { kind: 'destroy-confirmed', at: 2, proof: 'GET 404' }]).status).toBe('contained');
  });

  it('is unproven after a tree that did not exit, with the evidence', () => {
    const verdict = deriveVerdict([unproven]);
    expect(verdict.status).toBe('unproven');
    expect(verdict.reasons[0]).toMatchObject({ processId: 'p1', call: unproven.call, reply: 'tree_exited=false' });
    expect(verdict.since).toBe(2);
  });

  it('clears a process-level doubt only with a proven tree exit of that process', () => {
    const other: Evidence = { kind: 'tree-exit-proven', at: 3, processId: 'p2', call: 'GET' };
    expect(deriveVerdict([unproven, other]).status).toBe('unproven');
    const same: Evidence = { kind: 'tree-exit-proven', at: 3, processId: 'p1', call: 'GET' };
    expect(deriveVerdict([unproven, same]).status).toBe('contained');
  });

  it('never clears a lease-level doubt without a confirmed destroy', () => {
    const lost: Evidence = { kind: 'lease-unproven', at: 1, reason: 'creation could not be confirmed', call: 'POST /processes', reply: 'connection reset' };
    expect(deriveVerdict([lost, { kind: 'tree-exit-proven', at: 2, processId: 'p1', call: 'GET' }]).status).toBe('unproven');
    expect(deriveVerdict([lost, { kind: 'destroy-started', at: 2 }]).status).toBe('unproven');
    expect(deriveVerdict([lost, { kind: 'destroy-started', at: 2 }, { kind: 'destroy-confirmed', at: 3, proof: 'GET 404' }])).toEqual({ status: 'contained', reasons: [], since: 3 });
  });

  it('judges evidence after a confirmed destroy afresh: a sandbox listed again is unproven', () => {
    const gone: Evidence = { kind: 'destroy-confirmed', at: 3, proof: 'GET 404' };
    const back: Evidence = { kind: 'lease-unproven', at: 4, reason: 'The sandbox was confirmed gone but is listed again.', call: 'GET /v1/sandboxes', reply: 'running' };
    expect(deriveVerdict([unproven, gone])).toEqual({ status: 'contained', reasons: [], since: 3 });
    const verdict = deriveVerdict([unproven, gone, back]);
    expect(verdict.status).toBe('unproven');
    expect(verdict.reasons.map((r) => r.reason)).toEqual(['The sandbox was confirmed gone but is listed again.']);
    expect(deriveVerdict([unproven, gone, back, { kind: 'destroy-confirmed', at: 5, proof: 'GET 404' }])).toEqual({ status: 'contained', reasons: [], since: 5 });
  });

  it('is pending during a destroy of a healthy lease, and unproven when that destroy fails with processes running', () => {
    expect(deriveVerdict([{ kind: 'destroy-started', at: 1 }], ['p1']).status).toBe('pending');
    const failed = deriveVerdict([{ kind: 'destroy-started', at: 1 }, { kind: 'destroy-failed', at: 2, reason: 'HTTP 500', call: 'DELETE', reply: '500' }], ['p1']);
    expect(failed.status).toBe('unproven');
  });
});
