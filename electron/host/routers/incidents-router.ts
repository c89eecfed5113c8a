import type { IncidentOperations } from '../services';
import { base } from './base';

export function createIncidentsRouter(incidents: IncidentOperations) {
  return {
    preview: base.incidents.preview.handler(({ input }) => incidents.preview(input.scope)),
    export: base.incidents.export.handler(({ input, context }) => incidents.export(input.scope, input.format, context.actor)),
  };
}
