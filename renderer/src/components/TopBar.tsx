// The top bar: what the console is connected to, and the global actions.
import type { SystemInfo } from '../../../shared/contract';
import type { Theme } from '../platform/platform';
import { useDialogStore } from '../state/dialog-store';
import { useUiStore } from '../state/ui-store';
import { nextTheme } from './use-theme';

export function TopBar({ info, live, theme }: { info: SystemInfo | undefined; live: boolean; theme: Theme }) {
  const openExport = useDialogStore((s) => s.openExport);
  const openSettings = useDialogStore((s) => s.openSettings);
  const togglePalette = useDialogStore((s) => s.togglePalette);
  const setThemePreference = useUiStore((s) => s.setThemePreference);
  return (
    <header className="topbar">
      <h1>Leasewatch</h1>
      <span className={live ? 'conn live' : 'conn down'} role="status">{live ? 'Live' : 'Connecting…'}</span>
      {info && (
        <span className="muted provider">
          {info.providerKind} · {info.providerUrl}{info.queuedRequests > 0 ? ` · ${info.queuedRequests} ${info.queuedRequests === 1 ? 'request' : 'requests'} queued` : ''}
        </span>
      )}
      <span className="spacer" />
      <button type="button" onClick={() => openExport({ kind: 'window' })}>Export time window</button>
      <button type="button" onClick={openSettings}>Settings</button>
      <button type="button" onClick={() => setThemePreference(nextTheme(theme))} aria-label="Toggle theme" title={`Switch to the ${nextTheme(theme)} theme`}>
        {theme === 'dark' ? '☾ Dark' : '☀ Light'}
      </button>
      <button type="button" onClick={togglePalette} aria-keyshortcuts="Control+K Meta+K">Commands <kbd>Ctrl K</kbd></button>
    </header>
  );
}
