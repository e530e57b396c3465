/**
 * Command line of the sample generator:
 *   node out/samples/generator/main.js --out samples/pools [--scale N] [--corpus-size N] [--seed S]
 * Prints each file with its size and, for pools, accuracy and violation rates.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs, USAGE } from './cli-args.js';
import { type FileReport, generate } from './generate.js';

function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`.padStart(6);
}

function describe(report: FileReport): string {
  const size = `${(report.bytes / 1e6).toFixed(2)} MB`.padStart(9);
  const head = `${report.file.padEnd(24)} ${String(report.lines).padStart(7)} lines ${size}`;
  const s = report.stats;
  if (s === null) return head;
  return (
    `${head}  EM ${percent(s.exactMatch)}  searches ${s.meanSearches.toFixed(2)}  U ${percent(s.noSearch)}  ` +
    `L ${percent(s.unretrievedCitation)}  F ${percent(s.fakeCitation)}  no-final ${percent(s.noFinal)}  ` +
    `invalid ${percent(s.invalidAction)}  repeat ${percent(s.repeatedQuery)}  no-cite ${percent(s.noCitation)}  ` +
    `support-miss ${percent(s.supportMiss)}`
  );
}

const parsed = parseArgs(process.argv.slice(2));
if (parsed.kind === 'help') {
  console.log(USAGE);
} else if (parsed.kind === 'error') {
  console.error(`${parsed.message}\n${USAGE}`);
  process.exitCode = 2;
} else {
  const started = performance.now();
  const reports = generate(parsed.options);
  for (const report of reports) console.log(describe(report));
  const total = reports.reduce((sum, r) => sum + r.bytes, 0);
  const seconds = (performance.now() - started) / 1000;
  console.log(`${(total / 1e6).toFixed(2)} MB in ${parsed.options.outDir} (seed ${parsed.options.seed}) in ${seconds.toFixed(1)} s`);
}
