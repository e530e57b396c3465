// The audit's shortcuts (prepared audits re-scored after a weight edit, margins and bootstrap
// intervals remembered by value, lattice subsets sharing estimates, candidate rankings from the
// on-disk cache) must not change a single byte of the report. Each test compares a shortcut with
// the plain computation it replaces, on the sample spec.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditSpec, newAuditCaches, type AuditSpecOptions } from '../../server/src/audit/audit-spec.js';
import { openRankingStore, rankingLine, storeKeyOf } from '../../server/src/inputs/ranking-cache.js';
import { cacheFolder } from '../../server/src/inputs/cache-folder.js';
import { corpusOrder } from '../../server/src/pool/corpus-order.js';
import { createCandidateSource } from '../../server/src/candidates/candidate-source.js';
import { bootstrapMemo, clusterBootstrap, percentile } from '../../server/src/stats/bootstrap.js';
import { rewardScorer } from '../../server/src/edits/features.js';
import { maxLatticeDetectors } from '../../server/src/problems/limits.js';
import { AuditError } from '../../server/src/edits/audit-error.js';
import { evaluateLattice, minimalSubsets, subsetMargins, subsetNames, type LatticePenalty } from '../../server/src/audit/lattice.js';
import { auditEditPlan, planAudit } from '../../server/src/audit/plan.js';
import { seededRandom } from '../../server/src/stats/random.js';
import { compilePlan, prepareEdits } from '../../server/src/edits/prepare.js';
import { changeableColumns, editRecord, evaluateFeatures } from '../../server/src/edits/attack-run.js';
import { editVariants } from '../../server/src/edits/edit-program.js';
import { changeOf, vectorCount } from '../../server/src/edits/edit-changes.js';
import { estimateSelection, selectionLabel } from '../../server/src/scoring/scoring.js';
import { scoringMemo } from '../../server/src/edits/scoring-memo.js';
import { viewOf } from '../../server/src/language/view.js';
import { corpusEnv } from '../../server/src/language/eval-env.js';
import { scoreAudit } from '../../server/src/audit/run-audit.js';
import { LineIndex } from '../../server/src/problems/line-index.js';
import { loadCorpus, loadPool } from '../../server/src/inputs/loaders.js';
import { RewardCompiler } from '../../server/src/reward/compile.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { tempDir } from '../pool/temp-files.js';

const specFile = path.resolve('samples/paper.reward');
const text = fs.readFileSync(specFile, 'utf8');

async function reportJson(source: string, options: AuditSpecOptions, progress: string[] = []): Promise<string> {
  const outcome = await auditSpec(source, specFile, { ...options, onProgress: (m) => progress.push(m) });
  assert.ok(outcome.report, JSON.stringify(outcome.problems));
  return JSON.stringify(outcome.report, null, 2);
}

/** The sample's audit, checked and prepared from data in memory. */
async function preparedSample(source: string) {
  const { model, plan } = checkedSample(source);
  const fileOf = (name: string): string => {
    const d = model.globals.get(name)?.decl;
    return path.resolve(path.dirname(specFile), d?.kind === 'pool' || d?.kind === 'corpus' ? (d.path?.value ?? '') : '');
  };
  const corpus = await loadCorpus(fileOf(plan.corpus));
  const pools = await Promise.all(plan.pools.map(async (name) => ({ name, file: fileOf(name), rows: (await loadPool(fileOf(name), name)).items, issues: [] })));
  const prepared = prepareEdits(model, auditEditPlan(plan), { corpusName: plan.corpus, corpus: corpus.corpus, corpusIssues: [], pools }, createCandidateSource(corpus.corpus, new Map()));
  assert.ok(prepared);
  return { model, plan, prepared };
}

function checkedSample(source: string) {
  const { model } = analyze(source, { specFile });
  const decl = model.spec.decls.find((d) => d.kind === 'audit' && d.name?.text === 'paper');
  assert.ok(decl?.kind === 'audit');
  const plan = planAudit(decl, source);
  assert.ok(plan);
  return { model, plan };
}

