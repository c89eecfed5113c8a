// What the routers need from the host's brain. Routers stay thin: they only call these.
import type { ContractInputs, LeaseEvent, SystemInfo, TailEvent } from '../../shared/contract';
import type { Lease } from '../../shared/domain';

export interface RequestContext {
  /** Who asked: recorded with operator actions. */
  readonly actor: string;
}

export type Unsubscribe = () => void;

export interface LeaseOperations {
  list(): Lease[];
  get(leaseId: string): Lease;
  create(input: ContractInputs['leases']['create'], actor: string): Promise<Lease>;
  destroy(leaseId: string, reason: string, actor: string): Promise<Lease>;
  refresh(): Promise<number>;
  watch(listener: (event: LeaseEvent) => void): Unsubscribe;
}

export interface ProcessOperations {
  run(input: ContractInputs['processes']['run'], actor: string): Promise<{ runId: string }>;
  stop(leaseId: string, processId: string, actor: string): Promise<{ treeExited: boolean }>;
  /** Calls the listener with a replay event first, then with live entries. */
  tail(leaseId: string, processId: string, listener: (event: TailEvent) => void): Unsubscribe;
}

export interface SystemOperations {
  info(): SystemInfo;
}

export interface HostServices {
  readonly leases: LeaseOperations;
  readonly processes: ProcessOperations;
  readonly system: SystemOperations;
}
