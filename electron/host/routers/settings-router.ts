import type { SettingsOperations } from '../services';
import { base } from './base';

export function createSettingsRouter(settings: SettingsOperations) {
  return {
    environments: base.settings.environments.handler(() => settings.environments()),
    saveEnvironment: base.settings.saveEnvironment.handler(({ input, context }) => settings.save(input, context.actor)),
    removeEnvironment: base.settings.removeEnvironment.handler(async ({ input, context }) => ({ removed: await settings.remove(input.id, context.actor) })),
    testEnvironment: base.settings.testEnvironment.handler(({ input }) => settings.test(input.id)),
    activateEnvironment: base.settings.activateEnvironment.handler(({ input, context }) => settings.activate(input.id, context.actor)),
  };
}
