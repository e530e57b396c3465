// Writes server/src/syntax/cst-types.d.ts from the grammar. It bundles the grammar with esbuild rather than
// reading out/, because after a grammar change the old types may keep the type-check from passing.
import * as esbuild from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const folder = mkdtempSync(join(tmpdir(), 'herald-cst-'));
try {
  const bundle = join(folder, 'cst-types-text.cjs');
  await esbuild.build({ entryPoints: ['server/src/syntax/cst-types-text.ts'], outfile: bundle, bundle: true, platform: 'node', format: 'cjs', logLevel: 'warning' });
  const { renderCstTypes } = createRequire(import.meta.url)(bundle);
  const target = new URL('../server/src/syntax/cst-types.d.ts', import.meta.url);
  writeFileSync(target, renderCstTypes());
  console.log(`wrote ${target.pathname}`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
