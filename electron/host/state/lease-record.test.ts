import { describe, expect, it } from 'vitest';
import { LeaseRecord, maxTimelineEntries } from './lease-record';

describe('LeaseRecord timeline', () => {
  it('files evidence as proof, unproven or plain activity, and derives the verdict from it', () => {
    const record = new LeaseRecord({ id: 'sb_1', status: 'running' });
    const call = 'DELETE /v1/sandboxes/sb_1/processes/p1?grace_ms=1000';
    record.addEvidence({ kind: 'process-started', at: 1, processId: 'p1' });
    record.addEvidence({ kind: 'process-unproven', at: 2, processId: 'p1', reason: 'Process tree has not exited.', call, reply: 'tree_exited=false' });
    record.addEvidence({ kind: 'tree-exit-proven', at: 3, processId: 'p1', call });
    expect(record.timeline.map((e) => [e.kind, e.summary])).toEqual([
      ['evidence', 'Process p1 started'],
      ['unproven', 'Containment unproven for p1: Process tree has not exited.'],
      ['proof', 'Process tree of p1 proven exited'],
    ]);
    expect(record.timeline[1]?.detail).toBe(`${call} → tree_exited=false`);
  });

  it('keeps the newest entries when the timeline overflows, and counts every entry', () => {
    const record = new LeaseRecord({ id: 'sb_1', status: 'running' });
    for (let i = 0; i < maxTimelineEntries + 3; i += 1) record.note({ at: i, kind: 'state', summary: `s${i}`, detail: null, actor: null });
    expect(record.timeline).toHaveLength(maxTimelineEntries);
    expect(record.timeline[0]?.summary).toBe('s3');
    expect(record.timelineTotal).toBe(maxTimelineEntries + 3);
  });
});
