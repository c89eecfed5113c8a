// Ctrl+K (Cmd+K on a Mac) opens and closes the command palette from anywhere in the page.
import { useEffect } from 'react';
import { usePlatform } from '../../platform/platform-context';
import { useDialogStore } from '../../state/dialog-store';

export function usePaletteShortcut(): void {
  const platform = usePlatform();
  const togglePalette = useDialogStore((s) => s.togglePalette);
  useEffect(
    () =>
      platform.keyboard.onKeyDown((event) => {
        if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
          event.preventDefault();
          togglePalette();
        }
      }),
    [platform, togglePalette],
  );
}
