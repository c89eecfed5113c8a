import type { ContextBridge, IpcRenderer } from 'electron';
import { bridgeGlobalName } from '../../shared/contract/bridge';
import { createBridge } from './create-bridge';

/** Exposes exactly one frozen object to the page: `invoke` and `subscribe`, nothing else. */
export function exposeBridge(contextBridge: Pick<ContextBridge, 'exposeInMainWorld'>, ipc: Pick<IpcRenderer, 'invoke' | 'send' | 'on' | 'removeListener'>): void {
  contextBridge.exposeInMainWorld(bridgeGlobalName, createBridge(ipc));
}
