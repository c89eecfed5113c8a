import { describe, expect, it } from 'vitest';
import { channelByName, channels } from './channel-table';

describe('derived channels', () => {
  it('lists every procedure of the contract with its transport kind', () => {
    expect(channelByName.get('leases.watch')?.kind).toBe('subscribe');
    expect(channelByName.get('processes.tail')?.kind).toBe('subscribe');
    expect(channelByName.get('leases.create')?.kind).toBe('invoke');
    expect(channels.map((c) => c.name)).toContain('system.info');
    expect(new Set(channels.map((c) => c.name)).size).toBe(channels.length);
  });
});
