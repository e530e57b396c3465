// Runs every compiled unit, language-server and property test with node's test runner.
// Node 20's runner takes files, not globs, so collect them here.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

// tsc never deletes output, so a test whose source was renamed or removed would still run from an
// old out/: only compiled tests whose .ts source exists count.
const hasSource = (compiled) => existsSync(relative('out', compiled).replace(/\.js$/, '.ts'));

function collect(dir) {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return collect(path);
    return entry.endsWith('.test.js') && hasSource(path) ? [path] : [];
  });
}

const only = process.argv.slice(2);
const files = collect('out/test').filter((f) => only.length === 0 || only.some((o) => f.includes(o))).sort();
if (files.length === 0) {
  console.error('no compiled tests under out/test: run the type-check (tsc) first');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', '--test-timeout=300000', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
