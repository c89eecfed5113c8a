// Live output tails, per process, as display lines derived incrementally from each batch.
import { create } from 'zustand';
import type { TailEntry } from '../../../shared/domain';
import { appendTailEntries, emptyTailLines, type TailLines } from '../tail/tail-lines';

export function tailKey(leaseId: string, processId: string): string {
  return `${leaseId}/${processId}`;
}

export interface TailState {
  tails: Record<string, TailLines>;
  /** The host's replay: what it holds already. Starts the lines afresh. */
  replace: (key: string, entries: readonly TailEntry[]) => void;
  append: (key: string, entries: readonly TailEntry[]) => void;
  /** Forgets a tail nobody shows any more. */
  remove: (key: string) => void;
}

export const useTailStore = create<TailState>()((set) => ({
  tails: {},
  replace: (key, entries) => set((state) => ({ tails: { ...state.tails, [key]: appendTailEntries(emptyTailLines(), entries) } })),
  append: (key, entries) =>
    set((state) => ({ tails: { ...state.tails, [key]: appendTailEntries(state.tails[key] ?? emptyTailLines(), entries) } })),
  remove: (key) =>
    set((state) => {
      if (!(key in state.tails)) return state;
      const { [key]: _removed, ...rest } = state.tails;
      return { tails: rest };
    }),
}));
