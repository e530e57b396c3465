// Attack operators on a v2 row with tool and reasoning steps: what an edit changes in the steps or
// the citations is exactly what `steps`, `retrieved`, `searches`, `calls` and `citations` read on
// the edited view, and the worked pair's edited JSON drops the same steps.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isRetrieval as isRetrievalStep } from '../../server/src/language/steps.js';
import { fakeIdEdits, launderEdits, sameFinalEdit } from './prelude-edits.js';
import { editedRow } from '../../server/src/lsp/worked-pair.js';
import { viewOf } from '../../server/src/language/view.js';
import { evaluate, parsed, toolRow, toolView, v1Row, v1View } from '../language/v2-rows.js';

describe('same_final on a v2 row', () => {
  const original = toolView();
  const edit = sameFinalEdit(original);
  assert.ok(edit);
  const edited = edit.view;

  it('deletes every search and every tool call with results, and keeps every other step in order', () => {
    assert.deepEqual(edited.steps.map((s) => (s.type === 'tool' ? s.tool : s.type)), ['reasoning', 'reasoning', 'calculator', 'invalid']);
    assert.deepEqual(edited.steps, original.steps.filter((s) => !isRetrievalStep(s)));
  });

  it('leaves nothing retrieved, no searches, the same invalid actions, reasoning and final', () => {
    assert.equal(edited.retrieved.size, 0);
    assert.deepEqual(edited.searches, []);
    assert.equal(edited.invalidActions, original.invalidActions);
    assert.deepEqual(edited.citations, original.citations);
    assert.equal(edited.finalText, original.finalText);
    assert.equal(edited.finalStatus, 'stop');
  });

  it('is what the language reads on the edited view', () => {
    const reads = (expr: string): [number, number] => [evaluate(expr, original), evaluate(expr, edited)];
    assert.deepEqual(reads('count(steps)'), [7, 4]);
    assert.deepEqual(reads('calls("search") + calls("get_document") + calls("visit")'), [3, 0]);
    assert.deepEqual(reads('calls("calculator")'), [1, 1]);
    assert.deepEqual(reads('count(reasoning)'), [2, 2]);
    assert.deepEqual(reads('search_calls'), [1, 0]);
    assert.deepEqual(reads('any c in citations: c not in retrieved'), [0, 1]);
    assert.deepEqual(reads('count s in steps: count(s.results) > 0'), [2, 0]);
  });

  it('needs a final and a retrieval step: a tool call with results is one', () => {
    const onlyTools = viewOf(parsed({ ...toolRow, steps: toolRow.steps.filter((s) => s.type !== 'search') }));
    assert.ok(sameFinalEdit(onlyTools));
    const noRetrieval = viewOf(parsed({ ...toolRow, steps: toolRow.steps.filter((s) => s.type === 'reasoning' || (s.type === 'tool' && s.tool === 'calculator')) }));
    assert.equal(sameFinalEdit(noRetrieval), undefined);
    assert.equal(sameFinalEdit(viewOf(parsed({ ...toolRow, final: null }))), undefined);
  });

  it('is the v1 edit on a v1 row: the searches go, the invalid actions stay', () => {
    const v1 = sameFinalEdit(v1View());
    assert.ok(v1);
    assert.deepEqual(v1.view.steps, [{ type: 'invalid', text: '<search>' }]);
    assert.deepEqual(v1.view.searches, []);
    assert.equal(v1.view.retrieved.size, 0);
    assert.equal(v1.view.invalidActions, 1);
  });

  it('the worked pair\'s edited JSON drops exactly the steps the edit drops', () => {
    const row = editedRow(toolRow, { edit });
    assert.deepEqual(viewOf(parsed(row)).steps, edited.steps);
    const v1 = sameFinalEdit(v1View())!;
    assert.deepEqual(viewOf(parsed(editedRow(v1Row, { edit: v1 }))).steps, v1.view.steps);
  });
});

describe('citation edits on a v2 row', () => {
  const original = toolView();

  it('fake_id changes the citation only: the steps and what they retrieved stay the same objects', () => {
    const first = [...fakeIdEdits('dr-1', original, new Set(['w:1', 'w:2', 'w:3']))][0]!;
    assert.deepEqual(first.view.citations, ['fake:dr-1:0', 'w:1']);
    assert.equal(first.view.steps, original.steps);
    assert.equal(first.view.retrieved, original.retrieved);
    assert.equal(first.view.finalText, '<answer>the Newarn</answer> [fake:dr-1:0] [w:1]');
  });

  it('launder puts a never-retrieved id in: the edited view reads it as cited and not retrieved', () => {
    const [edit] = [...launderEdits(original, (position) => (position === 0 ? ['w:4'] : []))];
    assert.ok(edit);
    assert.deepEqual(edit.view.citations, ['w:4', 'w:1']);
    assert.equal(evaluate('any c in citations: c not in retrieved', original), 0);
    assert.equal(evaluate('any c in citations: c not in retrieved', edit.view), 1);
    assert.equal(evaluate('calls("get_document")', edit.view), 1);
  });
});
