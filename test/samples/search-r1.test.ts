// samples/search-r1: the spec writes Search-R1's EM + format reward in the language, and the rollout
// dump logs the score Search-R1's reward gave each rollout (computed by the sample generator from the
// reward's definition, independently of the product). The two must agree on every rollout, so the
// spec is Search-R1's reward and not an approximation of it.
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

const sampleDir = path.resolve(__dirname, '../../../samples/search-r1');
const specFile = path.join(sampleDir, 'search-r1.reward');

async function importedRollouts(): Promise<Trajectory[]> {
  const dumpDir = path.join(sampleDir, 'rollout');
  const files = fs.readdirSync(dumpDir).sort().map((name) => ({ path: `rollout/${name}`, bytes: fs.readFileSync(path.join(dumpDir, name)) }));
  const outcome = await importerFor('verl')!.run(files, { dialect: 'search_r1' });
  assert.ok(outcome.ok);
  const rows = outcome.result.rows.map(({ row, at }) => {
    const parsed = parsePoolRow(row, { pool: 'rollouts', file: at.file, line: at.line });
    assert.ok(parsed.ok, `${at.file}:${at.line}`);
    return parsed.value;
  });
  const corpus = await loadCorpus(path.resolve(sampleDir, '../pools/corpus.jsonl'));
  return [...resolvePool(rows, corpus.corpus).rows];
}

describe('samples/search-r1', () => {
  it("the spec's search_r1 reward is the score verl logged, on every rollout", async () => {
    const { model, problems } = analyze(fs.readFileSync(specFile, 'utf8'), { specFile });
    assert.deepEqual(problems.filter((p) => p.severity === 'error'), []);
    const reward = new RewardCompiler(model).reward('search_r1');
    const rows = await importedRollouts();
    assert.equal(rows.length, 400);
    const corpus = await loadCorpus(path.resolve(sampleDir, '../pools/corpus.jsonl'));
    const env = corpusEnv(corpus.corpus);
    const scores = new Map<number, number>();
    for (const row of rows) {
      const view = viewOf(row);
      const written = reward.terms.reduce((sum, term) => sum + term.weight * term.feature(view, env), 0);
      const logged = row.meta['score'];
      assert.equal(typeof logged, 'number');
      assert.equal(written, logged, `${row.source.file}:${row.source.line} (${row.id})`);
      scores.set(written, (scores.get(written) ?? 0) + 1);
    }
    // Every branch of the reward is taken: 1, 1 − 0.2, 0.2 (+ 0.1) and 0.1.
    assert.deepEqual([...scores.keys()].sort(), [0.1, 0.2, 0.30000000000000004, 0.8, 1]);
  });

  it('names the file of a worked pair inside the dump, not the glob', async () => {
    const outcome = await auditSpec(fs.readFileSync(specFile, 'utf8'), specFile, { cache: newAuditCaches(), candidateCache: false });
    const audit = outcome.report?.audits[0];
    assert.ok(audit);
    assert.equal(audit.pools[0]?.file, 'rollout/*.jsonl');
    const pairs = audit.certificate.map((c) => c.example).filter((p) => p !== null);
    assert.ok(pairs.length > 0);
    for (const pair of pairs) assert.match(pair.file ?? '', /^rollout\/\d+\.jsonl$/);
  });
});
