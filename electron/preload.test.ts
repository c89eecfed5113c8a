import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ipcChannels, type BridgeStreamMessage, type LeasewatchBridge } from '../shared/contract/bridge';

// Fakes of the two Electron objects the preload touches.
const exposed = new Map<string, unknown>();
const sent: unknown[][] = [];
const invoked: unknown[][] = [];
const rendererEvents = new EventEmitter();
let invokeReply: unknown = { ok: true, value: [] };

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
  ipcRenderer: {
    invoke: (...args: unknown[]) => { invoked.push(args); return Promise.resolve(invokeReply); },
    send: (...args: unknown[]) => { sent.push(args); },
    on: (channel: string, listener: (...args: unknown[]) => void) => rendererEvents.on(channel, listener),
    removeListener: (channel: string, listener: (...args: unknown[]) => void) => rendererEvents.removeListener(channel, listener),
  },
}));

async function loadBridge(): Promise<LeasewatchBridge> {
  await import('./preload');
  return exposed.get('leasewatch') as LeasewatchBridge;
}

describe('preload', () => {
  beforeEach(() => {
    sent.length = 0;
    invoked.length = 0;
  });

  it('exposes exactly one frozen object with invoke and subscribe', async () => {
    const bridge = await loadBridge();
    expect([...exposed.keys()]).toEqual(['leasewatch']);
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'subscribe']);
    expect(Object.isFrozen(bridge)).toBe(true);
  });

  it('forwards contract channels and refuses unknown ones or the wrong kind', async () => {
    const bridge = await loadBridge();
    await expect(bridge.invoke('leases.list', undefined)).resolves.toEqual({ ok: true, value: [] });
    expect(invoked).toEqual([[ipcChannels.invoke, 'leases.list', undefined]]);
    await expect(bridge.invoke('shell.exec', 'rm -rf /')).rejects.toThrow('Unknown channel: shell.exec');
    await expect(bridge.invoke('leases.watch', undefined)).rejects.toThrow('must be used with subscribe');
    expect(() => bridge.subscribe('leases.create', {}, () => undefined)).toThrow('must be used with invoke');
    expect(invoked).toHaveLength(1);
  });

  it('rejects a malformed reply from the main process', async () => {
    const bridge = await loadBridge();
    invokeReply = { ok: 'yes' };
    await expect(bridge.invoke('leases.list', undefined)).rejects.toThrow();
    invokeReply = { ok: true, value: [] };
  });

  it('delivers only its own subscription messages and unsubscribes', async () => {
    const bridge = await loadBridge();
    const received: BridgeStreamMessage[] = [];
    const unsubscribe = bridge.subscribe('leases.watch', undefined, (m) => received.push(m));
    const [channel, id, name] = sent[0] ?? [];
    expect(channel).toBe(ipcChannels.subscribe);
    expect(name).toBe('leases.watch');
    rendererEvents.emit(ipcChannels.stream, {}, 'someone-else', { type: 'event', value: 1 });
    rendererEvents.emit(ipcChannels.stream, {}, id, { type: 'event', value: 2 });
    rendererEvents.emit(ipcChannels.stream, {}, id, { type: 'bogus' });
    expect(received).toEqual([
      { type: 'event', value: 2 },
      { type: 'error', error: { defined: false, code: 'BAD_MESSAGE', status: 500, message: 'The host sent a malformed stream message.', data: null } },
    ]);
    unsubscribe();
    expect(rendererEvents.listenerCount(ipcChannels.stream)).toBe(0);
  });
});
