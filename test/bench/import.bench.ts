// `npm run bench:import` (and the second part of `npm run bench`, test/bench/bench.ts): a verl rollout dump of 58,368
// Search-R1 rollouts, linked in a spec `from verl(dialect: search_r1)`, imported and audited cold,
// as a ratio to the audit of the same rows written once in pool format v1 (ids resolved, the same
// meta), measured in the same run and each in its own process. The rows are the bench's generated
// best-of-8 pool (samples/generator/scaled.ts), rendered as Search-R1 rollouts by the same renderer
// as samples/search-r1, 256 rollouts per step file. Prints one table; asserts nothing.
// BENCH_IMPORT_ROWS=1000 measures a smaller dump.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateScaled } from '../../samples/generator/scaled.js';
import type { PoolRow } from '../../samples/generator/pool-row.js';
import { shortInstructions, verlDumpRecords } from '../../samples/generator/search-r1-dump.js';
import { childLine, childResults, machineNow, type BenchRun, type ImportChildResult, type ImportResult } from './run-record.js';

const rows = Number(process.env['BENCH_IMPORT_ROWS'] ?? '58368');
const root = path.join(os.tmpdir(), 'herald-bench');
const child = path.join(__dirname, 'import-child.js');
const rolloutsPerFile = 256;

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as T);
}

/** Writes DIR/dump/STEP.jsonl from the generated pool; returns the number of rollouts and bytes. */
function writeDump(poolFile: string, corpusFile: string, dir: string): { rollouts: number; bytes: number; files: number } {
  const corpus = new Map(readJsonl<{ id: string; title: string; text: string }>(corpusFile).map((p) => [p.id, { title: p.title, text: p.text }]));
  // The short prompt keeps the dump and the 100,000-passage corpus under the 160 MiB one analysis may read.
  const records = verlDumpRecords(readJsonl<PoolRow>(poolFile), corpus, rolloutsPerFile / 8, shortInstructions);
  const dumpDir = path.join(dir, 'dump');
  rmSync(dumpDir, { recursive: true, force: true });
  mkdirSync(dumpDir, { recursive: true });
  const bySteps = new Map<number, string[]>();
  for (const record of records) bySteps.set(record.step, [...(bySteps.get(record.step) ?? []), JSON.stringify(record)]);
  let bytes = 0;
  for (const [step, lines] of bySteps) {
    const text = `${lines.join('\n')}\n`;
    bytes += Buffer.byteLength(text);
    writeFileSync(path.join(dumpDir, `${String(step).padStart(4, '0')}.jsonl`), text);
  }
  return { rollouts: records.length, bytes, files: bySteps.size };
}

function run(mode: 'prepare' | 'import' | 'v1' | 'rendered' | 'floor-dump' | 'floor-v1', dir: string): ImportChildResult {
  const result = spawnSync(process.execPath, [child, mode, dir], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (result.status !== 0 || !result.stdout.trim().split('\n').pop()?.startsWith('{')) throw new Error(`${mode} ${dir} failed (${result.status}):\n${result.stderr}`);
  return childLine(childResults.import, result.stdout);
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const seconds = (ms: number): string => (ms / 1000).toFixed(2);

/** Generates the dump, then measures each part in a process of its own; returns the figures. */
export function importBench(): ImportResult {
  const started = performance.now();
  const generated = generateScaled({ outDir: root, seed: '2608', corpusSize: 100_000, sizes: [rows] });
  const dir = path.join(root, `import-${rows}`);
  mkdirSync(dir, { recursive: true });
  const dump = writeDump(generated.pools.get(rows)!, generated.corpus, dir);
  // Import once, resolve the ids against the corpus and write the same rows in format v1.
  const prepared = run('prepare', dir);
  const imported = run('import', dir);
  const v1 = run('v1', dir);
  const rendered = run('rendered', dir);
  const floorDump = run('floor-dump', dir);
  const floorV1 = run('floor-v1', dir);
  return { dir, dump, prepared, imported, v1, rendered, floorDump, floorV1, totalMs: performance.now() - started };
}

/** Every line the import part prints, from its figures. */
export function importLines(result: ImportResult, machine: BenchRun['machine']): string[] {
  const { dir, dump, prepared, imported, v1, rendered, floorDump, floorV1 } = result;
  return [
    `herald import at scale: ${dir}; node ${machine.node}, ${machine.cores} cores, load ${machine.loadAverage.map((l) => l.toFixed(2)).join(', ')}`,
    `dump: ${dump.rollouts.toLocaleString('en-US')} Search-R1 rollouts in ${dump.files} verl step files, ${mb(dump.bytes)}; corpus 100,000 passages`,
    `v1 file of the same rows: ${mb(prepared.v1Bytes ?? 0)}; results resolved ${prepared.resolved?.toLocaleString('en-US')}, unresolved ${prepared.unresolved?.toLocaleString('en-US')}`,
    '',
    'cold audit (load, import or parse, resolve, edits, scoring; nothing cached), same spec but the pool line',
    `  from verl(dialect: search_r1): ${seconds(imported.ms)} s, ${imported.rows.toLocaleString('en-US')} rows, peak ${imported.peakMb.toFixed(0)} MB`,
    `  v1 pool:                       ${seconds(v1.ms)} s, ${v1.rows.toLocaleString('en-US')} rows, peak ${v1.peakMb.toFixed(0)} MB`,
    `  ratio import / v1: ${(imported.ms / v1.ms).toFixed(2)}× (target ≤ 1.5×); reports identical: ${imported.reportHash === v1.reportHash ? 'yes' : 'NO'}`,
    `  with a term that reads the response (each edit written back first): ${seconds(rendered.ms)} s, peak ${rendered.peakMb.toFixed(0)} MB; ${rendered.unrendered ?? 0} edits not written back`,
    `  ratio rendered / import: ${(rendered.ms / imported.ms).toFixed(2)}×`,
    // The dump holds the passages' text, so parsing it alone costs more than parsing the v1 file: the
    // ratio of the two floors is what an import that cost nothing beyond JSON.parse would show.
    `JSON-parse floor (every line parsed, nothing else): dump ${seconds(floorDump.ms)} s, v1 ${seconds(floorV1.ms)} s, ratio ${(floorDump.ms / floorV1.ms).toFixed(2)}×`,
    `  cold audit over its floor: import ${(imported.ms / floorDump.ms).toFixed(1)}×, v1 ${(v1.ms / floorV1.ms).toFixed(1)}×`,
    `total ${seconds(result.totalMs)} s`,
  ];
}

// `npm run bench:import` alone prints its figures and writes no run file.
if (require.main === module) {
  const machine = machineNow();
  for (const line of importLines(importBench(), machine)) console.log(line);
}
