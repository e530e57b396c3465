import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The stages of server/src, lowest first (docs/architecture.md draws them). A stage may import the
// stages below it and never one above; the three analyses are siblings and never import each other,
// and neither do scoring/ and candidates/ (nor threads/, above candidates/, and scoring/).
// Each entry: the folder and the folders it must not import.
const above = (...folders) => folders;
const walls = {
  problems: above('importers', 'stats', 'report', 'syntax', 'pool', 'inputs', 'language', 'semantics', 'format', 'reward', 'edits', 'scoring', 'candidates', 'threads', 'audit', 'signal', 'compare', 'findings', 'render', 'ide', 'lsp', 'cli'),
  stats: above('importers', 'problems', 'report', 'syntax', 'pool', 'inputs', 'language', 'semantics', 'format', 'reward', 'edits', 'scoring', 'candidates', 'threads', 'audit', 'signal', 'compare', 'findings', 'render', 'ide', 'lsp', 'cli'),
  report: above('syntax', 'pool', 'importers', 'inputs', 'language', 'semantics', 'format', 'reward', 'edits', 'scoring', 'candidates', 'threads', 'audit', 'signal', 'compare', 'findings', 'render', 'ide', 'lsp', 'cli'),
  language: above('syntax', 'importers', 'inputs', 'semantics', 'format', 'reward', 'edits', 'scoring', 'candidates', 'threads', 'audit', 'signal', 'compare', 'findings', 'render', 'ide', 'lsp', 'cli'),
  syntax: above('pool', 'importers', 'inputs', 'semantics', 'format', 'reward', 'edits', 'scoring', 'candidates', 'threads', 'audit', 'signal', 'compare', 'findings', 'render', 'ide', 'lsp', 'cli'),
  pool: above('syntax', 'language', 'importers', 'inputs', 'semantics', 'format', 'reward', 'edits', 'scoring', 'candidates', 'threads', 'audit', 'signal', 'compare', 'findings', 'render', 'ide', 'lsp', 'cli'),
  importers: above('syntax', 'language', 'inputs', 'semantics', 'format', 'reward', 'edits', 'scoring', 'candidates', 'threads', 'audit', 'signal', 'compare', 'findings', 'render', 'ide', 'lsp', 'cli'),
  inputs: above('semantics', 'format', 'reward', 'edits', 'scoring', 'candidates', 'threads', 'audit', 'signal', 'compare', 'findings', 'render', 'ide', 'lsp', 'cli'),
  semantics: above('format', 'reward', 'edits', 'scoring', 'candidates', 'threads', 'audit', 'signal', 'compare', 'findings', 'render', 'ide', 'lsp', 'cli'),
  format: above('importers', 'inputs', 'reward', 'edits', 'scoring', 'candidates', 'threads', 'audit', 'signal', 'compare', 'findings', 'render', 'ide', 'lsp', 'cli'),
  reward: above('format', 'edits', 'scoring', 'candidates', 'threads', 'audit', 'signal', 'compare', 'findings', 'render', 'ide', 'lsp', 'cli'),
  edits: above('format', 'scoring', 'candidates', 'threads', 'audit', 'signal', 'compare', 'findings', 'render', 'ide', 'lsp', 'cli'),
  scoring: above('format', 'candidates', 'threads', 'audit', 'signal', 'compare', 'findings', 'render', 'ide', 'lsp', 'cli'),
  candidates: above('format', 'scoring', 'threads', 'audit', 'signal', 'compare', 'findings', 'render', 'ide', 'lsp', 'cli'),
  threads: above('format', 'scoring', 'audit', 'signal', 'compare', 'findings', 'render', 'ide', 'lsp', 'cli'),
  audit: above('format', 'signal', 'compare', 'findings', 'render', 'ide', 'lsp', 'cli'),
  signal: above('format', 'audit', 'compare', 'findings', 'render', 'ide', 'lsp', 'cli'),
  compare: above('format', 'audit', 'signal', 'findings', 'render', 'ide', 'lsp', 'cli'),
  findings: above('format', 'render', 'ide', 'lsp', 'cli'),
  render: above('format', 'ide', 'lsp', 'cli'),
  host: above('format', 'ide', 'lsp', 'cli'),
  ide: above('lsp', 'cli'),
  cli: above('lsp'),
  lsp: above('cli'),
};

/** A relative import that reaches a stage folder of server/src (`../lsp/x.js`, `../../lsp/x.js`). */
const stageImport = (folder) => `^(\\.\\./)+${folder}/`;

// Only these read or write files: inputs/ (everything a spec reads, and the caches), the CLI (the
// spec it is given, the --out file), and the report page's script loader (the product's own bundle).
const fileSystem = ['fs', 'node:fs', 'fs/promises', 'node:fs/promises'];
const opensFiles = new Set(['inputs', 'cli']);
const reportViewScript = 'server/src/render/report-page/report-view-script.ts';
// Only inputs/ starts a process (a `candidates command` generator: inputs/command-runner.ts, with the
// trust rule, the timeout and the kill); every other stage gets the command's answers from it.
const processes = ['child_process', 'node:child_process'];

const wallRule = (folder, forbidden, mayOpenFiles) => ({
  'no-restricted-imports': ['error', {
    paths: [
      ...(mayOpenFiles ? [] : fileSystem.map((name) => ({ name, message: 'Only inputs/ (and the CLI) open files: ask inputs/ for what a spec reads.' }))),
      ...(folder === 'inputs' ? [] : processes.map((name) => ({ name, message: 'Only inputs/ starts a process (inputs/command-runner.ts).' }))),
      ...(folder === 'lsp' ? [] : ['vscode-languageserver', 'vscode-languageserver/node', 'vscode-languageserver-textdocument'].map((name) => ({ name, message: 'Only lsp/ talks LSP.' }))),
      { name: 'vscode', message: 'Only client/ imports vscode.' },
    ],
    patterns: forbidden.map((f) => ({ regex: stageImport(f), message: `${folder}/ must not import ${f}/: see the stage drawing in docs/architecture.md.` })),
  }],
});

const stageRules = [
  ...Object.entries(walls).map(([folder, forbidden]) => ({ files: [`server/src/${folder}/**/*.ts`], rules: wallRule(folder, forbidden, opensFiles.has(folder)) })),
  { files: [reportViewScript], rules: wallRule('render', walls.render, true) },
];

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
  ...stageRules,
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
