// The palette's commands, each wired to the same action as its button.
import type { Lease } from '../../../../shared/domain';
import type { Theme } from '../../platform/platform';
import { useDialogStore } from '../../state/dialog-store';
import { useLeaseListStore } from '../../state/lease-list-store';
import { useUiStore } from '../../state/ui-store';
import { nextTheme } from '../use-theme';
import type { PaletteCommand } from './CommandPalette';

export interface PaletteActions {
  createLease: () => void;
  refresh: () => void;
}

export function usePaletteCommands(selected: Lease | null, theme: Theme, actions: PaletteActions, destroyableChecked: number): PaletteCommand[] {
  const openDestroy = useDialogStore((s) => s.openDestroy);
  const openExport = useDialogStore((s) => s.openExport);
  const openSettings = useDialogStore((s) => s.openSettings);
  const openBulkDestroy = useDialogStore((s) => s.openBulkDestroy);
  const setThemePreference = useUiStore((s) => s.setThemePreference);
  const unprovenOnly = useLeaseListStore((s) => s.unprovenOnly);
  const toggleUnprovenOnly = useLeaseListStore((s) => s.toggleUnprovenOnly);
  const canDestroy = selected !== null && !selected.gone && selected.destroy?.state !== 'destroying';
  return [
    { id: 'new-lease', label: 'New lease', enabled: true, run: actions.createLease },
    { id: 'refresh', label: 'Refresh', enabled: true, hint: 'ask the provider again', run: actions.refresh },
    { id: 'destroy-selected', label: 'Destroy selected lease', enabled: canDestroy, ...(selected ? { hint: selected.id } : { hint: 'no lease open' }), run: () => { if (selected) openDestroy(selected.id); } },
    { id: 'destroy-checked', label: `Destroy checked leases (${destroyableChecked})`, enabled: destroyableChecked > 0, run: openBulkDestroy },
    { id: 'export', label: 'Export incident log', enabled: true, hint: selected ? selected.id : 'time window', run: () => openExport(selected ? { kind: 'lease', leaseId: selected.id } : { kind: 'window' }) },
    { id: 'export-window', label: 'Export time window', enabled: true, run: () => openExport({ kind: 'window' }) },
    { id: 'toggle-theme', label: 'Toggle theme', enabled: true, hint: `now ${theme}`, run: () => setThemePreference(nextTheme(theme)) },
    { id: 'settings', label: 'Settings', enabled: true, run: openSettings },
    { id: 'unproven-only', label: 'Unproven only', enabled: true, hint: unprovenOnly ? 'on' : 'off', run: toggleUnprovenOnly },
  ];
}
