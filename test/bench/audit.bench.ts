// Audit speed on the bundled sample pools, as ratios to the floor measured in the same run: the time
// to read the same pool and corpus files and JSON.parse every line. Prints figures; asserts nothing.
// Run: npm run bench:audit
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { auditSpec } from '../../server/src/audit/audit-spec.js';
import { createCandidateSource } from '../../server/src/candidates/candidate-source.js';
import { auditEditPlan, planAudit } from '../../server/src/audit/plan.js';
import { scoreAudit } from '../../server/src/audit/run-audit.js';
import { prepareEdits } from '../../server/src/edits/prepare.js';
import { loadCorpus, loadPool } from '../../server/src/inputs/loaders.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { LineIndex } from '../../server/src/problems/line-index.js';
import { median, parseFloor } from './floor.js';

const specFile = path.resolve(process.argv[2] ?? 'samples/paper.reward');
const auditName = process.argv[3] ?? 'paper';
const runs = Number(process.env['BENCH_RUNS'] ?? 5);


async function timed(fn: () => Promise<unknown> | unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function main(): Promise<void> {
  const text = readFileSync(specFile, 'utf8');
  const specDir = path.dirname(specFile);
  const { model } = analyze(text, { specFile });
  const decl = model.spec.decls.find((d) => d.kind === 'audit' && d.name?.text === auditName);
  if (decl?.kind !== 'audit') throw new Error(`no audit ${auditName} in ${specFile}`);
  const plan = planAudit(decl, text)!;
  const fileOf = (name: string): string => {
    const d = model.globals.get(name)?.decl;
    return path.resolve(specDir, d?.kind === 'pool' || d?.kind === 'corpus' ? (d.path?.value ?? '') : '');
  };
  const files = [fileOf(plan.corpus), ...plan.pools.map(fileOf)];

  const floorRuns = Array.from({ length: runs }, () => parseFloor(files));
  const floor = floorRuns.map((r) => r.ms);
  const lines = floorRuns[0]!.lines;

  const cold: number[] = [];
  for (let i = 0; i < runs; i++) cold.push(await timed(() => auditSpec(text, specFile, { only: auditName, candidateCache: false })));
  // Reopening a workspace: candidate rankings from the on-disk cache (filled by the first run).
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'herald-bench-cache-'));
  const coldCached: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const ms = await timed(() => auditSpec(text, specFile, { only: auditName, candidateCache: cacheDir }));
    if (i > 0) coldCached.push(ms);
  }
  rmSync(cacheDir, { recursive: true, force: true });

  // A weight edit: the audit keeps its prepared features and edits and only re-scores.
  const corpus = await loadCorpus(fileOf(plan.corpus));
  const pools = await Promise.all(plan.pools.map(async (name) => ({ name, file: fileOf(name), loaded: await loadPool(fileOf(name), name) })));
  const inputs = { corpusName: plan.corpus, corpus: corpus.corpus, corpusIssues: corpus.issues, pools: pools.map((p) => ({ name: p.name, file: p.file, rows: p.loaded.items, issues: p.loaded.issues })) };
  let prepared: ReturnType<typeof prepareEdits>;
  const prepare = await timed(() => (prepared = prepareEdits(model, auditEditPlan(plan), inputs, createCandidateSource(corpus.corpus, new Map()))));
  // Each run edits to a new value, so no run finds the previous one's margins or intervals.
  const rescore = (edited: string) => () => {
    const again = analyze(edited, { specFile });
    const auditDecl = again.model.spec.decls.find((d) => d.kind === 'audit' && d.name?.text === auditName);
    if (auditDecl?.kind !== 'audit') throw new Error('audit vanished');
    scoreAudit(again.model, planAudit(auditDecl, edited)!, prepared!, new LineIndex(edited));
  };
  const warm: number[] = [];
  const warmBase: number[] = [];
  for (let i = 0; i < runs; i++) {
    warm.push(await timed(rescore(text.replace(/R0 - 1\.2 \* L/, `R0 - ${(1.3 + i / 100).toFixed(2)} * L`))));
    warmBase.push(await timed(rescore(text.replace(/grounding {3}0\.6 /, `grounding   ${(0.61 + i / 100).toFixed(2)}`))));
  }

  const f = median(floor);
  const rows: [string, number][] = [
    ['floor: read + JSON.parse pool and corpus', f],
    ['cold audit (load, index, candidates, edits, scoring)', median(cold)],
    ['cold audit, candidate rankings from the disk cache', median(coldCached)],
    ['  of which prepare (edits and feature values, data in memory)', prepare],
    ['re-audit after editing R_L\'s λ (check + re-score)', median(warm)],
    ['re-audit after editing an R0 weight (every margin changes)', median(warmBase)],
  ];
  console.log(`audit benchmark: ${path.relative(process.cwd(), specFile)}, audit ${auditName}: ${plan.pools.length} pools, ${lines} JSON lines, median of ${runs} runs`);
  console.log('');
  console.log(`${'measure'.padEnd(64)} ${'ms'.padStart(10)} ${'× floor'.padStart(9)}`);
  for (const [name, ms] of rows) console.log(`${name.padEnd(64)} ${ms.toFixed(1).padStart(10)} ${(ms / f).toFixed(2).padStart(9)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
