// In-memory HostServices for tests of the transports (IPC binding, console server). The host's own
// behaviour is tested against createos-local; these fakes only stand behind the seams.
import type { LeaseEvent } from '../../shared/contract';
import type { Lease } from '../../shared/domain';
import { HostError } from '../../electron/host/host-error';
import type { HostServices } from '../../electron/host/services';

export interface FakeHost {
  services: HostServices;
  watchers: Array<(event: LeaseEvent) => void>;
  leases: Lease[];
}

const notUsed = (): Promise<never> => Promise.reject(new Error('not used in this test'));

export function createFakeHost(mode: 'browser' | 'desktop' = 'browser'): FakeHost {
  const watchers: Array<(event: LeaseEvent) => void> = [];
  const leases: Lease[] = [];
  const services: HostServices = {
    leases: {
      list: () => leases,
      get: (id) => {
        const lease = leases.find((l) => l.id === id);
        if (!lease) throw new HostError('NOT_FOUND', `Lease ${id} is not known to this console.`);
        return lease;
      },
      create: notUsed,
      destroy: notUsed,
      pause: notUsed,
      resume: notUsed,
      destroyMany: notUsed,
      clear: notUsed,
      timeline: () => [],
      refresh: () => Promise.resolve(leases.length),
      watch: (listener) => {
        watchers.push(listener);
        listener({ type: 'snapshot', leases });
        return () => { watchers.splice(watchers.indexOf(listener), 1); };
      },
    },
    processes: { run: notUsed, stop: notUsed, tail: () => () => undefined },
    incidents: { preview: notUsed, export: notUsed },
    settings: { environments: () => [], save: notUsed, remove: notUsed, test: notUsed, activate: notUsed },
    system: { info: () => ({ version: '0.0.0', mode, providerUrl: 'http://127.0.0.1:1', providerKind: 'createos-local', apiKeySet: true, queuedRequests: 0 }) },
  };
  return { services, watchers, leases };
}
