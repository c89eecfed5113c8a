import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ipcChannels, type BridgeResult, type BridgeStreamMessage } from '../../shared/contract/bridge';
import { createFakeHost } from '../../test/fakes/host-services';
import { createHostRouter } from '../host/routers';
import { bindIpc } from './bind-ipc';

// A fake ipcMain: records handlers so the test can call them like Electron would.
class FakeIpcMain extends EventEmitter {
  readonly handlers = new Map<string, (...args: unknown[]) => unknown>();
  handle(channel: string, fn: (...args: unknown[]) => unknown): void { this.handlers.set(channel, fn); }
  removeHandler(channel: string): void { this.handlers.delete(channel); }
}

const trustedFrame = { url: 'app://leasewatch/index.html', parent: null };
const foreignFrame = { url: 'https://evil.example/', parent: null };

function setup() {
  const ipcMain = new FakeIpcMain();
  const { services, watchers } = createFakeHost('desktop');
  const binding = bindIpc({
    ipcMain: ipcMain as never,
    router: createHostRouter(services),
    isTrustedFrame: (frame) => frame?.url === trustedFrame.url && frame.parent === null,
  });
  const invoke = (frame: unknown, channel: unknown, input: unknown) =>
    ipcMain.handlers.get(ipcChannels.invoke)?.({ senderFrame: frame }, channel, input) as Promise<BridgeResult>;
  return { ipcMain, watchers, binding, invoke };
}

describe('bindIpc', () => {
  it('answers a contract call from the trusted frame', async () => {
    const { invoke } = setup();
    const result = await invoke(trustedFrame, 'system.info', undefined);
    expect(result).toMatchObject({ ok: true, value: { mode: 'desktop' } });
  });

  it('refuses a call from a foreign frame without running it', async () => {
    const { invoke } = setup();
    expect(await invoke(foreignFrame, 'system.info', undefined)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('rejects input that does not match the schema, naming the field, and keeps serving', async () => {
    const { invoke } = setup();
    const bad = await invoke(trustedFrame, 'leases.destroy', { leaseId: '../etc', reason: 'x' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.code).toBe('BAD_REQUEST');
      expect(bad.error.message).toContain('leaseId');
    }
    const missing = await invoke(trustedFrame, 'leases.destroy', { leaseId: 'sb_1' });
    expect(!missing.ok && missing.error.message).toContain('reason');
    expect(await invoke(trustedFrame, 'no.such', {})).toMatchObject({ ok: false, error: { message: 'Unknown channel: no.such' } });
    expect(await invoke(trustedFrame, 'system.info', undefined)).toMatchObject({ ok: true });
  });

  it('carries host errors with their message', async () => {
    const { invoke } = setup();
    expect(await invoke(trustedFrame, 'leases.get', { leaseId: 'sb_x' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', message: 'Lease sb_x is not known to this console.' } });
  });

  it('streams a subscription to the sender and stops it on unsubscribe', async () => {
    const { ipcMain, watchers, binding } = setup();
    const sent: Array<[string, BridgeStreamMessage]> = [];
    let deliver: () => void = () => undefined;
    const sender = Object.assign(new EventEmitter(), {
      id: 7,
      isDestroyed: () => false,
      send: (_c: string, id: string, message: BridgeStreamMessage) => { sent.push([id, message]); deliver(); },
    });
    const arrived = (count: number) => new Promise<void>((resolve) => {
      deliver = () => { if (sent.length >= count) resolve(); };
      deliver();
    });
    ipcMain.emit(ipcChannels.subscribe, { senderFrame: trustedFrame, sender }, 'sub-1', 'leases.watch', undefined);
    await arrived(1);
    expect(sent[0]).toEqual(['sub-1', { type: 'event', value: { type: 'snapshot', leases: [] } }]);
    watchers[0]?.({ type: 'removed', leaseId: 'sb_1' });
    await arrived(2);
    expect(sent[1]?.[1]).toEqual({ type: 'event', value: { type: 'removed', leaseId: 'sb_1' } });
    ipcMain.emit(ipcChannels.unsubscribe, { sender }, 'sub-1');
    await expect.poll(() => watchers.length).toBe(0);
    binding.dispose();
    expect(ipcMain.handlers.size).toBe(0);
  });

  it('ends a page\'s subscriptions when it reloads or goes away, not on in-page navigation', async () => {
    const { ipcMain, watchers, binding } = setup();
    const sender = Object.assign(new EventEmitter(), { id: 9, isDestroyed: () => false, send: () => undefined });
    const subscribe = (id: string) => ipcMain.emit(ipcChannels.subscribe, { senderFrame: trustedFrame, sender }, id, 'leases.watch', undefined);
    subscribe('sub-1');
    subscribe('sub-2');
    await expect.poll(() => watchers.length).toBe(2);

    sender.emit('did-start-navigation', { isMainFrame: true, isSameDocument: true });
    sender.emit('did-start-navigation', { isMainFrame: false, isSameDocument: false });
    expect(watchers.length).toBe(2);
    sender.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false });
    await expect.poll(() => watchers.length).toBe(0);

    // The reloaded page starts again with the same ids; its subscriptions live until the page is destroyed.
    subscribe('sub-1');
    await expect.poll(() => watchers.length).toBe(1);
    sender.emit('destroyed');
    await expect.poll(() => watchers.length).toBe(0);
    expect(sender.listenerCount('did-start-navigation')).toBe(0);
    binding.dispose();
  });
});
