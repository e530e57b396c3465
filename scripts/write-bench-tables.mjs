// Writes the tables of docs/performance.md from the latest run file of `npm run bench`
// (test/bench/results/runs/), between the page's generated-section markers (run `npm run
// typecheck` first: the renderer is test/bench/bench-tables.ts, compiled).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const { latestRunFile, readRun, runsDir } = require('../out/test/bench/run-record.js');
const { performanceDoc, renderBenchTables, withBenchTables } = require('../out/test/bench/bench-tables.js');

const latest = latestRunFile();
if (latest === undefined) throw new Error(`no run file in ${runsDir}: run npm run bench`);
const doc = readFileSync(performanceDoc, 'utf8');
writeFileSync(performanceDoc, withBenchTables(doc, renderBenchTables(latest, readRun(join(runsDir, latest)))));
console.log(`wrote the tables of ${performanceDoc} from ${join(runsDir, latest)}`);
