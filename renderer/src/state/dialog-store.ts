// Which dialog or panel is open. One at a time is the norm, but a destroy can be asked from the palette.
import { create } from 'zustand';

export type ExportRequest = { readonly kind: 'lease'; readonly leaseId: string } | { readonly kind: 'window' };

export interface DialogState {
  destroyLeaseId: string | null;
  bulkDestroyOpen: boolean;
  exportRequest: ExportRequest | null;
  settingsOpen: boolean;
  paletteOpen: boolean;
  openDestroy: (leaseId: string) => void;
  openBulkDestroy: () => void;
  openExport: (request: ExportRequest) => void;
  openSettings: () => void;
  togglePalette: () => void;
  closeDestroy: () => void;
  closeBulkDestroy: () => void;
  closeExport: () => void;
  closeSettings: () => void;
  closePalette: () => void;
}

export const useDialogStore = create<DialogState>()((set) => ({
  destroyLeaseId: null,
  bulkDestroyOpen: false,
  exportRequest: null,
  settingsOpen: false,
  paletteOpen: false,
  openDestroy: (destroyLeaseId) => set({ destroyLeaseId, paletteOpen: false }),
  openBulkDestroy: () => set({ bulkDestroyOpen: true, paletteOpen: false }),
  openExport: (exportRequest) => set({ exportRequest, paletteOpen: false }),
  openSettings: () => set({ settingsOpen: true, paletteOpen: false }),
  togglePalette: () => set((state) => ({ paletteOpen: !state.paletteOpen })),
  closeDestroy: () => set({ destroyLeaseId: null }),
  closeBulkDestroy: () => set({ bulkDestroyOpen: false }),
  closeExport: () => set({ exportRequest: null }),
  closeSettings: () => set({ settingsOpen: false }),
  closePalette: () => set({ paletteOpen: false }),
}));
