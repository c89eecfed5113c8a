// A platform for tests: records what the console copied, saved and notified.
import type { NotificationPermissionState, Platform, SavedFile, Theme, ThemePreference } from '../platform/platform';

export class FakePlatform implements Platform {
  readonly copied: string[] = [];
  readonly saved: SavedFile[] = [];
  readonly notifications: Array<{ title: string; body: string; tag: string }> = [];
  notificationPermission: NotificationPermissionState = 'default';
  systemThemeValue: Theme = 'dark';
  storedTheme: ThemePreference | null = null;
  private readonly keyListeners = new Set<(event: KeyboardEvent) => void>();
  private readonly themeListeners = new Set<() => void>();

  readonly clipboard = {
    writeText: (text: string): Promise<void> => {
      this.copied.push(text);
      return Promise.resolve();
    },
  };

  readonly files = {
    save: (file: SavedFile): Promise<void> => {
      this.saved.push(file);
      return Promise.resolve();
    },
  };

  readonly notifier = {
    permission: (): NotificationPermissionState => this.notificationPermission,
    requestPermission: (): Promise<NotificationPermissionState> => {
      this.notificationPermission = 'granted';
      return Promise.resolve(this.notificationPermission);
    },
    notify: (title: string, options: { body: string; tag: string }): boolean => {
      if (this.notificationPermission !== 'granted') return false;
      this.notifications.push({ title, ...options });
      return true;
    },
  };

  readonly theme = {
    systemTheme: (): Theme => this.systemThemeValue,
    onSystemThemeChange: (listener: () => void): (() => void) => {
      this.themeListeners.add(listener);
      return () => this.themeListeners.delete(listener);
    },
    loadPreference: (): ThemePreference | null => this.storedTheme,
    savePreference: (preference: ThemePreference): void => {
      this.storedTheme = preference;
    },
  };

  readonly keyboard = {
    onKeyDown: (listener: (event: KeyboardEvent) => void): (() => void) => {
      this.keyListeners.add(listener);
      return () => this.keyListeners.delete(listener);
    },
  };

  /** A key press anywhere in the page. */
  pressKey(init: KeyboardEventInit): KeyboardEvent {
    const event = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
    for (const listener of this.keyListeners) listener(event);
    return event;
  }

  setSystemTheme(theme: Theme): void {
    this.systemThemeValue = theme;
    for (const listener of this.themeListeners) listener();
  }
}
