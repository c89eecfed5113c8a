// Type-aware lint for every runtime. Layering rules keep each folder in its runtime:
// the host and the embedded provider never import Electron; the renderer only reaches shared/.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'net', 'crypto', 'url', 'stream', 'events', 'util'];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'dist-electron/', 'e2e/artifacts/', '.data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['eslint.config.js'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'max-lines': ['warn', { max: 400, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['electron/host/**', 'createos-local/**', 'shared/**', 'electron/server/**', 'electron/serve.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Only electron/main.ts and electron/preload.ts may import electron.' }] }],
    },
  },
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'shared/ runs everywhere: no Electron.' }],
        patterns: [
          { group: nodeBuiltins, message: 'shared/ runs everywhere: no Node APIs.' },
          { group: ['**/electron/**', '**/renderer/**', '**/createos-local/**'], message: 'shared/ depends on nothing else in the repo.' },
        ],
      }],
    },
  },
  {
    files: ['renderer/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'The renderer talks to the host only through the transport-agnostic client.' }],
        patterns: [
          { group: nodeBuiltins, message: 'The renderer has no Node APIs.' },
          { group: ['**/electron/**', '**/createos-local/**', '**/e2e/**'], message: 'renderer/ imports only shared/ and its own files.' },
        ],
      }],
    },
  },
  {
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
