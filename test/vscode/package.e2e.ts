// What `npm run package` puts in the .vsix: the bundles the extension runs, its static contributions,
// and the pages its diagnostics and hovers link to. Nothing else (no sources, tests, samples, CLI).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, vsixPath } from './code-server';

describe('the packaged extension', () => {
  it('lists exactly the files the extension needs', () => {
    const vsce = path.join(repoRoot, 'node_modules/.bin/vsce');
    const files = execFileSync(vsce, ['ls', '--no-dependencies'], { cwd: repoRoot, encoding: 'utf8' }).split('\n').filter((l) => l !== '').sort();
    assert.deepEqual(files, [
      'LICENSE', 'README.md', 'dist/analysis-worker.js', 'dist/client.js', 'dist/report-view.js', 'dist/server.js',
      'docs/diagnostics.md', 'docs/language.md', 'images/icon.png', 'language-configuration.json', 'package.json', 'syntaxes/reward.tmLanguage.json',
    ]);
  });

  it('is small', (t) => {
    const kib = fs.statSync(vsixPath).size / 1024;
    t.diagnostic(`${path.relative(repoRoot, vsixPath)}: ${kib.toFixed(0)} KiB`);
    assert.ok(kib < 1024, `${kib.toFixed(0)} KiB`);
  });
});
