// UI state only: what is selected and how the list is filtered. Server data lives in the query cache.
import { create } from 'zustand';

export interface UiState {
  selectedLeaseId: string | null;
  selectedProcessId: string | null;
  filterText: string;
  unprovenOnly: boolean;
  /** True while the lease watch is subscribed and has delivered its snapshot. */
  live: boolean;
  selectLease: (leaseId: string | null) => void;
  selectProcess: (processId: string | null) => void;
  setFilterText: (text: string) => void;
  setUnprovenOnly: (value: boolean) => void;
  setLive: (live: boolean) => void;
}

export const useUiStore = create<UiState>()((set) => ({
  selectedLeaseId: null,
  selectedProcessId: null,
  filterText: '',
  unprovenOnly: false,
  live: false,
  selectLease: (leaseId) => set({ selectedLeaseId: leaseId, selectedProcessId: null }),
  selectProcess: (processId) => set({ selectedProcessId: processId }),
  setFilterText: (filterText) => set({ filterText }),
  setUnprovenOnly: (unprovenOnly) => set({ unprovenOnly }),
  setLive: (live) => set({ live }),
}));
