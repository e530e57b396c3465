// samples/search-r1 with its reward as a program (docs/reward-commands.md): a Node program that
// scores prompt + response as the sample generator scored the logged rollouts stands for the
// trainer's Python function (test:python runs the real one). The program's reward, the reward
// written in the language and the logged score are one function on every rollout (`conforms`), the
// two rewards give the same figures on the same edits, and a worked pair reads the program's values
// from the cache the audit filled, running nothing.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditSpec, newAuditCaches } from '../../server/src/audit/audit-spec.js';
import { auditEditPlan, planAudit } from '../../server/src/audit/plan.js';
import { cachedCommandTerms } from '../../server/src/edits/command-terms.js';
import { importerFor } from '../../server/src/importers/registry.js';
import { loadCorpus } from '../../server/src/inputs/loaders.js';
import { computeWorkedPair } from '../../server/src/lsp/worked-pair.js';
import { resolvePool } from '../../server/src/pool/resolve-ids.js';
import { parsePoolRow } from '../../server/src/pool/schemas.js';
import type { Trajectory } from '../../server/src/pool/types.js';

const sampleDir = path.resolve(__dirname, '../../../samples/search-r1');
const program = path.resolve(__dirname, '../../../test/fixtures/command-terms/search-r1-score.mjs');
const searchR1Spec = fs.readFileSync(path.join(sampleDir, 'search-r1.reward'), 'utf8');

/** The sample's spec with the reward as a program beside it, its links made absolute so it can live in a temporary folder. */
function spec(rewrite = (text: string) => text): string {
  const links = searchR1Spec
    .replace('"../pools/corpus.jsonl"', JSON.stringify(path.resolve(sampleDir, '../pools/corpus.jsonl')))
    .replace('"rollout/*.jsonl"', JSON.stringify(path.join(sampleDir, 'rollout/*.jsonl')));
  const audit = links.slice(0, links.indexOf('audit search_r1_audit'));
  return `${rewrite(audit)}
reward trained "Search-R1's score, by a program" = command ${JSON.stringify(`node ${program}`)}

audit trained_audit {
  reward trained
  compare search_r1, R_L
  corpus wiki
  pools rollouts
  attack same_final targets U
  lattice U = 0.5, L = 1.2
  conforms trained to logged_score within 1e-12
  conforms search_r1 to trained within 1e-12
}
`;
}

async function importedRollouts(): Promise<Trajectory[]> {
  const dumpDir = path.join(sampleDir, 'rollout');
  const files = fs.readdirSync(dumpDir).sort().map((name) => ({ path: path.join(dumpDir, name), bytes: fs.readFileSync(path.join(dumpDir, name)) }));
  const outcome = await importerFor('verl')!.run(files, { dialect: 'search_r1' });
  assert.ok(outcome.ok);
  const rows = outcome.result.rows.map(({ row, at }) => {
    const parsed = parsePoolRow(row, { pool: 'rollouts', file: at.file, line: at.line });
    assert.ok(parsed.ok);
    // As a pool linked `from verl(…)` holds it: its format renders its edits.
    return { ...parsed.value, format: 'verl' };
  });
  const corpus = await loadCorpus(path.resolve(sampleDir, '../pools/corpus.jsonl'));
  return [...resolvePool(rows, corpus.corpus).rows];
}

