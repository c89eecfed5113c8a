import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Unit and integration tests. `electron` is aliased to a fake: nothing a test loads may need the binary.
const fakeElectron = fileURLToPath(new URL('./test/fakes/electron.ts', import.meta.url));

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias: { electron: fakeElectron } },
        test: {
          name: 'node',
          environment: 'node',
          include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'createos-local/**/*.test.ts', 'scripts/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
      {
        resolve: { alias: { electron: fakeElectron } },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['renderer/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
});
