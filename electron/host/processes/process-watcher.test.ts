import { describe, expect, it } from 'vitest';
import type { CreateosApi } from '../createos/api';
import { LeaseStore } from '../state/lease-store';
import { ProcessWatcher } from './process-watcher';

// The provider seam: only the tree check is reached when a restored tail already holds the exit.
function fakeApi(treeExited: boolean) {
  const waits: string[] = [];
  const api = {
    waitProcess: (_sandboxId: string, processId: string) => {
      waits.push(processId);
      return Promise.resolve({ process_id: processId, state: 'exited', leader_exited: true, tree_exited: treeExited, exit_code: 0, signal: null });
    },
  } as unknown as CreateosApi;
  return { api, waits };
}

function restoredLease(store: LeaseStore): void {
  store.upsertSandbox({ id: 'sb_1', status: 'running' });
  store.update('sb_1', (record) => {
    record.upsertProcess('sb_1', { process_id: 'p1', state: 'exited', exit_code: 0 });
    record.addEvidence({ kind: 'process-started', at: 1, processId: 'p1' });
  });
  store.tail('sb_1', 'p1').append({ kind: 'exit', exitCode: 0, signal: null, at: 2 });
}

describe('ProcessWatcher after a restart', () => {
  it('asks for the tree outcome when the console stopped between the exit and the tree check', async () => {
    const store = new LeaseStore();
    restoredLease(store);
    expect(store.record('sb_1').toLease().verdict.status).toBe('pending');
    const { api, waits } = fakeApi(true);
    const watcher = new ProcessWatcher(api, store);
    watcher.follow('sb_1', 'p1');
    await expect.poll(() => store.record('sb_1').toLease().verdict.status).toBe('contained');
    expect(waits).toEqual(['p1']);
    watcher.dispose();
  });

  it('records a tree that did not exit as unproven', async () => {
    const store = new LeaseStore();
    restoredLease(store);
    const watcher = new ProcessWatcher(fakeApi(false).api, store);
    watcher.follow('sb_1', 'p1');
    await expect.poll(() => store.record('sb_1').toLease().verdict.status).toBe('unproven');
    watcher.dispose();
  });

  it('does not ask again when the outcome is already recorded', () => {
    const store = new LeaseStore();
    restoredLease(store);
    store.update('sb_1', (record) => record.addEvidence({ kind: 'tree-exit-proven', at: 3, processId: 'p1', call: 'GET /wait' }));
    const { api, waits } = fakeApi(true);
    const watcher = new ProcessWatcher(api, store);
    watcher.follow('sb_1', 'p1');
    expect(waits).toEqual([]);
    expect(watcher.isFollowing('sb_1', 'p1')).toBe(true);
    watcher.dispose();
  });
});