describe('samples/search-r1: the reward as a program', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-command-terms-'));
  const cacheDir = path.join(dir, 'cache');
  const runs = path.join(dir, 'runs.log');
  const specFile = path.join(dir, 'trained.reward');
  const text = spec();
  process.env['SEARCH_R1_SCORE_RUNS'] = runs;
  fs.writeFileSync(specFile, text);
  const ranCount = (): number => (fs.existsSync(runs) ? fs.readFileSync(runs, 'utf8').split('\n').filter((l) => l !== '').length : 0);

  it('conforms to the logged score and to the rewrite, and gives the rewrite\'s figures on every attack', async () => {
    const outcome = await auditSpec(text, specFile, { cache: newAuditCaches(), candidateCache: cacheDir });
    assert.deepEqual(outcome.failures, []);
    const audit = outcome.report?.audits[0];
    assert.ok(audit);
    assert.deepEqual(audit.conformance?.map((c) => [c.text, c.rows, c.differing, c.holds]), [
      ['conforms trained to logged_score within 1e-12', 400, 0, true],
      ['conforms search_r1 to trained within 1e-12', 400, 0, true],
    ]);
    // 400 originals and the same_final edits, each sent once, all run now.
    assert.deepEqual(audit.commandTerms?.map((t) => [t.term, t.ran === t.requests, t.requests > 400]), [['trained', true, true]]);
    for (const attack of audit.attacks) {
      const of = (reward: string) => attack.results.filter((r) => r.reward === reward).map((r) => ({ selection: r.selection, estimate: r.estimate }));
      assert.deepEqual(of('trained'), of('search_r1'), attack.name);
      assert.equal(attack.results.some((r) => r.notConforming !== undefined), false);
    }
    assert.equal(ranCount(), 1);
  });

  it('runs nothing on a second audit: every answer comes from the cache', async () => {
    const outcome = await auditSpec(text, specFile, { cache: newAuditCaches(), candidateCache: cacheDir });
    assert.equal(outcome.report?.audits[0]?.commandTerms?.[0]?.ran, 0);
    assert.equal(ranCount(), 1);
  });

  it('rebuilds a worked pair with the program\'s values from the cache, term by term', async () => {
    const outcome = await auditSpec(text, specFile, { cache: newAuditCaches(), candidateCache: cacheDir });
    const audit = outcome.report?.audits[0];
    const pair = audit?.certificate.find((c) => c.example !== null)?.example;
    assert.ok(pair);
    const decl = outcome.model.globals.get('trained_audit')?.decl;
    assert.ok(decl?.kind === 'audit');
    const plan = planAudit(decl, text)!;
    const row = (await importedRollouts()).find((r) => r.id === pair.trajectory);
    assert.ok(row);
    const corpus = await loadCorpus(path.resolve(sampleDir, '../pools/corpus.jsonl'));
    const terms = cachedCommandTerms(outcome.model, auditEditPlan(plan), dir, cacheDir);
    const rebuilt = computeWorkedPair(outcome.model, plan, corpus.corpus, row, pair, terms);
    assert.ok(rebuilt.ok, rebuilt.ok ? '' : rebuilt.reason);
    const byReward = Object.fromEntries(rebuilt.pair.rewards.map((r) => [r.reward, r]));
    assert.equal(byReward['trained']?.margin, pair.margins['trained']);
    assert.equal(byReward['trained']?.margin, byReward['search_r1']?.margin);
    const term = byReward['trained']?.terms[0];
    assert.deepEqual([term?.name, term?.original, term?.edited], ['trained', byReward['search_r1']?.terms[0]?.original, byReward['search_r1']?.terms[0]?.edited]);
    // With nothing cached, the pair says what is missing instead of a value.
    const empty = cachedCommandTerms(outcome.model, auditEditPlan(plan), dir, path.join(dir, 'no-cache'));
    const missing = computeWorkedPair(outcome.model, plan, corpus.corpus, row, pair, empty);
    assert.ok(!missing.ok);
    assert.match(missing.reason, /'trained'.*not in the cache: run the audit again/);
    assert.equal(ranCount(), 1);
  });

  it('marks every figure of a rewrite that differs, names its rows, and says so in the expectation', async () => {
    // The rewrite without its retrieval credit: 0.2 where the program gives 0.3.
    const differing = spec((t) => t.replace('0.2 + (if retrieval_ok then 0.1 else 0)', '0.2')).replace('conforms search_r1 to trained within 1e-12', 'conforms search_r1 to trained within 1e-12\n  expect asr(search_r1, same_final, first_visible) >= 0');
    const outcome = await auditSpec(differing, specFile, { cache: newAuditCaches(), candidateCache: cacheDir });
    const audit = outcome.report?.audits[0];
    assert.ok(audit);
    const rewrite = audit.conformance?.[1];
    assert.ok(rewrite);
    assert.equal(rewrite.holds, false);
    assert.ok(rewrite.differing > 0 && rewrite.differing < 400, String(rewrite.differing));
    assert.deepEqual(rewrite.marks, ['search_r1']);
    assert.equal(rewrite.first.length, 10);
    for (const r of rewrite.first) {
      assert.match(r.file, /rollout\/\d+\.jsonl$/);
      assert.deepEqual([r.subject, Math.round(r.reference * 10) / 10], [0.2, 0.3]);
    }
    assert.ok(Math.abs(rewrite.largest!.difference - 0.1) < 1e-12);
    for (const attack of audit.attacks) {
      for (const r of attack.results) assert.equal(r.notConforming !== undefined, r.reward === 'search_r1', `${attack.name} ${r.reward}`);
    }
    assert.deepEqual(audit.expectations.map((e) => [e.passed, e.actual.includes('not the logged reward')]), [[false, true]]);
    assert.equal(ranCount(), 1);
  });
});
