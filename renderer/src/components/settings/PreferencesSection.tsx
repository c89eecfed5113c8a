// Notifications (permission asked from this click) and the theme.
import { useState } from 'react';
import { usePlatform } from '../../platform/platform-context';
import type { NotificationPermissionState, ThemePreference } from '../../platform/platform';
import { useUiStore } from '../../state/ui-store';

const permissionText: Record<NotificationPermissionState, string> = {
  granted: 'Notifications are on: unproven leases and destroys running over 30 s notify you.',
  denied: 'Notifications are blocked for this page; allow them in the browser settings.',
  default: 'Notifications are off.',
  unsupported: 'This page cannot show notifications.',
};

export function PreferencesSection() {
  const platform = usePlatform();
  const [permission, setPermission] = useState(() => platform.notifier.permission());
  const [asking, setAsking] = useState(false);
  const preference = useUiStore((s) => s.themePreference);
  const setPreference = useUiStore((s) => s.setThemePreference);
  const enable = (): void => {
    setAsking(true);
    void platform.notifier.requestPermission().then((result) => {
      setPermission(result);
      setAsking(false);
    });
  };
  return (
    <section aria-label="Preferences" className="preferences">
      <h3>Notifications</h3>
      <p role="status">{permissionText[permission]}</p>
      {permission === 'default' && <button type="button" onClick={enable} disabled={asking}>Enable notifications</button>}
      <h3>Theme</h3>
      <div role="radiogroup" aria-label="Theme" className="toolbar">
        {(['system', 'light', 'dark'] as const satisfies readonly ThemePreference[]).map((value) => (
          <label key={value} className="check">
            <input type="radio" name="theme" checked={preference === value} onChange={() => setPreference(value)} /> {value === 'system' ? 'Follow system' : value === 'light' ? 'Light' : 'Dark'}
          </label>
        ))}
      </div>
    </section>
  );
}
