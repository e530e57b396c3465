// samples/real-rewards: each spec that has a sample log computes, on every rollout, the score the
// framework's reward logged (computed by the sample generator from SOURCES.md, independently of the
// product and of the spec), and every spec checks with no error.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditSpec, newAuditCaches } from '../../server/src/audit/audit-spec.js';
import { importerFor } from '../../server/src/importers/registry.js';
import { loadCorpus } from '../../server/src/inputs/loaders.js';
import { corpusEnv } from '../../server/src/language/eval-env.js';
import { viewOf } from '../../server/src/language/view.js';
import { resolvePool } from '../../server/src/pool/resolve-ids.js';
import { parsePoolRow } from '../../server/src/pool/schemas.js';
import type { Trajectory } from '../../server/src/pool/types.js';
import { RewardCompiler } from '../../server/src/reward/compile.js';
import { analyze } from '../../server/src/semantics/analyze.js';

const dir = path.resolve(__dirname, '../../../samples/real-rewards');
const specs = fs.readdirSync(dir).filter((name) => name.endsWith('.reward')).sort();

// The specs with a sample log: the log's folder, the importer and dialect it is read with, the reward.
const logged: readonly { spec: string; from?: string; dialect?: string; reward: string; options?: Readonly<Record<string, string>>; score?: readonly string[] | readonly (readonly string[])[] }[] = [
  { spec: 'search_r1_qa_em', dialect: 'search_r1', reward: 'search_r1_qa_em' },
  { spec: 'search_r1_qa_em_format', dialect: 'search_r1', reward: 'search_r1_qa_em_format' },
  { spec: 'zerosearch', dialect: 'zerosearch', reward: 'zerosearch' },
  { spec: 'autorefine', dialect: 'autorefine', reward: 'autorefine' },
  { spec: 'research', dialect: 'research', reward: 'research' },
  { spec: 'r1_searcher_stage1', dialect: 'r1_searcher', reward: 'r1_searcher_stage1' },
  { spec: 'r1_searcher_stage2', dialect: 'r1_searcher', reward: 'r1_searcher_stage2' },
  { spec: 'deepresearcher', dialect: 'hermes', reward: 'deepresearcher' },
  { spec: 'skyrl_search', from: 'skyrl', dialect: 'search_r1', reward: 'skyrl_search' },
  { spec: 'verl_search_r1_like_qa_em', dialect: 'hermes', reward: 'verl_search_r1_like' },
  { spec: 'webthinker', dialect: 'webthinker', reward: 'webthinker' },
  { spec: 'r_search', dialect: 'search_r1', reward: 'r_search' },
  // Multi-turn logs (samples/generator/real-rewards-logs-c.ts): the specs read the turns.
  { spec: 'asearcher', dialect: 'asearcher', reward: 'asearcher' },
  { spec: 'mmsearch_r1', dialect: 'mmsearch_r1', options: { question_marker: '<|vision_end|>' }, reward: 'mmsearch_r1' },
  // Chat-format logs (samples/generator/real-rewards-logs-b.ts): the logged score's path in meta.
  { spec: 'browsecomp_plus', from: 'browsecomp_plus', reward: 'browsecomp_plus', score: ['judge', 'score'] },
  { spec: 'rllm_search', from: 'rllm', reward: 'rllm_search', score: ['reward'] },
  { spec: 'art_e', from: 'art', reward: 'art_e', score: ['reward'] },
  // TRL logs one column per reward function and no total (real-rewards-logs-d.ts): their sum.
  { spec: 'trl_grpo_agent', from: 'trl', options: { answer: 'whole' }, reward: 'trl_grpo_agent', score: [['rewards', 'correctness_reward'], ['rewards', 'structure_reward'], ['rewards', 'query_reward']] },
];

