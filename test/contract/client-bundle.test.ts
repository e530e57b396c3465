import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const repoRoot = path.resolve(__dirname, '../../..');

/** What scripts/client-bundle.mjs exports that this test reads (the build's own check). */
interface ClientBundle {
  engineInputs(metafile: esbuild.Metafile, root: string): string[];
}

/** The inputs of a bundle of `entry`, built as scripts/build.mjs builds the client's, in memory. */
async function bundleInputs(options: esbuild.BuildOptions): Promise<esbuild.Metafile> {
  const result = await esbuild.build({
    ...options, absWorkingDir: repoRoot, bundle: true, write: false, metafile: true, logLevel: 'silent',
    external: ['vscode'], alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  });
  return result.metafile;
}

describe('the client bundles carry no engine code', () => {
  it('hold, of server/src, only the contract', async () => {
    const check: ClientBundle = await import(pathToFileURL(path.join(repoRoot, 'scripts/client-bundle.mjs')).href);
    const client = await bundleInputs({ entryPoints: ['client/src/extension.ts'], platform: 'node', format: 'cjs', outfile: 'client.js' });
    assert.ok(Object.keys(client.inputs).includes('server/src/contract/protocol.ts'));
    assert.deepEqual(check.engineInputs(client, repoRoot), []);
    const view = await bundleInputs({ entryPoints: ['client/webview/report-view.ts'], platform: 'browser', format: 'iife', outfile: 'view.js' });
    assert.deepEqual(check.engineInputs(view, repoRoot), []);
  });

  it('fail the build check when the client reaches engine code', async () => {
    const check: ClientBundle = await import(pathToFileURL(path.join(repoRoot, 'scripts/client-bundle.mjs')).href);
    const probe = await bundleInputs({
      stdin: { contents: "import { builtinFieldsByName } from '../../server/src/language/builtins';\nconsole.log(builtinFieldsByName.size);\n", resolveDir: path.join(repoRoot, 'client/src'), loader: 'ts' },
      platform: 'node', format: 'cjs', outfile: 'probe.js',
    });
    assert.ok(check.engineInputs(probe, repoRoot).includes('server/src/language/builtins.ts'));
  });
});
