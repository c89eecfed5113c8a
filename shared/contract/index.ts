// The console's one contract: every request, response and event between renderer and host.
import type { ContractRouterClient, InferContractRouterInputs, InferContractRouterOutputs } from '@orpc/contract';
import { incidentsContract } from './incidents';
import { leasesContract } from './leases';
import { processesContract } from './processes';
import { settingsContract } from './settings';
import { systemContract } from './system';

export const contract = {
  leases: leasesContract,
  processes: processesContract,
  incidents: incidentsContract,
  settings: settingsContract,
  system: systemContract,
};

export type Contract = typeof contract;
export type ConsoleClient = ContractRouterClient<Contract>;
export type ContractInputs = InferContractRouterInputs<Contract>;
export type ContractOutputs = InferContractRouterOutputs<Contract>;

export * from './channels';
export * from './incidents';
export * from './leases';
export * from './processes';
export * from './settings';
export * from './system';
