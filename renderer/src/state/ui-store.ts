// UI state only: what is open and how it looks. Server data lives in the query cache.
import { create } from 'zustand';
import type { ThemePreference } from '../platform/platform';

export interface UiState {
  /** The lease shown in the detail view. */
  selectedLeaseId: string | null;
  selectedProcessId: string | null;
  /** True while the lease watch is subscribed and has delivered its snapshot. */
  live: boolean;
  themePreference: ThemePreference;
  /** Tails wrap long lines instead of scrolling sideways. */
  wrapTailLines: boolean;
  selectLease: (leaseId: string | null) => void;
  selectProcess: (processId: string | null) => void;
  setLive: (live: boolean) => void;
  setThemePreference: (preference: ThemePreference) => void;
  setWrapTailLines: (wrap: boolean) => void;
}

export const useUiStore = create<UiState>()((set) => ({
  selectedLeaseId: null,
  selectedProcessId: null,
  live: false,
  themePreference: 'system',
  wrapTailLines: false,
  selectLease: (leaseId) => set((state) => (state.selectedLeaseId === leaseId ? state : { selectedLeaseId: leaseId, selectedProcessId: null })),
  selectProcess: (processId) => set({ selectedProcessId: processId }),
  setLive: (live) => set({ live }),
  setThemePreference: (themePreference) => set({ themePreference }),
  setWrapTailLines: (wrapTailLines) => set({ wrapTailLines }),
}));
