// Preload (sandboxed, context-isolated): exposes the one bridge object and nothing else.
import { contextBridge, ipcRenderer } from 'electron';
import { exposeBridge } from './bridge/expose-bridge';

exposeBridge(contextBridge, ipcRenderer);
