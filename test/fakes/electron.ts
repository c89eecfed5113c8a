// Stand-in for the `electron` module in vitest: the binary cannot run here, and nothing a test
// loads may need it. Tests of the desktop seam build their own fakes of ipcMain/contextBridge;
// this module only makes an accidental import fail loudly instead of downloading Electron.
function notAvailable(name: string): never {
  throw new Error(`electron.${name} is not available in tests; inject a fake instead.`);
}

export const app = new Proxy({}, { get: (_t, p) => notAvailable(`app.${String(p)}`) });
export const ipcMain = new Proxy({}, { get: (_t, p) => notAvailable(`ipcMain.${String(p)}`) });
export const ipcRenderer = new Proxy({}, { get: (_t, p) => notAvailable(`ipcRenderer.${String(p)}`) });
export const contextBridge = new Proxy({}, { get: (_t, p) => notAvailable(`contextBridge.${String(p)}`) });
export default { app, ipcMain, ipcRenderer, contextBridge };
