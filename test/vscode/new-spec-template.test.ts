import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { logLinks, newSpecText, placeholderCorpus, poolNames, starterPlan } from '../../client/src/new-spec-template.js';
import { auditSpec } from '../../server/src/audit/audit-spec.js';
import { importerFor } from '../../server/src/importers/registry.js';
import { loadPool } from '../../server/src/inputs/loaders.js';
import { profilePool, type PoolProfile } from '../../server/src/pool/profile.js';
import { probeFile } from '../../server/src/inputs/file-probe.js';
import { LineIndex } from '../../server/src/problems/line-index.js';
import { analyze } from '../../server/src/semantics/analyze.js';

// What "HERALD: New Spec" writes (client/src/new-spec-template.ts), held to the real checker and the
// real audit: a clean spec over the walkthrough's pools, and one precise error while no corpus is set;
// fitted to each pool's profile, a starter whose every attack can edit the rows (Search-R1's verl
// dump has no citations: the citation attacks are left out, and same_final has eligible edits).

const repoRoot = path.resolve(__dirname, '../../..');
const pools = path.join(repoRoot, 'walkthrough/sample/pools');

describe('the New Spec template', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-new-spec-'));
  fs.cpSync(pools, path.join(dir, 'logs'), { recursive: true });
  const specFile = path.join(dir, 'mine.reward');
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('names each pool after its file, never after a keyword, a built-in or another declaration', () => {
    assert.deepEqual(
      poolNames(['hotpot.jsonl', 'logs/model-qwen3-1.7b.jsonl', '2wiki.jsonl', 'answer.jsonl', 'other/answer.jsonl', 'corpus.jsonl', 'L.jsonl', '.jsonl', 'hotpot.JSONL']),
      ['hotpot', 'model_qwen3_1_7b', 'pool_2wiki', 'answer_2', 'answer_3', 'corpus_2', 'L_2', 'pool_2', 'hotpot_2'],
    );
    // Framework logs: any extension; a glob is named after its folder, or `rollouts` in the spec's own.
    assert.deepEqual(poolNames(['rollout/*.jsonl', 'completions_00010.parquet', 'run_b1.json', '*.jsonl']), ['rollout', 'completions_00010', 'run_b1', 'rollouts']);
  });

  it('checks clean and audits over the chosen pools and corpus', async () => {
    const text = newSpecText({ pools: ['logs/hotpot.jsonl', 'logs/2wiki.jsonl'], corpus: 'logs/corpus.jsonl' });
    const { problems } = analyze(text, { specFile, probeFile });
    assert.deepEqual(problems.map((p) => `${p.severity} ${p.code}: ${p.message}`), []);
    assert.ok(text.includes('pool hotpot     = "logs/hotpot.jsonl"\npool pool_2wiki = "logs/2wiki.jsonl"\n'), text);
    const outcome = await auditSpec(text, specFile, { candidateCache: false });
    assert.deepEqual(outcome.failures, []);
    const audit = outcome.report?.audits[0];
    assert.equal(audit?.name, 'main');
    assert.deepEqual(audit?.attacks.map((a) => a.name), ['same_final', 'fake_id', 'launder']);
    assert.deepEqual(audit?.pools.map((p) => [p.name, p.rows]), [['hotpot', 160], ['pool_2wiki', 160]]);
  });

  it('without a corpus, links a placeholder that the checker flags on its line, and nothing else', () => {
    const text = newSpecText({ pools: ['logs/hotpot.jsonl'], corpus: undefined });
    const { problems } = analyze(text, { specFile, probeFile });
    assert.deepEqual(problems.map((p) => [p.severity, p.code]), [['error', 'missing-file']]);
    const lines = new LineIndex(text);
    const line = text.split('\n')[lines.position(problems[0]!.span.start).line];
    assert.equal(line, `corpus wiki = "${placeholderCorpus}"`);
  });

  it('fitted to a pool whose rows cite passages: the paper\'s three attacks, nothing left out', async () => {
    const rows = [...(await loadPool(path.join(dir, 'logs/hotpot.jsonl'), 'hotpot')).items, ...(await loadPool(path.join(dir, 'logs/2wiki.jsonl'), '2wiki')).items];
    const profile = profilePool(rows);
    const text = newSpecText({ pools: ['logs/hotpot.jsonl', 'logs/2wiki.jsonl'], corpus: 'logs/corpus.jsonl', profile });
    assert.ok(text.includes(`# Fitted to the pool's 320 rows: ${profile.withAnswer} with an answer, ${profile.withSearches} with searches, ${profile.withCitations} with citations.\n`), text);
    assert.ok(!text.includes('left out'), text);
    assert.deepEqual(analyze(text, { specFile, probeFile }).problems, []);
    // The same text as the paper's starter, with the line that says what it was fitted to.
    assert.equal(text, newSpecText({ pools: ['logs/hotpot.jsonl', 'logs/2wiki.jsonl'], corpus: 'logs/corpus.jsonl' })
      .replace("docs/language.md.\n", `docs/language.md.\n# Fitted to the pool's 320 rows: ${profile.withAnswer} with an answer, ${profile.withSearches} with searches, ${profile.withCitations} with citations.\n`));
  });

  it("fitted to Search-R1's verl dump (no citations): only same_final targets U, with the reason for the rest, and it has eligible edits", async () => {
    const searchR1 = path.join(dir, 'search-r1');
    fs.cpSync(path.join(repoRoot, 'samples/search-r1/rollout'), path.join(searchR1, 'rollout'), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, 'samples/pools/corpus.jsonl'), path.join(searchR1, 'corpus.jsonl'));
    const files = fs.readdirSync(path.join(searchR1, 'rollout')).sort().map((name) => ({ path: `rollout/${name}`, bytes: fs.readFileSync(path.join(searchR1, 'rollout', name)) }));
    const imported = await importerFor('verl')!.run(files, { dialect: 'search_r1' });
    assert.ok(imported.ok);
    const profile = profilePool(imported.result.rows.map((r) => r.trajectory));
    assert.equal(profile.withCitations, 0);
    const text = newSpecText({ pools: ['rollout/*.jsonl'], from: { format: 'verl', options: { dialect: 'search_r1' } }, corpus: 'corpus.jsonl', profile });
    assert.ok(text.includes('pool rollout = "rollout/*.jsonl" from verl(dialect: search_r1)\n'), text);
    assert.ok(text.includes('  # launder, fake_id left out: no row of this pool cites a passage (0 of 400).\n'), text);
    assert.ok(text.includes('  attack same_final targets U\n'), text);
    for (const absent of ['detector L', 'detector F', 'grounding(', 'fake_id targets', 'launder targets']) assert.ok(!text.includes(absent), absent);
    const spec = path.join(searchR1, 'starter.reward');
    assert.deepEqual(analyze(text, { specFile: spec, probeFile }).problems.map((p) => `${p.code}: ${p.message}`), []);
    const outcome = await auditSpec(text, spec, { candidateCache: false });
    assert.deepEqual(outcome.failures, []);
    const audit = outcome.report?.audits[0];
    assert.deepEqual(audit?.attacks.map((a) => a.name), ['same_final']);
    assert.ok((audit?.attacks[0]?.counts.rows.isolatedEligible ?? 0) > 0, JSON.stringify(audit?.attacks[0]?.counts));
  });

  const profileOf = (counts: Partial<PoolProfile>): PoolProfile => ({
    rows: 10, withFinal: 10, withAnswer: 10, withCitations: 0, citations: 0, withSteps: 10, withSearches: 0, searches: 0, withRetrieved: 0, withTools: 0,
    withReasoning: 0, withInvalid: 0, withTurns: 0, withGoldAnswers: 10, withGoldSupport: 0, meta: [], ...counts,
  });

  it('with neither citations nor searches, pads the answer instead, and says why U is left out', async () => {
    const plan = starterPlan(profileOf({}));
    assert.deepEqual(plan.attacks, ['attack pad_answer']);
    assert.deepEqual(plan.detectors, { U: false, L: false, F: false });
    assert.ok(plan.leftOut.includes('Detector U (answered without searching) left out, and same_final with it: no row has a search step (0 of 10), so none can have its searches deleted.'), plan.leftOut.join('\n'));
    const text = newSpecText({ pools: ['logs/hotpot.jsonl'], corpus: 'logs/corpus.jsonl', profile: profileOf({}) });
    assert.deepEqual(analyze(text, { specFile, probeFile }).problems.map((p) => `${p.code}: ${p.message}`), []);
    const outcome = await auditSpec(text, specFile, { candidateCache: false });
    assert.deepEqual(outcome.failures, []);
    assert.ok((outcome.report?.audits[0]?.attacks[0]?.counts.rows.isolatedEligible ?? 0) > 0);
  });

  it('with citations but no search, targets L alone; with no answer at all, says that nothing here can edit the rows', () => {
    const cites = starterPlan(profileOf({ withCitations: 4, citations: 6 }));
    assert.deepEqual(cites.attacks, ['attack same_final targets L', 'attack fake_id targets F', 'attack launder targets L using lexical(8)']);
    assert.equal(cites.compare, 'R_L');
    const none = starterPlan(profileOf({ withAnswer: 0 }));
    assert.deepEqual(none.attacks, ['attack same_final targets U']);
    assert.ok(none.leftOut.some((l) => l.startsWith('No attack here can edit these rows')), none.leftOut.join('\n'));
    const text = newSpecText({ pools: ['logs/hotpot.jsonl'], corpus: 'logs/corpus.jsonl', profile: profileOf({ withAnswer: 0 }) });
    assert.deepEqual(analyze(text, { specFile, probeFile }).problems.map((p) => `${p.code}: ${p.message}`), []);
  });

  it('rows that could not be profiled keep the paper\'s three attacks and say why', () => {
    const text = newSpecText({ pools: ['logs/hotpot.jsonl'], corpus: 'logs/corpus.jsonl', profile: 'logs/hotpot.jsonl is outside the workspace' });
    assert.ok(text.includes("# The pools could not be profiled (logs/hotpot.jsonl is outside the workspace), so this starter keeps the paper's three attacks.\n"), text);
    assert.ok(text.includes('attack launder targets L using lexical(8)'), text);
  });

  it('links log files as one glob when they are every file of their folder with their extension, some of them as one brace list, else one by one', () => {
    const folder = ['rollout/1.jsonl', 'rollout/2.jsonl', 'rollout/3.jsonl', 'rollout/notes.txt', 'other/4.jsonl'];
    assert.deepEqual(logLinks(['rollout/1.jsonl', 'rollout/2.jsonl', 'rollout/3.jsonl'], folder), ['rollout/*.jsonl']);
    assert.deepEqual(logLinks(['rollout/1.jsonl', 'rollout/3.jsonl'], folder), ['rollout/{1,3}.jsonl']);
    // Step files in numeric order; a name glob syntax would read is linked as it is.
    assert.deepEqual(logLinks(['10.jsonl', '9.jsonl', '2.jsonl'], ['2.jsonl', '9.jsonl', '10.jsonl', 'corpus.jsonl']), ['{2,9,10}.jsonl']);
    assert.deepEqual(logLinks(['a,b.jsonl', 'c.jsonl'], ['a,b.jsonl', 'c.jsonl', 'd.jsonl']), ['a,b.jsonl', 'c.jsonl']);
    assert.deepEqual(logLinks(['rollout/1.jsonl', 'other/4.jsonl'], folder), ['rollout/1.jsonl', 'other/4.jsonl']);
    assert.deepEqual(logLinks(['rollout/1.jsonl'], folder), ['rollout/1.jsonl']);
    assert.deepEqual(logLinks(['a.json', 'b.json'], ['a.json', 'b.json', 'c.jsonl']), ['*.json']);
  });
});
