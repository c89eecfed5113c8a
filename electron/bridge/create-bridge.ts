// Builds the one object the preload exposes. It only forwards channels the contract defines,
// each with its own kind, and parses every message that comes back from the main process.
import type { IpcRenderer, IpcRendererEvent } from 'electron';
import { channelByName } from '../../shared/contract/channel-table';
import {
  bridgeResultSchema, bridgeStreamMessageSchema, ipcChannels,
  type BridgeResult, type BridgeStreamMessage, type LeasewatchBridge,
} from '../../shared/contract/bridge';

type RendererIpc = Pick<IpcRenderer, 'invoke' | 'send' | 'on' | 'removeListener'>;

function checkChannel(channel: unknown, kind: 'invoke' | 'subscribe'): string {
  const known = typeof channel === 'string' ? channelByName.get(channel) : undefined;
  if (!known) throw new Error(`Unknown channel: ${String(channel)}`);
  if (known.kind !== kind) throw new Error(`Channel ${known.name} must be used with ${known.kind}, not ${kind}.`);
  return known.name;
}

export function createBridge(ipc: RendererIpc, newId: () => string = () => crypto.randomUUID()): LeasewatchBridge {
  const bridge: LeasewatchBridge = {
    async invoke(channel: string, input: unknown): Promise<BridgeResult> {
      const name = checkChannel(channel, 'invoke');
      return bridgeResultSchema.parse(await ipc.invoke(ipcChannels.invoke, name, input));
    },
    subscribe(channel: string, input: unknown, listener: (message: BridgeStreamMessage) => void): () => void {
      const name = checkChannel(channel, 'subscribe');
      if (typeof listener !== 'function') throw new Error('subscribe needs a listener function.');
      const id = newId();
      let open = true;
      const onMessage = (_event: IpcRendererEvent, messageId: unknown, message: unknown): void => {
        if (messageId !== id || !open) return;
        const parsed = bridgeStreamMessageSchema.safeParse(message);
        const delivered: BridgeStreamMessage = parsed.success
          ? parsed.data
          : { type: 'error', error: { defined: false, code: 'BAD_MESSAGE', status: 500, message: 'The host sent a malformed stream message.', data: null } };
        if (delivered.type !== 'event') close(false);
        listener(delivered);
      };
      const close = (notifyHost: boolean): void => {
        if (!open) return;
        open = false;
        ipc.removeListener(ipcChannels.stream, onMessage);
        if (notifyHost) ipc.send(ipcChannels.unsubscribe, id);
      };
      ipc.on(ipcChannels.stream, onMessage);
      ipc.send(ipcChannels.subscribe, id, name, input);
      return () => close(true);
    },
  };
  return Object.freeze(bridge);
}
