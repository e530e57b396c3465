// One measurement of `npm run bench:import`, in its own process so its peak memory is its own.
// Prints one JSON line on stdout (its shape: ImportChildResult in test/bench/run-record.ts).
//   prepare DIR: imports DIR/dump/*.jsonl once, resolves the ids against the corpus and writes the
//                same rows in pool format v1 to DIR/v1.jsonl (what the v1 audit reads);
//   import DIR:  the cold audit of a spec whose pool is the dump `from verl(dialect: search_r1)`;
//   v1 DIR:      the cold audit of the same spec whose pool is DIR/v1.jsonl;
//   rendered DIR: the import's cold audit with one more term in R0, which reads the response: every
//                edit is written back as a Search-R1 response before that term is evaluated on it;
//   floor-dump DIR, floor-v1 DIR: the JSON-parse floor of each (every line parsed, nothing else).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { auditSpec, newAuditCaches } from '../../server/src/audit/audit-spec.js';
import { importerFor } from '../../server/src/importers/registry.js';
import { loadCorpus } from '../../server/src/inputs/loaders.js';
import { resolvePool } from '../../server/src/pool/resolve-ids.js';
import { parsePoolRow } from '../../server/src/pool/schemas.js';
import type { Trajectory } from '../../server/src/pool/types.js';
import type { ImportChildResult } from './run-record.js';
import { benchSpec } from './scale-spec.js';

const peakMb = (): number => process.resourceUsage().maxRSS / 1024;

/**
 * A loaded row in pool format v1: engine steps with ids, the final, gold and meta as loaded, but for
 * the prompt, the raw response and its observation blocks, which the bench spec never reads.
 */
function v1Row(t: Trajectory): object {
  const meta = Object.fromEntries(Object.entries(t.meta).filter(([key]) => key !== 'transcript' && key !== 'observations' && key !== 'prompt'));
  return { id: t.id, question_id: t.question_id, question: t.question, steps: t.steps, final: t.final, gold: t.gold, meta };
}

async function prepare(dir: string): Promise<ImportChildResult> {
  const start = performance.now();
  const dumpDir = path.join(dir, 'dump');
  const files = readdirSync(dumpDir).sort().map((name) => ({ path: `dump/${name}`, bytes: readFileSync(path.join(dumpDir, name)) }));
  const verl = importerFor('verl');
  if (verl === undefined) throw new Error('no verl importer registered');
  const outcome = await verl.run(files, { dialect: 'search_r1' });
  if (!outcome.ok) throw new Error(outcome.reason);
  const parsed: Trajectory[] = [];
  for (const { row, at } of outcome.result.rows) {
    const checked = parsePoolRow(row, { pool: 'bench', file: at.file, line: at.line });
    if (checked.ok) parsed.push(checked.value);
  }
  const corpus = await loadCorpus(path.join(dir, '..', 'corpus.jsonl'));
  const resolved = resolvePool(parsed, corpus.corpus);
  const text = `${resolved.rows.map((t) => JSON.stringify(v1Row(t))).join('\n')}\n`;
  writeFileSync(path.join(dir, 'v1.jsonl'), text);
  const counts = resolved.resolution?.counts.results;
  const resolvedCount = counts === undefined ? 0 : counts.logged + counts.url + counts.text + counts.title;
  return { ms: performance.now() - start, rows: resolved.rows.length, peakMb: peakMb(), v1Bytes: Buffer.byteLength(text), resolved: resolvedCount, unresolved: counts?.unresolved ?? 0 };
}

/** The term `rendered` adds to R0: it reads the logged response, so each edit is written back first. */
const responseTerm = (spec: string): string => spec
  .replace(/^(reward R0 [^\n]*\{\n)/mu, 'field response "the response as verl logged it" : text = meta.transcript\nsignal informed "the response holds an <information> block" = contains(response, "<information>")\n\n$1  informed    0.1   * informed\n');

async function coldAudit(dir: string, poolLine: string, readsResponse = false): Promise<ImportChildResult> {
  const specFile = path.join(dir, 'bench.reward');
  const base = benchSpec('../corpus.jsonl', 'v1.jsonl', undefined, false).replace(/^pool bench = .*$/mu, poolLine);
  const spec = readsResponse ? responseTerm(base) : base;
  if (readsResponse && spec === base) throw new Error('the bench spec has no R0 to add the response term to');
  writeFileSync(specFile, spec);
  const start = performance.now();
  const outcome = await auditSpec(spec, specFile, { cache: newAuditCaches(), only: 'main' });
  const ms = performance.now() - start;
  const audit = outcome.report?.audits[0];
  if (audit === undefined) throw new Error(`the audit did not run: ${JSON.stringify(outcome.problems.slice(0, 3))} ${JSON.stringify(outcome.dataIssues.slice(0, 3))}`);
  return {
    ms,
    rows: audit.pools.reduce((sum, p) => sum + p.rows, 0),
    peakMb: peakMb(),
    reportHash: createHash('sha256').update(JSON.stringify(audit.attacks)).digest('hex'),
    unrendered: audit.attacks.reduce((sum, a) => sum + (a.unrendered?.edits ?? 0), 0),
  };
}

/** The parse floor: every line of the given files read and JSON.parse'd, nothing else. */
function parseFloor(files: readonly string[]): ImportChildResult {
  const start = performance.now();
  let rows = 0;
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line === '') continue;
      JSON.parse(line);
      rows++;
    }
  }
  return { ms: performance.now() - start, rows, peakMb: peakMb() };
}

const [mode, dir] = process.argv.slice(2);
const runs: Record<string, (d: string) => Promise<ImportChildResult>> = {
  prepare,
  import: (d) => coldAudit(d, 'pool bench = "dump/*.jsonl" from verl(dialect: search_r1)'),
  v1: (d) => coldAudit(d, 'pool bench = "v1.jsonl"'),
  rendered: (d) => coldAudit(d, 'pool bench = "dump/*.jsonl" from verl(dialect: search_r1)', true),
  'floor-dump': (d) => Promise.resolve(parseFloor(readdirSync(path.join(d, 'dump')).sort().map((name) => path.join(d, 'dump', name)))),
  'floor-v1': (d) => Promise.resolve(parseFloor([path.join(d, 'v1.jsonl')])),
};
const chosen = mode === undefined ? undefined : runs[mode];
if (chosen === undefined || dir === undefined) {
  console.error('usage: import-child.js prepare|import|v1|rendered|floor-dump|floor-v1 DIR');
  process.exitCode = 2;
} else {
  chosen(dir).then(
    (result) => console.log(JSON.stringify(result)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
