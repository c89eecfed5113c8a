// The host's router: one thin router per domain, all implementing the shared contract.
import type { HostServices } from '../services';
import { base } from './base';
import { createIncidentsRouter } from './incidents-router';
import { createLeasesRouter } from './leases-router';
import { createProcessesRouter } from './processes-router';
import { createSettingsRouter } from './settings-router';
import { createSystemRouter } from './system-router';

export function createHostRouter(services: HostServices) {
  return base.router({
    leases: createLeasesRouter(services.leases),
    processes: createProcessesRouter(services.processes),
    incidents: createIncidentsRouter(services.incidents),
    settings: createSettingsRouter(services.settings),
    system: createSystemRouter(services.system),
  });
}

export type HostRouter = ReturnType<typeof createHostRouter>;
