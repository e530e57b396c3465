import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldsReadBy, withLoggedFields } from '../../server/src/edits/logged-field-rows.js';
import type { AnalysisInputs } from '../../server/src/inputs/analysis-inputs.js';
import { IssueLog } from '../../server/src/inputs/load-inputs.js';
import { parsePoolRow } from '../../server/src/pool/schemas.js';
import type { Trajectory } from '../../server/src/pool/types.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { poolRow } from '../pool/temp-files.js';

// Rows that cannot give a declared logged field are skipped with the reason, like rows the loader
// refuses: the analysis goes on without them, and the report and the editor list them.

const row = (line: number, meta: Record<string, unknown>): Trajectory => {
  const parsed = parsePoolRow(poolRow(`t${line}`, { meta }), { pool: 'p', file: '/abs/p.jsonl', line });
  assert.ok(parsed.ok);
  return parsed.value;
};

const inputsOf = (rows: Trajectory[]): AnalysisInputs => ({
  corpusName: 'wiki', corpus: { file: 'c.jsonl', passages: new Map() }, corpusIssues: [],
  pools: [{ name: 'p', file: 'p.jsonl', rows, issues: [{ file: 'p.jsonl', line: 9, reason: 'earlier' }] }],
});

const spec = 'field judge "j" : number = meta.judge.score\noracle field ok "f" : boolean = meta.ok\nsignal s = if ok then judge else 0\nreward R { x 1 * s }\n';

const readsR = { rewards: ['R'], detectors: [], attacks: [] };

describe('withLoggedFields', () => {
  it('skips rows without a declared field or with another type, with the reason, once in the log', () => {
    const { model, problems } = analyze(spec);
    assert.deepEqual(problems, []);
    const rows = [row(1, { judge: { score: 0.5 }, ok: true }), row(2, { judge: {}, ok: true }), row(3, { judge: { score: 1 }, ok: 'yes' })];
    const log = new IssueLog();
    const filtered = withLoggedFields(model, inputsOf(rows), log, readsR);
    assert.deepEqual(filtered.pools[0]!.rows.map((r) => r.source.line), [1]);
    assert.deepEqual(filtered.pools[0]!.issues, [
      { file: 'p.jsonl', line: 9, reason: 'earlier' },
      { file: 'p.jsonl', line: 2, reason: "logged field 'judge': the row has no meta.judge.score" },
      { file: 'p.jsonl', line: 3, reason: "logged field 'ok': meta.ok is string, not a boolean" },
    ]);
    assert.deepEqual(log.issues.map((i) => `${i.file}:${i.line}`), ['/abs/p.jsonl:2', '/abs/p.jsonl:3']);
    withLoggedFields(model, inputsOf(rows), log, readsR);
    assert.equal(log.issues.length, 2, 'a second analysis of the pool adds no duplicate');
  });

  it('requires of an analysis only the fields it reads: a field another reward reads skips none of its rows (issue 35)', () => {
    // Before, every declared field was required of every row of every analysis: R_plain's audit tested nothing.
    const { model, problems } = analyze(`${spec}reward R_plain { em 1 * exact_match(answer, gold.answers) }\n`);
    assert.deepEqual(problems, []);
    const rows = [row(1, {}), row(2, { judge: { score: 1 }, ok: true })];
    const plain = withLoggedFields(model, inputsOf(rows), new IssueLog(), { rewards: ['R_plain'], detectors: [], attacks: [] }).pools[0]!;
    assert.deepEqual(plain.rows.map((r) => r.source.line), [1, 2]);
    assert.equal(plain.missingFields, undefined);
    const judged = withLoggedFields(model, inputsOf(rows), new IssueLog(), readsR).pools[0]!;
    assert.deepEqual(judged.rows.map((r) => r.source.line), [2]);
    // Row 1 lacks both; each field counts it.
    assert.deepEqual(judged.missingFields, [{ field: 'judge', path: 'meta.judge.score', rows: 1 }, { field: 'ok', path: 'meta.ok', rows: 1 }]);
  });

  it('reads fields through detectors, attack targets, the spec\'s edits and the fields an analysis names', () => {
    const { model, problems } = analyze(`field a "a" : number = meta.a
field b "b" : boolean = meta.b
field c "c" : number = meta.c
field d "d" : boolean = meta.d
field e "e" : number = meta.e
detector Da "a fires" = a > 0
detector Db "b fires" = b
edit pad "pad the answer when c is set" when c > 0 = set answer = concat(answer, " x")
reward R { x 1 * exact_match(answer, gold.answers)  y 0.1 * e }
`, { reportUnused: false });
    assert.deepEqual(problems, []);
    const names = (reader: Parameters<typeof fieldsReadBy>[1]): string[] => fieldsReadBy(model, reader).map((f) => f.name?.text ?? '');
    assert.deepEqual(names({ rewards: ['R'], detectors: [], attacks: [] }), ['e']);
    assert.deepEqual(names({ rewards: [], detectors: ['Da'], attacks: [] }), ['a']);
    assert.deepEqual(names({ rewards: [], detectors: [], attacks: [{ kind: 'pad', targets: ['Db'] }] }), ['b', 'c']);
    assert.deepEqual(names({ rewards: [], detectors: [], attacks: [{ kind: 'launder', targets: [] }], fields: ['d'] }), ['d']);
  });

  it('leaves the inputs as they are when the spec declares no field', () => {
    const { model } = analyze('signal s = 1\nreward R { x 1 * s }\n');
    const inputs = inputsOf([row(1, {})]);
    assert.equal(withLoggedFields(model, inputs, new IssueLog(), readsR), inputs);
  });
});