describe('optimised audit path', () => {
  it('gives the same JSON report cold, from on-disk candidates, and re-scored after a weight edit', async () => {
    const cacheDir = tempDir().dir;
    const plain = await reportJson(text, { cache: newAuditCaches(), candidateCache: false });

    const filling = await reportJson(text, { cache: newAuditCaches(), candidateCache: cacheDir });
    assert.equal(filling, plain, 'cold, writing the candidate cache');
    const stored = fs.readdirSync(cacheFolder(cacheDir));
    assert.deepEqual(stored.map((name) => path.extname(name)).sort(), ['.index', '.jsonl', '.jsonl'], 'one ranking file per generator the spec uses (lexical, bm25), and the BM25 index');

    const cache = newAuditCaches();
    const fromDisk = await reportJson(text, { cache, candidateCache: cacheDir });
    assert.equal(fromDisk, plain, 'cold, candidates from the on-disk cache');

    // R_L's λ edited and edited back: the second run re-scores the prepared audit.
    const edited = text.replace('R0 - 1.2 * L', 'R0 - 1.3 * L');
    assert.notEqual(edited, text);
    const editedJson = await reportJson(edited, { cache, candidateCache: cacheDir });
    assert.notEqual(editedJson, plain, 'the edit changes the report');
    const progress: string[] = [];
    const rescored = await reportJson(text, { cache, candidateCache: cacheDir }, progress);
    assert.ok(progress.some((m) => m.includes('re-scoring')), progress.join('\n'));
    assert.equal(rescored, plain, 're-scored after a weight edit and back');
  });

  it('ignores damaged and unusable candidate caches and still gives the same report', async () => {
    const temp = tempDir();
    const plain = await reportJson(text, { cache: newAuditCaches(), candidateCache: false });
    await reportJson(text, { cache: newAuditCaches(), candidateCache: temp.dir });
    const folder = cacheFolder(temp.dir);
    for (const name of fs.readdirSync(folder)) {
      const file = path.join(folder, name);
      if (name.endsWith('.index')) {
        fs.writeFileSync(file, fs.readFileSync(file).subarray(0, 1000));
        continue;
      }
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      // A line cut short, a line of another shape, an id that is not in the corpus, bytes that are not JSON.
      const [first, second, third] = lines;
      const damaged = [first!.slice(0, first!.length >> 1), '{"not":"a ranking"}', third!.replace(/"w:\d+"/, '"w:not-a-passage"'), '\u0000\u0001garbage', ...lines.slice(3)];
      assert.ok(second !== undefined);
      fs.writeFileSync(file, damaged.join('\n'));
    }
    assert.equal(await reportJson(text, { cache: newAuditCaches(), candidateCache: temp.dir }), plain, 'damaged lines are ranked again, a damaged index built again');
    const notAFolder = temp.write('a-file', 'x');
    assert.equal(await reportJson(text, { cache: newAuditCaches(), candidateCache: notAFolder }), plain, 'a cache path that cannot be a folder is ignored');
  });

  it('reads back only well-formed rankings of corpus passages, kept as their places in the corpus', () => {
    const temp = tempDir();
    const order = corpusOrder({ file: 'corpus.jsonl', passages: new Map(['w:1', 'w:2', 'w:3'].map((id) => [id, { id, title: id, text: id }])) });
    const store = openRankingStore(temp.dir, 'hash', 'bm25', order);
    store.set('question one', { ids: ['w:2', 'w:1'], complete: true });
    store.set('question two', { ids: ['w:3'], complete: false });
    store.set('question six', { ids: ['w:1', 'w:404'], complete: true });
    assert.equal(store.get('question six'), undefined, 'a ranking naming a passage outside the corpus is not kept');
    store.flush();
    const file = path.join(cacheFolder(temp.dir), fs.readdirSync(cacheFolder(temp.dir))[0]!);
    // Lines with their right digest, so what is checked behind the digest is checked.
    const signed = (json: string): string => rankingLine(storeKeyOf('hash', 'bm25'), json);
    fs.appendFileSync(file, `${signed('["question three", true, ["w:9"]]')}${signed('["question four", "yes", []]')}${signed('["question five", false, ["w:1"').trimEnd()}`);
    const reopened = openRankingStore(temp.dir, 'hash', 'bm25', order);
    assert.deepEqual(reopened.get('question one'), { ids: ['w:2', 'w:1'], complete: true });
    assert.deepEqual(Array.from(reopened.placesOf('question one')!.places), [1, 0], 'kept as places in the corpus order');
    assert.equal(reopened.placesOf('question two')!.complete, false);
    assert.deepEqual(reopened.get('question two'), { ids: ['w:3'], complete: false });
    assert.equal(reopened.get('question three'), undefined, 'an id outside the corpus');
    assert.equal(reopened.get('question four'), undefined, 'a malformed entry');
    assert.equal(reopened.get('question five'), undefined, 'a cut-off line');
    assert.equal(reopened.get('question six'), undefined, 'nor written');
    assert.equal(openRankingStore(temp.dir, 'other hash', 'bm25', order).get('question one'), undefined, 'another corpus content');
    assert.equal(openRankingStore(temp.dir, 'hash', 'lexical', order).get('question one'), undefined, 'another generator');
  });

  it('evaluates on an edit only the features its write set can change, counting citation tests from the original, with every value as a full evaluation gives', async () => {
    const { model, prepared } = await preparedSample(text);
    const { table, rows } = prepared;
    // A fresh environment: it holds only caches, so its values are the preparation's.
    const env = corpusEnv(prepared.inputs.corpus);
    const views = rows.map(viewOf);
    const F = table.keys.length;
    const compiled = compilePlan(model, { rewards: [], detectors: [], attacks: prepared.runs.map((r) => r.plan) }).edits;
    const skipped: string[] = [];
    for (const run of prepared.runs) {
      const edit = compiled.get(run.plan.name)!;
      const changeable = new Set(changeableColumns(table, edit.writes));
      table.keys.forEach((key, k) => {
        if (!changeable.has(k)) skipped.push(`${run.plan.name}:${key}`);
      });
      // Rebuild every 7th isolated-eligible edit and evaluate every feature on it.
      for (let e = 0; e < run.index.editRow.length; e += 7) {
        const record = editRecord(run, e);
        const candidates = (position: number): readonly string[] => (position === record.position && record.replacement !== undefined ? [record.replacement] : []);
        const variants = [...editVariants(edit, views[record.row]!, { trajectoryId: rows[record.row]!.id, env, candidatesAt: candidates })];
        const rebuilt = variants.find((v) => v.position === record.position && v.replacement === record.replacement)!;
        // In full: without `swap`, no count over the citations starts from the original's.
        const full = new Float64Array(F);
        evaluateFeatures(table, { ...rebuilt.view, swap: undefined }, env, full, 0);
        const original = prepared.originalValues.subarray(record.row * F, (record.row + 1) * F);
        assert.deepEqual(full.map((v, k) => v - original[k]!), Float64Array.from(table.keys, (_key, k) => changeOf(run.changes, k, e)), `${run.plan.name} edit ${e}`);
      }
    }
    // A citation edit skips the terms that read only the steps, the answer or the question.
    assert.ok(skipped.includes('launder:term:R0.tool_cost') && skipped.includes('fake_id:term:R0.answer'), skipped.join(', '));
    assert.ok(!skipped.includes('launder:decl:L') && !skipped.includes('same_final:decl:U'));
  });

  it('evaluates the lattice with shared subsets exactly as subset by subset', async () => {
    const { model, plan, prepared } = await preparedSample(text);
    const base = rewardScorer(prepared.table, new RewardCompiler(model).reward(plan.reward));
    const penalties: LatticePenalty[] = plan.lattice.map((l) => ({ name: l.name, lambda: l.lambda, column: prepared.table.index.get(`decl:${l.name}`)! }));
    const options = { resamples: plan.bootstrap, seed: plan.seed };

    // Every subset's margins from its own pass, as the definition reads, with nothing remembered.
    const results = Array.from({ length: 1 << penalties.length }, () => [] as unknown[]);
    for (const run of prepared.runs) {
      for (const [mask, margins] of subsetMargins(run, base, penalties, scoringMemo())) {
        for (const selection of ['first_visible', 'oracle_worst'] as const) {
          const e = estimateSelection(run, margins, selection, options, scoringMemo());
          results[mask]!.push({ attack: run.plan.name, selection, label: selectionLabel(selection, base, run), asr: e.asr, upper: e.interval.high, method: e.interval.method, meanMargin: e.meanMargin, clusters: e.clusters });
        }
      }
    }
    const sufficient = results.map((r) => r.every((x) => (x as { selection: string; asr: number }).selection !== 'oracle_worst' || (x as { asr: number }).asr === 0));
    const minimal = minimalSubsets(sufficient);
    const subsets = results.map((r, mask) => ({ detectors: subsetNames(mask, penalties), results: r, sufficient: sufficient[mask]!, minimal: minimal[mask]! }));
    const expected = { detectors: penalties.map((p) => ({ name: p.name, lambda: p.lambda })), subsets, minimal: subsets.filter((s) => s.minimal).map((s) => s.detectors), vacuous: false };

    const shared = evaluateLattice(prepared.runs, base, penalties, { ...options, bootstrap: prepared.memo.bootstrap }, prepared.memo);
    assert.equal(JSON.stringify(shared), JSON.stringify(expected));
    // The sample's lattice has subsets that differ only in detectors an attack never changes.
    assert.ok(penalties.length === 3 && prepared.runs.some((run) => run.plan.targets.length < penalties.length));
  });

  it('refuses a lattice past the detector limit instead of overflowing 1 << k', async () => {
    // 31 detectors made `1 << k` negative: the lattice came back empty and nothing said so.
    const { model, plan, prepared } = await preparedSample(text);
    const base = rewardScorer(prepared.table, new RewardCompiler(model).reward(plan.reward));
    const one = plan.lattice[0]!;
    const penalty: LatticePenalty = { name: one.name, lambda: one.lambda, column: prepared.table.index.get(`decl:${one.name}`)! };
    const options = { resamples: plan.bootstrap, seed: plan.seed, bootstrap: prepared.memo.bootstrap };
    for (const k of [maxLatticeDetectors + 1, 31]) {
      assert.throws(() => evaluateLattice(prepared.runs, base, Array.from({ length: k }, () => penalty), options, prepared.memo),
        (e: unknown) => e instanceof AuditError && e.message.includes(`at most ${maxLatticeDetectors} detectors`));
    }
  });

  it('keeps what scoring remembers with the prepared edits, within its bounds', async () => {
    const sample = await preparedSample(text);
    // Room for a few margins of the largest run (a margin per change vector, a selected edit and its
    // margin per unit and selection): weight edits push the oldest out.
    const largest = Math.max(...sample.prepared.runs.map((run) => vectorCount(run.changes) * Float64Array.BYTES_PER_ELEMENT + 6 * run.index.unitFirst.byteLength));
    const { model, plan } = sample;
    const prepared = { ...sample.prepared, memo: scoringMemo(4 * largest) };
    const lines = new LineIndex(text);
    const first = JSON.stringify(scoreAudit(model, plan, prepared, lines));
    for (let i = 0; i < 12; i++) {
      const edited = text.replace('R0 - 1.2 * L', `R0 - ${(1.3 + i / 100).toFixed(2)} * L`);
      const again = checkedSample(edited);
      assert.notEqual(JSON.stringify(scoreAudit(again.model, again.plan, prepared, new LineIndex(edited))), first);
    }
    const { margins, bootstrap } = prepared.memo;
    assert.ok(margins.size > 0 && margins.calculatedSize <= 4 * largest, `${margins.calculatedSize} bytes of margins kept`);
    assert.ok(bootstrap.draws.size > 0 && bootstrap.draws.calculatedSize <= bootstrap.draws.maxSize);
    assert.ok(bootstrap.intervals.size > 0 && bootstrap.intervals.calculatedSize <= bootstrap.intervals.maxSize);
    assert.equal(JSON.stringify(scoreAudit(model, plan, prepared, lines)), first, 'edited back, with margins computed again: the same report');
    assert.equal(JSON.stringify(scoreAudit(model, plan, sample.prepared, lines)), first, 'and with the default bound');
    const fresh = await preparedSample(text);
    assert.equal(fresh.prepared.memo.bootstrap.intervals.size, 0, 'other prepared edits start with nothing remembered');
    assert.equal(JSON.stringify(scoreAudit(model, plan, fresh.prepared, lines)), first, 'and give the same report');
  });

  it('remembers bootstrap intervals without changing them', () => {
    // The plain percentile bootstrap: clusters drawn with replacement, seeded, the 2.5% and 97.5% points.
    const plainBootstrap = (shares: readonly number[], resamples: number, seed: number) => {
      const random = seededRandom(seed);
      const indices = Array.from({ length: shares.length * resamples }, () => Math.floor(random() * shares.length));
      const means = new Float64Array(resamples);
      for (let b = 0; b < resamples; b++) {
        let sum = 0;
        for (let i = 0; i < shares.length; i++) sum += shares[indices[b * shares.length + i]!]!;
        means[b] = sum / shares.length;
      }
      means.sort();
      return { low: percentile(means, 0.025), high: percentile(means, 0.975), method: 'bootstrap' };
    };
    const random = seededRandom(7);
    const vectors = [
      Array.from({ length: 40 }, (_, i) => (i % 7 === 0 ? 1 / 3 : 0)),
      Array.from({ length: 40 }, (_, i) => (i % 7 === 0 ? 2 / 3 : 0)),
      Array.from({ length: 41 }, (_, i) => (i % 7 === 0 ? 1 / 3 : 0)),
      Array.from({ length: 40 }, () => Math.floor(random() * 4) / 4),
      Array.from({ length: 40 }, () => random() - 0.5),
    ];
    const memo = bootstrapMemo();
    // Room for no draw: every index is drawn from the stream as it is summed.
    const streaming = bootstrapMemo(1);
    for (const shares of vectors) {
      for (const [resamples, seed] of [[200, 0], [200, 1], [50, 0]] as const) {
        const expected = plainBootstrap(shares, resamples, seed);
        assert.deepEqual(clusterBootstrap(shares, resamples, seed), expected, 'without a memo');
        assert.deepEqual(clusterBootstrap(shares, resamples, seed, memo), expected);
        assert.deepEqual(clusterBootstrap([...shares], resamples, seed, memo), expected, 'again, from the memo');
        assert.deepEqual(clusterBootstrap(shares, resamples, seed, streaming), expected, 'with draws too large to keep');
      }
    }
    assert.ok(memo.intervals.size > 0 && memo.draws.size > 0);
    assert.equal(streaming.draws.size, 0);
    // Another owner's memo (a second audit of the pool) keeps the same draws, not copies of them.
    const other = bootstrapMemo();
    const shares = vectors[4]!;
    assert.deepEqual(clusterBootstrap(shares, 200, 1, other), plainBootstrap(shares, 200, 1));
    assert.deepEqual([...other.draws.keys()], ['40:200:1']);
    assert.equal(other.draws.get('40:200:1'), memo.draws.get('40:200:1'));
  });
});