async function rollouts(name: string, from: string, dialect: string | undefined, options: Readonly<Record<string, string>> = {}): Promise<Trajectory[]> {
  const logDir = path.join(dir, 'logs', name);
  // SkyRL's dumps sit one folder down (global_step_N_evals/DATA_SOURCE.jsonl), verl's in the folder;
  // rllm's episodes and BrowseComp-Plus's runs are one JSON document per file.
  const names = fs.readdirSync(logDir, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(jsonl?|parquet)$/u.test(file)).sort();
  const files = names.map((file) => ({ path: `logs/${name}/${file}`, bytes: fs.readFileSync(path.join(logDir, file)) }));
  const outcome = await importerFor(from)!.run(files, dialect === undefined ? options : { ...options, dialect });
  assert.ok(outcome.ok);
  const rows = outcome.result.rows.map(({ row, at }) => {
    const parsed = parsePoolRow(row, { pool: 'rollouts', file: at.file, line: at.line });
    assert.ok(parsed.ok, `${at.file}:${at.line}`);
    return parsed.value;
  });
  const corpus = await loadCorpus(path.resolve(dir, '../pools/corpus.jsonl'));
  return [...resolvePool(rows, corpus.corpus).rows];
}

describe('samples/real-rewards', () => {
  it('every spec checks with no error', () => {
    assert.equal(specs.length, 19);
    for (const name of specs) {
      const specFile = path.join(dir, name);
      const { problems } = analyze(fs.readFileSync(specFile, 'utf8'), { specFile });
      assert.deepEqual(problems.filter((p) => p.severity === 'error'), [], name);
    }
  });

  // Every spec with an audit block: the audit runs on its sample log and every `expect` line holds, so
  // a change that moves an attack's figure past what the spec states fails here.
  const audited = specs.filter((name) => /^audit /mu.test(fs.readFileSync(path.join(dir, name), 'utf8')));
  it('the audited specs are the ones with a sample log', () => {
    assert.deepEqual(audited.map((name) => name.replace(/\.reward$/u, '')), logged.map((entry) => entry.spec).sort());
  });
  for (const name of audited) {
    it(`${name}: the audit runs and every expect line holds`, async () => {
      const specFile = path.join(dir, name);
      const outcome = await auditSpec(fs.readFileSync(specFile, 'utf8'), specFile, { cache: newAuditCaches(), candidateCache: false });
      const audits = outcome.report?.audits ?? [];
      assert.ok(audits.length > 0, name);
      for (const audit of audits) {
        assert.ok(audit.attacks.length > 0, `${name}: ${audit.name} scores no attack`);
        const failed = audit.expectations.filter((e) => !e.passed).map((e) => `${e.text}: ${e.actual}`);
        assert.deepEqual(failed, [], `${name}: ${audit.name}`);
      }
    });
  }

  for (const { spec, from = 'verl', dialect, options, reward, score: scorePath = ['score'] } of logged) {
    it(`${spec}: the spec's reward is the score the framework logged, on every rollout`, async () => {
      const specFile = path.join(dir, `${spec}.reward`);
      const { model } = analyze(fs.readFileSync(specFile, 'utf8'), { specFile });
      const compiled = new RewardCompiler(model).reward(reward);
      const rows = await rollouts(spec, from, dialect, options);
      assert.equal(rows.length, 240);
      const env = corpusEnv((await loadCorpus(path.resolve(dir, '../pools/corpus.jsonl'))).corpus);
      const values = new Set<number>();
      for (const row of rows) {
        const view = viewOf(row);
        const written = compiled.terms.reduce((sum, term) => sum + term.weight * term.feature(view, env), 0);
        // One path, or several whose values are summed (a log with one column per reward function).
        const paths = typeof scorePath[0] === 'string' ? [scorePath as readonly string[]] : (scorePath as readonly (readonly string[])[]);
        const at = (keys: readonly string[]): unknown => keys.reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), row.meta);
        const parts = paths.map(at);
        const score = parts.every((p) => typeof p === 'number') ? (parts as number[]).reduce((s, p) => s + p, 0) : undefined;
        assert.equal(typeof score, 'number');
        assert.ok(Math.abs(written - (score as number)) < 1e-12, `${row.source.file}:${row.source.line} (${row.id}): spec ${written}, logged ${String(score)}`);
        values.add(score as number);
      }
      // The log takes more than one branch of the reward, so agreement is not one constant.
      assert.ok(values.size >= 2, `${spec}: ${[...values].join(', ')}`);
    });
  }
});
