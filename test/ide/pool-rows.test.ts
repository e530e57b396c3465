import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadCandidates, loadCorpus, loadPool } from '../../server/src/inputs/loaders.js';
import type { Loaded } from '../../server/src/pool/types.js';
import { checkRows, corpusOfPool, importedRows, poolFieldReader, type DataFileKind } from '../../server/src/ide/pool-rows.js';
import { parsePoolRow } from '../../server/src/pool/schemas.js';
import type { Trajectory } from '../../server/src/pool/types.js';
import { withLoggedFields } from '../../server/src/edits/logged-field-rows.js';
import { InputCache } from '../../server/src/inputs/input-cache.js';
import { IssueLog, loadInputs } from '../../server/src/inputs/load-inputs.js';
import { WorkspaceTrust } from '../../server/src/inputs/trust.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { v2Corpus, v2Resolution, v2Rows, v2Skipped, v2Spec } from '../helpers/v2-pool.js';
import { jsonl, poolRow, tempDir } from '../pool/temp-files.js';

// The editor checks an open data file's rows as the audit's loaders check the file on disk: the
// same rows skipped, on the same lines, for the same reasons.

const issuesOf = (loaded: Loaded<unknown>) => loaded.issues.map((i) => [i.line, i.reason]);
const checkedIssues = (text: string, kind: DataFileKind, file: string) => checkRows(text, kind, file, 'p').flatMap((r) => (r.ok ? [] : [[r.line, r.reason]]));

describe('data file rows in the editor: the loaders\' verdicts', () => {
  const tmp = tempDir();

  it('skips the pool rows the pool loader skips, for the same reasons', async () => {
    const text = jsonl([
      poolRow('t1'),
      '{"id": "t2", "question_id": ',
      '',
      poolRow('t3', { question_id: undefined }),
      poolRow('t1'),
      poolRow('t4', { steps: [{ type: 'answer', text: 'x' }] }),
      '[1, 2]',
      poolRow('t5', { final: 'Paris' }),
      poolRow('t6', { meta: { sample: 'three' } }),
    ]);
    const file = tmp.write('pool.jsonl', text);
    const expected = issuesOf(await loadPool(file, 'p'));
    assert.equal(expected.length, 7);
    assert.deepEqual(checkedIssues(text, 'pool', file), expected);
  });

  it('skips the corpus and candidate rows their loaders skip', async () => {
    const corpus = jsonl([{ id: 'w:1', title: 'A', text: 'a' }, { id: 'w:1', title: 'B', text: 'b' }, { id: 'w:2', title: 3, text: 'c' }, 'nope']);
    const corpusFile = tmp.write('corpus.jsonl', corpus);
    assert.deepEqual(checkedIssues(corpus, 'corpus', corpusFile), issuesOf(await loadCorpus(corpusFile)));
    const candidates = jsonl([
      { traj_id: 't1', citation_index: 0, candidates: ['w:1'] }, { traj_id: 't1', citation_index: 0, candidates: ['w:2'] },
      { traj_id: 't1', citation_index: -1, candidates: [] }, { traj_id: 't2', citation_index: 0, candidates: 'w:1' },
    ]);
    const candidatesFile = tmp.write('candidates.jsonl', candidates);
    assert.deepEqual(checkedIssues(candidates, 'candidates', candidatesFile), issuesOf(await loadCandidates(candidatesFile)));
  });

  it('says an empty file has no rows, as the loader does', async () => {
    const file = tmp.write('empty.jsonl', '\n\n');
    assert.deepEqual(checkedIssues('\n\n', 'pool', file), issuesOf(await loadPool(file, 'p')));
  });

  it('gives the valid rows with their values, numbered as the file numbers its lines', () => {
    const rows = checkRows(`\uFEFF${jsonl([poolRow('t1')])}\r\n${JSON.stringify({ id: 'w:9', title: 't', text: 'x' })}`, 'pool', 'p.jsonl', 'p');
    assert.deepEqual(rows.map((r) => [r.line, r.ok]), [[1, true], [3, false]]);
    const first = rows[0]!;
    assert.ok(first.ok && first.value.kind === 'pool');
    assert.deepEqual([first.value.row.id, first.value.row.source], ['t1', { pool: 'p', file: 'p.jsonl', line: 1 }]);
  });
});

