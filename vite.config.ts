import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The renderer: one React app, served by electron/serve.ts in browser mode and loaded from disk in Electron.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: { outDir: '../dist/renderer', emptyOutDir: true, sourcemap: true },
});
