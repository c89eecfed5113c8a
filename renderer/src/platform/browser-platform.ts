// The platform in a browser page (and Electron's renderer, which is one): the only renderer module
// besides the transport that touches window, document and navigator.
import type { NotificationPermissionState, Platform, SavedFile, Theme, ThemePreference } from './platform';

const themeKey = 'leasewatch.theme';
const darkQuery = '(prefers-color-scheme: dark)';

function notificationPermission(): NotificationPermissionState {
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.permission;
}

function saveFile(file: SavedFile): Promise<void> {
  const url = URL.createObjectURL(new Blob([file.content], { type: file.mimeType }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = file.fileName;
  anchor.rel = 'noopener';
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return Promise.resolve();
}

function readPreference(): ThemePreference | null {
  try {
    const value = window.localStorage.getItem(themeKey);
    return value === 'light' || value === 'dark' || value === 'system' ? value : null;
  } catch {
    return null;
  }
}

export function createBrowserPlatform(): Platform {
  return {
    clipboard: {
      async writeText(text) {
        if (!navigator.clipboard) throw new Error('The clipboard is not available in this page.');
        await navigator.clipboard.writeText(text);
      },
    },
    files: { save: saveFile },
    notifier: {
      permission: notificationPermission,
      async requestPermission() {
        if (typeof Notification === 'undefined') return 'unsupported';
        return Notification.requestPermission();
      },
      notify(title, options) {
        if (notificationPermission() !== 'granted') return false;
        new Notification(title, { body: options.body, tag: options.tag });
        return true;
      },
    },
    theme: {
      systemTheme: (): Theme => (window.matchMedia(darkQuery).matches ? 'dark' : 'light'),
      onSystemThemeChange(listener) {
        const query = window.matchMedia(darkQuery);
        query.addEventListener('change', listener);
        return () => query.removeEventListener('change', listener);
      },
      loadPreference: readPreference,
      savePreference(preference) {
        try {
          window.localStorage.setItem(themeKey, preference);
        } catch {
          // Storage refused (private mode): the preference lasts for this page only.
        }
      },
    },
    keyboard: {
      onKeyDown(listener) {
        document.addEventListener('keydown', listener);
        return () => document.removeEventListener('keydown', listener);
      },
    },
  };
}
