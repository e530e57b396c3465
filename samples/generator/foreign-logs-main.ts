/**
 * Writes the samples that stand for other frameworks' logs, rendered from the synthetic pools:
 *   node out/samples/generator/foreign-logs-main.js [--pools samples/pools] [--out samples]
 * - search-r1/rollout/STEP.jsonl: a verl rollout dump of Search-R1 rollouts (search-r1-dump.ts);
 * - deep-research/: BrowseComp-Plus run files (runs/QUERY.json), the queries with gold answers and
 *   gold docs (queries.jsonl), the grader's verdicts (judge.jsonl) and the corpus under its docids
 *   (browsecomp-run.ts).
 * Deterministic: the same pools give byte-identical files.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { docidOf, runFileOf } from './browsecomp-run.js';
import type { PoolRow } from './pool-row.js';
import { verlDumpRecords } from './search-r1-dump.js';
import { corpusOf, option, readJsonl } from './log-inputs.js';

const poolsDir = option('--pools', 'samples/pools');
const outDir = option('--out', 'samples');
const corpus = corpusOf(poolsDir);

// 50 questions × 8 rollouts of the HotpotQA-style pool, 4 questions per training step.
const hotpot = readJsonl<PoolRow>(path.join(poolsDir, 'hotpot.jsonl')).slice(0, 400);
const records = verlDumpRecords(hotpot, corpus, 4);
const rolloutDir = path.join(outDir, 'search-r1', 'rollout');
fs.rmSync(rolloutDir, { recursive: true, force: true });
fs.mkdirSync(rolloutDir, { recursive: true });
const bySteps = new Map<number, string[]>();
for (const record of records) bySteps.set(record.step, [...(bySteps.get(record.step) ?? []), JSON.stringify(record)]);
for (const [step, lines] of bySteps) fs.writeFileSync(path.join(rolloutDir, `${step}.jsonl`), `${lines.join('\n')}\n`);
const mean = records.reduce((sum, r) => sum + r.score, 0) / records.length;
console.log(`${rolloutDir}: ${records.length} rollouts in ${bySteps.size} step files, mean score ${mean.toFixed(4)}`);

// 200 questions of one model's pool, one run each, as a deep-research agent's BrowseComp-Plus runs.
const deepDir = path.join(outDir, 'deep-research');
// Only what this writes is replaced: the folder also holds the hand-written specs that read it.
fs.rmSync(path.join(deepDir, 'runs'), { recursive: true, force: true });
fs.mkdirSync(path.join(deepDir, 'runs'), { recursive: true });
const modelRows = readJsonl<PoolRow>(path.join(poolsDir, 'model-qwen3-8b.jsonl')).slice(0, 200);
const judges: string[] = [];
const queries: string[] = [];
for (const row of modelRows) {
  const { run, judge } = runFileOf(row, corpus);
  fs.writeFileSync(path.join(deepDir, 'runs', `${run.query_id}.json`), `${JSON.stringify(run, null, 2)}\n`);
  judges.push(JSON.stringify(judge));
  const gold = row.gold.support_ids.map((id) => ({ docid: docidOf(id) }));
  queries.push(JSON.stringify({ query_id: row.question_id, query: row.question, answer: row.gold.answers[0] ?? '', gold_docs: gold, evidence_docs: gold }));
}
fs.writeFileSync(path.join(deepDir, 'judge.jsonl'), `${judges.join('\n')}\n`);
fs.writeFileSync(path.join(deepDir, 'queries.jsonl'), `${queries.join('\n')}\n`);
const docCorpus = [...corpus].map(([id, p]) => JSON.stringify({ id: docidOf(id), title: p.title, text: p.text }));
fs.writeFileSync(path.join(deepDir, 'corpus.jsonl'), `${docCorpus.join('\n')}\n`);
console.log(`${deepDir}: ${modelRows.length} run files, ${docCorpus.length} passages`);
