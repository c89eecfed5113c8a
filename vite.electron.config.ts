import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';

// Bundles electron/main.ts (ESM) and electron/preload.ts (CommonJS, as sandboxed preloads require).
const external = ['electron', ...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const target = process.env['LEASEWATCH_ELECTRON_ENTRY'] === 'preload' ? 'preload' : 'main';

export default defineConfig({
  build: {
    outDir: 'dist-electron',
    emptyOutDir: target === 'main',
    ssr: true,
    target: 'node22',
    sourcemap: true,
    lib: {
      entry: target === 'main' ? 'electron/main.ts' : 'electron/preload.ts',
      formats: [target === 'main' ? 'es' : 'cjs'],
      fileName: () => (target === 'main' ? 'main.js' : 'preload.cjs'),
    },
    rollupOptions: { external },
  },
  ssr: { noExternal: true, external: ['electron'] },
});
