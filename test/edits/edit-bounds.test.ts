// The bounds on what one edit may add to a trajectory (problems/limits.ts): operations compound, so a
// few lines of spec once asked for gigabytes ("Invalid string length", "Set maximum size exceeded").
// Past a bound the edit stops with an AuditError naming the edit and the row, before the longer
// list or text is built.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuditError } from '../../server/src/edits/audit-error.js';
import { editVariants, type Edit } from '../../server/src/edits/edit-program.js';
import { corpusEnv } from '../../server/src/language/eval-env.js';
import type { TrajectoryView } from '../../server/src/language/view.js';
import { issueCodes } from '../../server/src/problems/issue-codes.js';
import { maxEditAddedCharacters, maxEditAddedElements, maxEditOperations } from '../../server/src/problems/limits.js';
import { compileEdit } from '../../server/src/reward/compile-edit.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { v1View } from '../language/v2-rows.js';

const corpus = { file: 'c.jsonl', passages: new Map(['w:1', 'w:2', 'w:4'].map((id) => [id, { id, title: id, text: `Text of ${id}.` }])) };

/** Every variant of the edit `name` that `spec` declares, applied to `view` as row 7 of an audit. */
function variantsOf(spec: string, name: string, view: TrajectoryView): Edit[] {
  const { model, problems } = analyze(spec);
  assert.deepEqual(problems.filter((p) => p.severity === 'error'), []);
  const compiled = compileEdit(model, model.edits.get(name)!);
  return [...editVariants(compiled, view, { trajectoryId: 't', env: corpusEnv(corpus), candidatesAt: () => [], row: 7 })];
}

const repeated = (op: string, times: number): string => Array.from({ length: times }, () => op).join(', ');

/** Runs `f`, which must throw an AuditError on row 7 naming `edit` and matching `reason`, within a generous time. */
function stopsQuickly(f: () => unknown, edit: string, reason: RegExp): void {
  const started = Date.now();
  assert.throws(f, (error: unknown) => {
    assert.ok(error instanceof AuditError, String(error));
    assert.equal(error.row, 7);
    assert.match(error.message, new RegExp(`^edit '${edit}': `));
    assert.match(error.message, reason);
    return true;
  });
  assert.ok(Date.now() - started < 20_000, `took ${Date.now() - started} ms`);
}

describe('edit bounds', () => {
  it('refuses an edit of more operations than the bound at check time (40 doublings of the answer)', () => {
    const { problems } = analyze(`edit double "d" = ${repeated('set answer = concat(answer, answer)', 40)}`);
    assert.deepEqual(problems.map((p) => p.code), [issueCodes.badEdit]);
    assert.ok(maxEditOperations < 40);
  });

  it('stops an edit that doubles the answer past the character bound, naming the edit and the row', () => {
    const spec = `edit double "d" = ${repeated('set answer = concat(answer, answer)', maxEditOperations)}`;
    stopsQuickly(() => variantsOf(spec, 'double', v1View()), 'double', /characters to the answer and final text, more than the 10,000,000 an edit may add/);
  });

  it('stops 30 doublings of the steps before the steps are built, naming the edit and the row', () => {
    const spec = `edit dup "d" = ${repeated('duplicate all s in steps', 30)}`;
    stopsQuickly(() => variantsOf(spec, 'dup', v1View()), 'dup', /would add 12,285 steps and citations, more than the 10,000 an edit may add/);
  });

  it('stops doubling the citations by append too', () => {
    const spec = `edit cite "c" = ${repeated('append all x in citations to citations', 30)}`;
    stopsQuickly(() => variantsOf(spec, 'cite', v1View()), 'cite', /steps and citations, more than the 10,000/);
  });

  it('lets an edit add exactly the bound, and not one more', () => {
    const at = (answer: string): TrajectoryView => ({ ...v1View(), answer, finalText: '' });
    const spec = 'edit pad "p" = set answer = concat(answer, answer)';
    assert.equal(variantsOf(spec, 'pad', at('a'.repeat(maxEditAddedCharacters)))[0]!.view.answer.length, 2 * maxEditAddedCharacters);
    stopsQuickly(() => variantsOf(spec, 'pad', at('a'.repeat(maxEditAddedCharacters + 1))), 'pad', /a variant would add 10,000,001 characters to the answer and final text, more than the 10,000,000 an edit may add/);
    const steps = (n: number): TrajectoryView => ({ ...v1View(), steps: Array.from({ length: n }, () => v1View().steps[0]!) });
    assert.equal(variantsOf('edit dup "d" = duplicate all s in steps', 'dup', steps(maxEditAddedElements))[0]!.view.steps.length, 2 * maxEditAddedElements);
    stopsQuickly(() => variantsOf('edit dup "d" = duplicate all s in steps', 'dup', steps(maxEditAddedElements + 1)), 'dup', /10,001 steps/);
  });

  it('leaves a normal edit as it was: two doublings of three steps and the answer padded', () => {
    const [edit, ...rest] = variantsOf('edit grow "g" = duplicate all s in steps, duplicate all s in steps, set answer = concat(answer, " ", question)', 'grow', v1View());
    assert.equal(rest.length, 0);
    assert.equal(edit!.view.steps.length, 12);
    assert.equal(edit!.view.answer, 'Paris What is the capital of France?');
  });

  it('names the edit when a condition of it is past an evaluation bound (a matches on too long a text)', () => {
    const view = { ...v1View(), steps: [{ type: 'reasoning' as const, text: 'a'.repeat(2 ** 24) }] };
    stopsQuickly(() => variantsOf('edit drop "d" = delete all s in steps where matches(s.text, "a[ab]{40}$")', 'drop', view), 'drop', /past the matching bound/);
  });
});
