// How the leases list is filtered, sorted and selected (the cursor row and the checked rows).
import { create } from 'zustand';

export const sortColumns = ['id', 'name', 'state', 'guard', 'shape', 'age', 'processes', 'reconnects', 'containment', 'lastOutput'] as const;
export type SortColumn = (typeof sortColumns)[number];
export type SortDirection = 'ascending' | 'descending';
export interface LeaseSort {
  readonly column: SortColumn;
  readonly direction: SortDirection;
}

export interface LeaseListState {
  filterText: string;
  /** A sandbox status, "destroyed", or "all". */
  stateFilter: string;
  unprovenOnly: boolean;
  sort: LeaseSort | null;
  /** The row the keyboard is on. */
  cursorLeaseId: string | null;
  /** Rows ticked for a bulk action. */
  checked: ReadonlySet<string>;
  setFilterText: (text: string) => void;
  setStateFilter: (state: string) => void;
  setUnprovenOnly: (value: boolean) => void;
  toggleUnprovenOnly: () => void;
  /** Click on a header: ascending, then descending, then back to ascending. */
  sortBy: (column: SortColumn) => void;
  setCursor: (leaseId: string | null) => void;
  toggleChecked: (leaseId: string) => void;
  setChecked: (leaseIds: Iterable<string>) => void;
}

export const useLeaseListStore = create<LeaseListState>()((set) => ({
  filterText: '',
  stateFilter: 'all',
  unprovenOnly: false,
  sort: null,
  cursorLeaseId: null,
  checked: new Set(),
  setFilterText: (filterText) => set({ filterText }),
  setStateFilter: (stateFilter) => set({ stateFilter }),
  setUnprovenOnly: (unprovenOnly) => set({ unprovenOnly }),
  toggleUnprovenOnly: () => set((state) => ({ unprovenOnly: !state.unprovenOnly })),
  sortBy: (column) =>
    set((state) => ({
      sort: { column, direction: state.sort?.column === column && state.sort.direction === 'ascending' ? 'descending' : 'ascending' },
    })),
  setCursor: (cursorLeaseId) => set({ cursorLeaseId }),
  toggleChecked: (leaseId) =>
    set((state) => {
      const checked = new Set(state.checked);
      if (checked.has(leaseId)) checked.delete(leaseId);
      else checked.add(leaseId);
      return { checked };
    }),
  setChecked: (leaseIds) => set({ checked: new Set(leaseIds) }),
}));
