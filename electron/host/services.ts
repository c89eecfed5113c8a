// What the routers need from the host's brain. Routers stay thin: they only call these.
import type {
  ContractInputs, ContractOutputs, Environment, IncidentFile, IncidentScope, LeaseEvent, RedactionPreview, SystemInfo, TailEvent,
} from '../../shared/contract';
import type { Lease, TimelineEntry } from '../../shared/domain';

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
  pause(leaseId: string, actor: string): Promise<Lease>;
  resume(leaseId: string, actor: string): Promise<{ lease: Lease; resumed: boolean; expired: string | null }>;
  destroyMany(leaseIds: readonly string[], reason: string, actor: string): Promise<ContractOutputs['leases']['destroyMany']>;
  clear(leaseId: string, actor: string): Promise<boolean>;
  timeline(leaseId: string): TimelineEntry[];
  refresh(): Promise<number>;
  watch(listener: (event: LeaseEvent) => void): Unsubscribe;
}

export interface ProcessOperations {
  run(input: ContractInputs['processes']['run'], actor: string): Promise<{ runId: string }>;
  stop(leaseId: string, processId: string, actor: string): Promise<{ treeExited: boolean }>;
  /** Calls the listener with a replay event first, then with live entries. */
  tail(leaseId: string, processId: string, listener: (event: TailEvent) => void): Unsubscribe;
}

export interface IncidentOperations {
  preview(scope: IncidentScope): Promise<RedactionPreview>;
  export(scope: IncidentScope, format: 'json' | 'html', actor: string): Promise<IncidentFile>;
}

export interface SettingsOperations {
  environments(): Environment[];
  save(input: ContractInputs['settings']['saveEnvironment'], actor: string): Promise<Environment>;
  remove(id: string, actor: string): Promise<boolean>;
  test(id: string): Promise<{ ok: boolean; message: string }>;
  activate(id: string, actor: string): Promise<Environment>;
}

export interface SystemOperations {
  info(): SystemInfo;
}

export interface HostServices {
  readonly leases: LeaseOperations;
  readonly processes: ProcessOperations;
  readonly incidents: IncidentOperations;
  readonly settings: SettingsOperations;
  readonly system: SystemOperations;
}
