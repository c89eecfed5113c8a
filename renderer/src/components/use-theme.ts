// The theme: the operator's choice (light, dark, or follow the system), remembered by the platform.
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { usePlatform } from '../platform/platform-context';
import type { Theme } from '../platform/platform';
import { useUiStore } from '../state/ui-store';

export function useTheme(): Theme {
  const platform = usePlatform();
  const preference = useUiStore((s) => s.themePreference);
  const setPreference = useUiStore((s) => s.setThemePreference);
  const loaded = useRef(false);
  const system = useSyncExternalStore(platform.theme.onSystemThemeChange, platform.theme.systemTheme);
  useEffect(() => {
    if (loaded.current) {
      platform.theme.savePreference(preference);
      return;
    }
    loaded.current = true;
    const stored = platform.theme.loadPreference();
    if (stored && stored !== preference) setPreference(stored);
  }, [platform, preference, setPreference]);
  return preference === 'system' ? system : preference;
}

export function nextTheme(current: Theme): Theme {
  return current === 'dark' ? 'light' : 'dark';
}
