// Desktop transport: calls go through the preload's bridge (`invoke` / `subscribe`).
import { createORPCErrorFromJson, type ClientLink, type ClientOptions } from '@orpc/client';
import type { BridgeError, BridgeStreamMessage, LeasewatchBridge } from '../../../shared/contract/bridge';
import { channelByName } from '../../../shared/contract/channel-table';

function toError(error: BridgeError): Error {
  return createORPCErrorFromJson({ defined: error.defined, code: error.code, status: error.status, message: error.message, data: error.data });
}

async function* subscribe(bridge: LeasewatchBridge, channel: string, input: unknown, signal: AbortSignal | undefined): AsyncGenerator<unknown> {
  const pending: BridgeStreamMessage[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = bridge.subscribe(channel, input, (message) => {
    pending.push(message);
    wake?.();
  });
  const onAbort = (): void => wake?.();
  signal?.addEventListener('abort', onAbort);
  try {
    for (;;) {
      if (signal?.aborted) return;
      const message = pending.shift();
      if (!message) {
        await new Promise<void>((resolve) => { wake = resolve; });
        wake = null;
        continue;
      }
      if (message.type === 'end') return;
      if (message.type === 'error') throw toError(message.error);
      yield message.value;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    unsubscribe();
  }
}

export class IpcLink implements ClientLink<Record<never, never>> {
  constructor(private readonly bridge: LeasewatchBridge) {}

  async call(path: readonly string[], input: unknown, options: ClientOptions<Record<never, never>>): Promise<unknown> {
    const name = path.join('.');
    const channel = channelByName.get(name);
    if (!channel) throw new Error(`Unknown channel: ${name}`);
    if (channel.kind === 'subscribe') return subscribe(this.bridge, name, input, options.signal);
    const result = await this.bridge.invoke(name, input);
    if (!result.ok) throw toError(result.error);
    return result.value;
  }
}
