// `npm run bench`: the scale part (test/bench/scale.bench.ts) and then the import part
// (test/bench/import.bench.ts), each printing what it always printed; then the run's file in
// test/bench/results/runs/ (test/bench/run-record.ts), from which `npm run docs` generates the
// tables of docs/performance.md. The file's path goes to stderr, so stdout is the figures alone.
import { importBench, importLines } from './import.bench.js';
import { commitNow, knobsNow, machineNow, writeRun, type BenchRun } from './run-record.js';
import { failUnlessIdentical, scaleBench, scaleLines } from './scale.bench.js';

function main(): void {
  const started = new Date().toISOString();
  const commit = commitNow();
  const machine = machineNow();
  const knobs = knobsNow();
  const scale = scaleBench();
  const printed = scaleLines(scale, machine);
  for (const line of printed) console.log(line);
  const imported = importBench();
  const importPrinted = importLines(imported, machine);
  for (const line of importPrinted) console.log(line);
  const run: BenchRun = { format: 1, started, commit, machine, knobs, scale, import: imported, printed: [...printed, ...importPrinted] };
  process.stderr.write(`bench: wrote ${writeRun(run)}; npm run docs regenerates docs/performance.md's tables from it\n`);
  failUnlessIdentical(scale.reaudit, scale.shards);
}

main();
