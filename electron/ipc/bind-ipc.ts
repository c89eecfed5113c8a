// Serves the contract over Electron IPC. Every message is checked: the sender frame must be the
// console's own page, the channel must be in the contract with the right kind, and the input is
// validated by the procedure's schema before any host code runs. A page that reloads, navigates
// away or dies takes its subscriptions with it.
import type { IpcMain, IpcMainEvent, IpcMainInvokeEvent, WebContents, WebFrameMain } from 'electron';
import { createRouterClient, ORPCError } from '@orpc/server';
import { channelByName } from '../../shared/contract/channel-table';
import { ipcChannels, subscriptionIdSchema, type BridgeError, type BridgeResult, type BridgeStreamMessage } from '../../shared/contract/bridge';
import { mapErrorsInterceptor } from '../host/error-interceptor';
import type { HostRouter } from '../host/routers';
import { toTransportError } from '../host/rpc-errors';

type MainIpc = Pick<IpcMain, 'handle' | 'removeHandler' | 'on' | 'removeListener'>;

export interface BindIpcOptions {
  ipcMain: MainIpc;
  router: HostRouter;
  /** True only for the console's own top-level page. */
  isTrustedFrame: (frame: Pick<WebFrameMain, 'url' | 'parent'> | null) => boolean;
}

type Callable = (input: unknown, options?: { signal?: AbortSignal }) => Promise<unknown>;

/** What bindIpc uses of a subscriber's WebContents. */
type Subscriber = Pick<WebContents, 'id' | 'isDestroyed' | 'send' | 'on' | 'off'>;

function toBridgeError(error: unknown): BridgeError {
  const json = toTransportError(error).toJSON();
  return { defined: json.defined, code: json.code, status: json.status, message: json.message, data: json.data ?? null };
}

function lookup(client: unknown, channelName: unknown, kind: 'invoke' | 'subscribe'): Callable {
  const channel = typeof channelName === 'string' ? channelByName.get(channelName) : undefined;
  if (!channel) throw new ORPCError('NOT_FOUND', { message: `Unknown channel: ${String(channelName)}` });
  if (channel.kind !== kind) throw new ORPCError('BAD_REQUEST', { message: `Channel ${channel.name} must be used with ${channel.kind}.` });
  let target: unknown = client;
  for (const key of channel.path) target = (target as Record<string, unknown>)[key];
  return target as Callable;
}

export function bindIpc(options: BindIpcOptions): { dispose(): void } {
  const client = createRouterClient(options.router, {
    context: { actor: 'operator (desktop)' },
    interceptors: [mapErrorsInterceptor],
  });
  const subscriptions = new Map<string, AbortController>();
  /** Per subscribing WebContents: removes the listeners that end its subscriptions. */
  const watchedSenders = new Map<number, () => void>();

  const endSubscriptionsOf = (senderId: number): void => {
    for (const [key, controller] of subscriptions) {
      if (!key.startsWith(`${senderId}:`)) continue;
      controller.abort();
      subscriptions.delete(key);
    }
  };

  /** The first subscription of a page: end all of them when the page reloads, navigates or goes away. */
  const watchSender = (sender: Subscriber): void => {
    if (watchedSenders.has(sender.id)) return;
    const senderId = sender.id;
    const onNavigation = (details: { isMainFrame: boolean; isSameDocument: boolean }): void => {
      if (details.isMainFrame && !details.isSameDocument) endSubscriptionsOf(senderId);
    };
    const onGone = (): void => {
      endSubscriptionsOf(senderId);
      unwatch();
    };
    const unwatch = (): void => {
      sender.off('did-start-navigation', onNavigation);
      sender.off('render-process-gone', onGone);
      sender.off('destroyed', onGone);
      watchedSenders.delete(senderId);
    };
    sender.on('did-start-navigation', onNavigation);
    sender.on('render-process-gone', onGone);
    sender.on('destroyed', onGone);
    watchedSenders.set(senderId, unwatch);
  };
  const untrusted: BridgeError = { defined: false, code: 'FORBIDDEN', status: 403, message: 'IPC from an untrusted frame was refused.', data: null };

  const onInvoke = async (event: IpcMainInvokeEvent, channel: unknown, input: unknown): Promise<BridgeResult> => {
    if (!options.isTrustedFrame(event.senderFrame)) return { ok: false, error: untrusted };
    try {
      const value = await lookup(client, channel, 'invoke')(input);
      return { ok: true, value };
    } catch (error) {
      return { ok: false, error: toBridgeError(error) };
    }
  };

  const onSubscribe = (event: IpcMainEvent, rawId: unknown, channel: unknown, input: unknown): void => {
    const id = subscriptionIdSchema.safeParse(rawId);
    if (!id.success) return;
    const reply = (message: BridgeStreamMessage): void => {
      if (!event.sender.isDestroyed()) event.sender.send(ipcChannels.stream, id.data, message);
    };
    if (!options.isTrustedFrame(event.senderFrame)) return reply({ type: 'error', error: untrusted });
    const controller = new AbortController();
    const key = `${event.sender.id}:${id.data}`;
    subscriptions.get(key)?.abort();
    subscriptions.set(key, controller);
    watchSender(event.sender);
    void (async () => {
      try {
        const iterator = await lookup(client, channel, 'subscribe')(input, { signal: controller.signal });
        for await (const value of iterator as AsyncIterable<unknown>) {
          if (controller.signal.aborted) break;
          reply({ type: 'event', value });
        }
        if (!controller.signal.aborted) reply({ type: 'end' });
      } catch (error) {
        if (!controller.signal.aborted) reply({ type: 'error', error: toBridgeError(error) });
      } finally {
        // A reloaded page may reuse the id: only remove this subscription's own entry.
        if (subscriptions.get(key) === controller) subscriptions.delete(key);
      }
    })();
  };

  const onUnsubscribe = (event: IpcMainEvent, rawId: unknown): void => {
    const key = `${event.sender.id}:${String(rawId)}`;
    subscriptions.get(key)?.abort();
    subscriptions.delete(key);
  };

  options.ipcMain.handle(ipcChannels.invoke, onInvoke);
  options.ipcMain.on(ipcChannels.subscribe, onSubscribe);
  options.ipcMain.on(ipcChannels.unsubscribe, onUnsubscribe);

  return {
    dispose() {
      options.ipcMain.removeHandler(ipcChannels.invoke);
      options.ipcMain.removeListener(ipcChannels.subscribe, onSubscribe);
      options.ipcMain.removeListener(ipcChannels.unsubscribe, onUnsubscribe);
      for (const controller of subscriptions.values()) controller.abort();
      subscriptions.clear();
      for (const unwatch of [...watchedSenders.values()]) unwatch();
    },
  };
}
