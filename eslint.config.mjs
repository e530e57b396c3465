import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { wallConfigs } from './scripts/eslint-walls.mjs';

// The stage walls are generated from the one table of stages (scripts/stages.mjs) by
// scripts/eslint-walls.mjs: an import that reaches a stage the table does not allow, a file of
// server/src in a folder the table lacks, client/ reaching past the contract, and the outside modules
// only some stages may use (fs, child_process, vscode-languageserver, vscode) are errors.
export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '**/node_modules/**', 'test/real-clients/.code-server/**', 'samples/pools/**', 'test-output/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'off',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Type-aware: a promise nobody awaits or handles loses its errors and its ordering.
    files: ['server/src/**/*.ts', 'client/src/**/*.ts', 'client/webview/**/*.ts', 'test/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', {
        // node:test's describe/it/before/after return promises the runner itself awaits.
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'before', 'after', 'beforeEach', 'afterEach', 'suite'] }],
      }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  ...wallConfigs(import.meta.dirname),
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
