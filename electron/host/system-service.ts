import type { SystemInfo } from '../../shared/contract';
import type { SystemOperations } from './services';

export interface SystemServiceOptions {
  version: string;
  mode: SystemInfo['mode'];
  providerUrl: string;
  providerKind: SystemInfo['providerKind'];
  apiKeySet: boolean;
  queuedRequests: () => number;
}

export class SystemService implements SystemOperations {
  constructor(private readonly options: SystemServiceOptions) {}

  info(): SystemInfo {
    const { queuedRequests, ...rest } = this.options;
    return { ...rest, queuedRequests: queuedRequests() };
  }
}
