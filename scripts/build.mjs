// Bundles the extension client, the language server and the command line with esbuild.
// Everything the extension needs at run time ends up in dist/, so the .vsix ships no node_modules.
import * as esbuild from 'esbuild';
import { chmod } from 'node:fs/promises';

const production = process.argv.includes('--production');

const shared = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

await Promise.all([
  esbuild.build({ ...shared, entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.js', external: ['vscode'] }),
  esbuild.build({ ...shared, entryPoints: ['server/src/lsp/main.ts'], outfile: 'dist/server.js', banner: { js: '#!/usr/bin/env node' } }),
  esbuild.build({ ...shared, entryPoints: ['server/src/cli/main.ts'], outfile: 'dist/herald.js', banner: { js: '#!/usr/bin/env node' } }),
]);
await chmod('dist/server.js', 0o755);
await chmod('dist/herald.js', 0o755);