describe('pool rows in the editor, read as a spec reads them (corpus resolution, declared logged fields)', () => {
  const tmp = tempDir();

  it('skips the rows an analysis skips from disk, on the same lines for the same reasons, and notes unresolved results', async () => {
    const spec = v2Spec();
    const corpusFile = tmp.write('corpus.jsonl', jsonl(v2Corpus));
    const poolFile = tmp.write('v2.jsonl', jsonl(v2Rows));
    const { model } = analyze(spec);
    const log = new IssueLog();
    const loaded = await loadInputs(tmp.dir, { corpus: { name: 'c', file: corpusFile }, pools: [{ name: 'v2', file: poolFile }] }, { cache: new InputCache(), trust: WorkspaceTrust.everything, issues: log });
    assert.ok(loaded.ok);
    const fromDisk = withLoggedFields(model, loaded.inputs, log, poolFieldReader(model, 'v2')).pools[0]!;
    const corpus = await loadCorpus(corpusFile);
    const rows = checkRows(jsonl(v2Rows), 'pool', poolFile, 'v2', { corpus: corpus.corpus, model });
    assert.deepEqual(rows.flatMap((r) => (r.ok ? [] : [[r.line, r.reason]])), fromDisk.issues.map((i) => [i.line, i.reason]));
    assert.deepEqual(rows.flatMap((r) => (r.ok ? [] : [{ line: r.line, reason: r.reason }])), v2Skipped);
    assert.deepEqual(rows.flatMap((r) => (r.ok && r.unresolved !== undefined ? [[r.line, r.unresolved]] : [])), [[2, v2Resolution.notes[0]!.reason]]);
    // The rows kept are the rows the analysis reads: markers resolved to ids.
    assert.deepEqual(rows.flatMap((r) => (r.ok && r.value.kind === 'pool' ? [r.value.row.final?.citations] : [])), fromDisk.rows.map((r) => r.final?.citations));
    assert.deepEqual(fromDisk.rows[0]!.final?.citations, ['w:1']);
  });

  it('without a corpus or a spec, the loader\'s rule alone', () => {
    const rows = checkRows(jsonl(v2Rows), 'pool', 'v2.jsonl', 'v2');
    assert.deepEqual(rows.map((r) => r.ok), [true, true, true, true, true]);
  });

  it('a file of an imported pool: its skipped records and the rows made from its records, several on one line, each read by the spec', () => {
    const row = (id: string, file: string, line: number, meta: Record<string, unknown>): Trajectory => {
      const parsed = parsePoolRow(poolRow(id, { meta }), { pool: 'p', file, line });
      assert.ok(parsed.ok);
      return parsed.value;
    };
    // Line 1 is one record holding two trajectories (an ART group); b lacks the field the spec declares.
    const loaded = {
      items: [row('a', '/d/1.jsonl', 1, { judge: 0.5 }), row('b', '/d/1.jsonl', 1, {}), row('c', '/d/1.jsonl', 3, { judge: 1 }), row('d', '/d/2.jsonl', 1, { judge: 1 })],
      issues: [{ file: '/d/1.jsonl', line: 2, reason: "no 'input' (the prompt)" }, { file: '/d/2.jsonl', line: 2, reason: 'elsewhere' }],
    };
    const { model } = analyze('corpus c = "c.jsonl"\npool p = "d/*.jsonl" from art\nfield judge "j" : number = meta.judge\nreward R { j 1 * judge }\ntraining t { reward R corpus c log p }\n');
    const rows = importedRows(loaded, '/d/1.jsonl', 'p', { model });
    assert.deepEqual(rows.map((r) => [r.line, r.ok ? (r.value.kind === 'pool' ? r.value.row.id : '') : r.reason]), [
      [1, 'a'], [1, "logged field 'judge': the row has no meta.judge"], [2, "no 'input' (the prompt)"], [3, 'c'],
    ]);
    assert.deepEqual(importedRows({ items: [], issues: [], fileError: 'x: cannot read: gone' }, '/d/1.jsonl', 'p'), [{ ok: false, line: 1, reason: 'x: cannot read: gone', wholeFile: true }]);
  });

  it('skips a row for a field only when an analysis of the pool reads it (issue 35)', () => {
    const spec = `corpus c = "c.jsonl"\npool p = "p.jsonl"\npool q = "q.jsonl"\nfield judge "j" : number = meta.judge
reward R { j 1 * judge }\nreward R_plain { em 1 * exact_match(answer, gold.answers) }
training on_p { reward R corpus c log p }\ntraining on_q { reward R_plain corpus c log q }\n`;
    const { model } = analyze(spec);
    const text = jsonl([poolRow('t1', { meta: {} })]);
    assert.deepEqual(checkRows(text, 'pool', 'q.jsonl', 'q', { model }).map((r) => r.ok), [true]);
    assert.deepEqual(checkRows(text, 'pool', 'p.jsonl', 'p', { model }).map((r) => (r.ok ? '' : r.reason)), ["logged field 'judge': the row has no meta.judge"]);
  });

  it('finds the corpus a pool is read against: the block that reads it, else the only corpus', () => {
    const { model } = analyze(v2Spec());
    assert.equal(corpusOfPool(model, 'v2'), 'c');
    assert.equal(corpusOfPool(analyze('corpus a = "a.jsonl"\ncorpus b = "b.jsonl"\npool p = "p.jsonl"\n').model, 'p'), undefined);
  });
});
