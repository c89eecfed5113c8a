// Every dialog of the console, opened through the dialog store (buttons and the palette alike).
import type { Lease } from '../../../shared/domain';
import { useDialogStore } from '../state/dialog-store';
import { ExportDialog } from './incidents/ExportDialog';
import { DestroyDialog } from './lease/DestroyDialog';
import { BulkDestroyDialog } from './leases/BulkDestroyDialog';
import { CommandPalette, type PaletteCommand } from './palette/CommandPalette';
import { SettingsPanel } from './settings/SettingsPanel';

export function AppDialogs({ leases, commands }: { leases: readonly Lease[]; commands: readonly PaletteCommand[] }) {
  const dialogs = useDialogStore();
  const destroyLease = dialogs.destroyLeaseId ? leases.find((l) => l.id === dialogs.destroyLeaseId) : undefined;
  return (
    <>
      {destroyLease && <DestroyDialog lease={destroyLease} onClose={dialogs.closeDestroy} />}
      {dialogs.bulkDestroyOpen && <BulkDestroyDialog leases={leases} onClose={dialogs.closeBulkDestroy} />}
      {dialogs.exportRequest && <ExportDialog request={dialogs.exportRequest} onClose={dialogs.closeExport} />}
      {dialogs.settingsOpen && <SettingsPanel onClose={dialogs.closeSettings} />}
      {dialogs.paletteOpen && <CommandPalette commands={commands} onClose={dialogs.closePalette} />}
    </>
  );
}
