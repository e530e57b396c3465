// samples/search-r1: the spec writes Search-R1's EM + format reward in the language, and the rollout
// dump logs the score Search-R1's reward gave each rollout (computed by the sample generator from the
// reward's definition, independently of the product). The two must agree on every rollout, so the
// spec is Search-R1's reward and not an approximation of it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditSpec, newAuditCaches } from '../../server/src/audit/audit-spec.js';
import { planAudit } from '../../server/src/audit/plan.js';
import { editVariants } from '../../server/src/edits/edit-program.js';
import { compilePlan } from '../../server/src/edits/prepare.js';
import { renderedView } from '../../server/src/edits/rendered-view.js';
import { computeWorkedPair, editedRow } from '../../server/src/lsp/worked-pair.js';
import { searchR1Score } from '../../samples/generator/search-r1-dump.js';
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

describe('samples/search-r1: an edit is scored on the response written back', () => {
  it("the spec's reward on every same_final edit is Search-R1's score of the edited rollout (prompt + written response)", async () => {
    const { model } = analyze(fs.readFileSync(specFile, 'utf8'), { specFile });
    const decl = model.globals.get('search_r1_audit')?.decl;
    assert.ok(decl?.kind === 'audit');
    const plan = planAudit(decl, fs.readFileSync(specFile, 'utf8'));
    assert.ok(plan);
    const attack = plan.attacks.find((a) => a.name === 'same_final')!;
    const edit = compilePlan(model, { rewards: [], detectors: [], attacks: [attack] }).edits.get(attack.name)!;
    const reward = new RewardCompiler(model).reward('search_r1');
    const rows = (await importedRollouts()).map((row) => ({ ...row, format: 'verl' }));
    const corpus = await loadCorpus(path.resolve(sampleDir, '../pools/corpus.jsonl'));
    const env = corpusEnv(corpus.corpus);
    const records = new Map<string, { input: string; gts: { target: string[] } }>();
    for (const name of fs.readdirSync(path.join(sampleDir, 'rollout'))) {
      fs.readFileSync(path.join(sampleDir, 'rollout', name), 'utf8').split('\n').forEach((line, i) => {
        if (line !== '') records.set(`rollout/${name}:${i + 1}`, JSON.parse(line) as { input: string; gts: { target: string[] } });
      });
    }
    let edits = 0;
    let losses = 0;
    for (const row of rows) {
      const record = records.get(`${row.source.file}:${row.source.line}`)!;
      for (const variant of editVariants(edit, viewOf(row), { trajectoryId: row.id, env, candidatesAt: () => [] })) {
        const view = renderedView(row, variant);
        const written = view.meta['transcript'] as string;
        // The searches are gone with the retriever's answers to them (an invalid-action message still names the tags).
        assert.ok(!written.includes('<information>'), `${row.id}: ${written}`);
        const spec = reward.terms.reduce((sum, term) => sum + term.weight * term.feature(view, env), 0);
        assert.equal(spec, searchR1Score(record.input + written, record.gts.target), `${row.source.file}:${row.source.line} (${row.id})`);
        edits++;
        if (spec < (row.meta['score'] as number)) losses++;
      }
    }
    // Every rollout that searched has one edit; most lose what the well-formed response earned.
    assert.equal(edits, 384);
    assert.ok(losses > 300, `${losses} of ${edits} edits score below the original`);
  });
});

describe('samples/search-r1: the worked pair shows the written-back response', () => {
  it('the same_final edit of largest margin under search_r1 (rollout/2.jsonl:6): its edited row holds the response without the search, which the format accepts', async () => {
    const text = fs.readFileSync(specFile, 'utf8');
    const { model } = analyze(text, { specFile });
    const decl = model.globals.get('search_r1_audit')?.decl;
    assert.ok(decl?.kind === 'audit');
    const plan = planAudit(decl, text)!;
    const row = (await importedRollouts()).map((r) => ({ ...r, format: 'verl' })).find((r) => r.source.file === 'rollout/2.jsonl' && r.source.line === 6)!;
    const corpus = await loadCorpus(path.resolve(sampleDir, '../pools/corpus.jsonl'));
    const outcome = computeWorkedPair(model, plan, corpus.corpus, row, { attack: 'same_final', position: null, replacement: null });
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.reason);
    // The right answer in a response the format refuses (no <think> after the <information>) scores
    // 0.8; without the search it is well formed and scores 1: Search-R1's own reward prefers the edit.
    const terms = outcome.pair.rewards.find((r) => r.reward === 'search_r1')!.terms;
    assert.deepEqual(terms.map((t) => [t.original, t.edited]), [[0.8, 1]]);
    const raw = JSON.parse(fs.readFileSync(path.join(sampleDir, 'rollout/2.jsonl'), 'utf8').split('\n')[5]!) as { output: string };
    const before = { meta: { transcript: raw.output, observations: row.meta['observations'] } };
    const after = editedRow(before, outcome.pair) as { meta: { transcript: string; observations: string[] } };
    assert.equal(before.meta.transcript.split('<information>').length - 1, row.steps.filter((s) => s.type === 'search').length);
    assert.ok(!after.meta.transcript.includes('<information>'), after.meta.transcript);
    assert.deepEqual(after.meta.observations, []);
    assert.equal(after.meta.transcript, before.meta.transcript.replace(/\n<search>[^]*<\/information>/u, ''));
  });
});
