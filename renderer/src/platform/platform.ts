// What the console needs from its surroundings (the browser or Electron's renderer), behind small
// interfaces so components never reach for globals and tests can substitute fakes.

export interface SavedFile {
  readonly fileName: string;
  readonly mimeType: string;
  readonly content: string;
}

export type NotificationPermissionState = 'granted' | 'denied' | 'default' | 'unsupported';

export interface Notifier {
  permission(): NotificationPermissionState;
  /** Must be called from a user gesture (a click). */
  requestPermission(): Promise<NotificationPermissionState>;
  /** Shows a notification when permitted; returns whether it was shown. */
  notify(title: string, options: { body: string; tag: string }): boolean;
}

export interface ClipboardWriter {
  writeText(text: string): Promise<void>;
}

export interface FileSaver {
  /** Browser mode: a download; Electron: the download's save dialog. */
  save(file: SavedFile): Promise<void>;
}

export type ThemePreference = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

export interface ThemeHost {
  systemTheme(): Theme;
  onSystemThemeChange(listener: () => void): () => void;
  loadPreference(): ThemePreference | null;
  savePreference(preference: ThemePreference): void;
}

export interface KeyboardHost {
  /** Key presses anywhere in the page (for global shortcuts like Ctrl+K). */
  onKeyDown(listener: (event: KeyboardEvent) => void): () => void;
}

export interface Platform {
  readonly clipboard: ClipboardWriter;
  readonly files: FileSaver;
  readonly notifier: Notifier;
  readonly theme: ThemeHost;
  readonly keyboard: KeyboardHost;
}
