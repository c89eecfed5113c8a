// Live output tails, per process, bounded by line count. Losses arrive as explicit entries.
import { create } from 'zustand';
import type { TailEntry } from '../../../shared/domain';

export const maxTailEntries = 200_000;

export interface TailState {
  tails: Record<string, TailEntry[]>;
  replace: (processId: string, entries: TailEntry[]) => void;
  append: (processId: string, entries: TailEntry[]) => void;
}

export const useTailStore = create<TailState>()((set) => ({
  tails: {},
  replace: (processId, entries) => set((state) => ({ tails: { ...state.tails, [processId]: entries.slice(-maxTailEntries) } })),
  append: (processId, entries) =>
    set((state) => {
      const next = [...(state.tails[processId] ?? []), ...entries];
      return { tails: { ...state.tails, [processId]: next.length > maxTailEntries ? next.slice(-maxTailEntries) : next } };
    }),
}));
