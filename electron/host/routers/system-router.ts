import type { SystemOperations } from '../services';
import { base } from './base';

export function createSystemRouter(system: SystemOperations) {
  return {
    info: base.system.info.handler(() => system.info()),
  };
}
