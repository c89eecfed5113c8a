// Picks the transport once, at startup: the desktop bridge when the preload exposed it, else the
// console server's WebSocket. This is the only renderer module that looks at the window.
import { createORPCClient } from '@orpc/client';
import { bridgeGlobalName, type LeasewatchBridge } from '../../../shared/contract/bridge';
import type { ConsoleClient } from '../../../shared/contract';
import { IpcLink } from './ipc-link';
import { ReconnectingWebSocketLink, type ConnectionState } from './websocket-link';

function findBridge(): LeasewatchBridge | null {
  const candidate = (globalThis as Record<string, unknown>)[bridgeGlobalName];
  if (typeof candidate !== 'object' || candidate === null) return null;
  const { invoke, subscribe } = candidate as Partial<LeasewatchBridge>;
  return typeof invoke === 'function' && typeof subscribe === 'function' ? (candidate as LeasewatchBridge) : null;
}

export interface ConsoleConnection {
  client: ConsoleClient;
  mode: 'desktop' | 'browser';
}

export function createConsoleClient(onState: (state: ConnectionState) => void): ConsoleConnection {
  const bridge = findBridge();
  if (bridge) {
    onState('open');
    return { client: createORPCClient<ConsoleClient>(new IpcLink(bridge)), mode: 'desktop' };
  }
  const { protocol, host } = globalThis.location;
  const url = `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/rpc`;
  return { client: createORPCClient<ConsoleClient>(new ReconnectingWebSocketLink(url, onState)), mode: 'browser' };
}
