// Bundles the extension client, the language server and the command line with esbuild.
// Everything the extension needs at run time ends up in dist/, so the .vsix ships no node_modules.
import * as esbuild from 'esbuild';
import { chmod, copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { checkClientBundle } from './client-bundle.mjs';

const production = process.argv.includes('--production');

const shared = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  // jsonc-parser's main is a UMD build whose inner requires esbuild cannot follow: bundle its ES module build.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
};

// The report page's script: loaded from dist/ by the editor's webview, and inlined into the CLI's
// standalone HTML page, so it is built first and its text handed to the CLI bundle as a constant
// (server/src/render/report-page/report-view-script.ts). Always minified, no source map, and no
// legal comments: they hold URLs, and the page must hold none; the banner keeps the notices.
const reportViewBuild = await esbuild.build({
  entryPoints: ['client/webview/report-view.ts'], outfile: 'dist/report-view.js', bundle: true, platform: 'browser', format: 'iife',
  target: 'es2022', minify: true, legalComments: 'none', logLevel: 'warning', metafile: true,
  banner: { js: '/*! HERALD report view. Bundles Chart.js (c) Chart.js Contributors and @kurkle/color (c) Jukka Kurkela, both released under the MIT License. */' },
});
const reportView = await readFile('dist/report-view.js', 'utf8');

// The language server, its analysis worker thread and the command line share one bundle,
// dist/engine.js (entry server/src/entry-points.ts), so the engine and every dependency ship once:
// three separate bundles each held nearly all of it. The files editors, the server and the tasks
// start keep their names and only call into it (the server starts dist/analysis-worker.js, which
// starts dist/prepare-worker.js threads for a large audit).
const starter = (shebang, part) => `${shebang ? '#!/usr/bin/env node\n' : ''}'use strict';\nrequire('./engine.js').${part}();\n`;

const [clientBuild] = await Promise.all([
  esbuild.build({ ...shared, entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.js', external: ['vscode'], metafile: true }),
  esbuild.build({
    ...shared, entryPoints: ['server/src/entry-points.ts'], outfile: 'dist/engine.js',
    define: { __HERALD_REPORT_VIEW__: JSON.stringify(reportView) },
  }),
  // The guard of a command run (server/src/inputs/command-guard.ts): a process of its own per run,
  // so it is its own small bundle, which starts in a fraction of the engine's time.
  esbuild.build({ ...shared, entryPoints: ['server/src/inputs/command-guard.ts'], outfile: 'dist/command-guard.js' }),
  writeFile('dist/server.js', starter(true, 'startServer')),
  writeFile('dist/analysis-worker.js', starter(false, 'startAnalysisWorker')),
  writeFile('dist/prepare-worker.js', starter(false, 'startPrepareWorker')),
  writeFile('dist/herald.js', starter(true, 'startCli')),
]);
// The client's two bundles carry no engine code: of server/src, only the contract's files.
checkClientBundle('dist/report-view.js', reportViewBuild.metafile, process.cwd());
checkClientBundle('dist/client.js', clientBuild.metafile, process.cwd());
await chmod('dist/server.js', 0o755);
await chmod('dist/herald.js', 0o755);

// The Python adapters a reward command runs (`python3 -m herald_adapters.verl …`): herald puts
// dist/adapters on the command's PYTHONPATH, so they sit next to herald.js. Only the sources: no
// __pycache__ from a local test run, and a file deleted from the package leaves dist/ with it.
const adapters = 'dist/adapters/herald_adapters';
await rm(adapters, { recursive: true, force: true });
await mkdir(adapters, { recursive: true });
for (const name of (await readdir('adapters/python/herald_adapters')).filter((n) => n.endsWith('.py'))) {
  await copyFile(`adapters/python/herald_adapters/${name}`, `${adapters}/${name}`);
}
