import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withLoggedFields } from '../../server/src/edits/logged-field-rows.js';
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

describe('withLoggedFields', () => {
  it('skips rows without a declared field or with another type, with the reason, once in the log', () => {
    const { model, problems } = analyze(spec);
    assert.deepEqual(problems, []);
    const rows = [row(1, { judge: { score: 0.5 }, ok: true }), row(2, { judge: {}, ok: true }), row(3, { judge: { score: 1 }, ok: 'yes' })];
    const log = new IssueLog();
    const filtered = withLoggedFields(model, inputsOf(rows), log);
    assert.deepEqual(filtered.pools[0]!.rows.map((r) => r.source.line), [1]);
    assert.deepEqual(filtered.pools[0]!.issues, [
      { file: 'p.jsonl', line: 9, reason: 'earlier' },
      { file: 'p.jsonl', line: 2, reason: "logged field 'judge': the row has no meta.judge.score" },
      { file: 'p.jsonl', line: 3, reason: "logged field 'ok': meta.ok is string, not a boolean" },
    ]);
    assert.deepEqual(log.issues.map((i) => `${i.file}:${i.line}`), ['/abs/p.jsonl:2', '/abs/p.jsonl:3']);
    withLoggedFields(model, inputsOf(rows), log);
    assert.equal(log.issues.length, 2, 'a second analysis of the pool adds no duplicate');
  });

  it('leaves the inputs as they are when the spec declares no field', () => {
    const { model } = analyze('signal s = 1\nreward R { x 1 * s }\n');
    const inputs = inputsOf([row(1, {})]);
    assert.equal(withLoggedFields(model, inputs, new IssueLog()), inputs);
  });
});
