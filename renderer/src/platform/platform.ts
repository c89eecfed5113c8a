// What the console needs from its surroundings (the browser or Electron's renderer), behind small
// interfaces so components never reach for globals and tests can substitute fakes.

export interface SavedFile {
  readonly fileName: string;
  readonly mimeType: string;
  readonly content: string;
}

export type NotificationPermissionState = 'granted' | 'denied' | 'default' | 'unsupported';

export interface Notifier {
  readonly permission: () => NotificationPermissionState;
  /** Must be called from a user gesture (a click). */
  readonly requestPermission: () => Promise<NotificationPermissionState>;
  /** Shows a notification when permitted; returns whether it was shown. */
  readonly notify: (title: string, options: { body: string; tag: string }) => boolean;
}

export interface ClipboardWriter {
  readonly writeText: (text: string) => Promise<void>;
}

export interface FileSaver {
  /** Browser mode: a download; Electron: the download's save dialog. */
  readonly save: (file: SavedFile) => Promise<void>;
}

export type ThemePreference = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

export interface ThemeHost {
  readonly systemTheme: () => Theme;
  readonly onSystemThemeChange: (listener: () => void) => () => void;
  readonly loadPreference: () => ThemePreference | null;
  readonly savePreference: (preference: ThemePreference) => void;
}

export interface KeyboardHost {
  /** Key presses anywhere in the page (for global shortcuts like Ctrl+K). */
  readonly onKeyDown: (listener: (event: KeyboardEvent) => void) => () => void;
}

export interface Platform {
  readonly clipboard: ClipboardWriter;
  readonly files: FileSaver;
  readonly notifier: Notifier;
  readonly theme: ThemeHost;
  readonly keyboard: KeyboardHost;
}
