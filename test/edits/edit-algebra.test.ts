// The edit algebra on hand-built rows: each attack the issue names, written as an `edit`, checked,
// compiled and applied as an audit applies it; what each variant changes is what the language
// reads on it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { editVariants, type Edit } from '../../server/src/edits/edit-program.js';
import { corpusEnv } from '../../server/src/language/eval-env.js';
import { viewOf, type TrajectoryView } from '../../server/src/language/view.js';
import { compileEdit } from '../../server/src/reward/compile-edit.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { evaluate, parsed, toolView, v1Row } from '../language/v2-rows.js';

const corpus = { file: 'c.jsonl', passages: new Map(['w:1', 'w:2', 'w:3', 'w:4', 'w:5'].map((id) => [id, { id, title: id, text: `Text of ${id}.` }])) };

/** The edit `name` declared by `edits`, checked (no problem allowed) and compiled. */
function variantsOf(edits: string, name: string, view: TrajectoryView, candidates: readonly string[] = []): Edit[] {
  const { model, problems } = analyze(edits);
  assert.deepEqual(problems, []);
  const compiled = compileEdit(model, model.edits.get(name)!);
  return [...editVariants(compiled, view, { trajectoryId: 't', env: corpusEnv(corpus), candidatesAt: () => candidates })];
}

function visibilityOf(edits: string, name: string): string {
  return analyze(edits).model.edits.get(name)!.visibility;
}

describe('the edit algebra: the attacks of the paper and of real rewards', () => {
  it('repeated query: one variant per search, the copy right after it, repeated_queries 0 → 1', () => {
    const view = viewOf(parsed(v1Row));
    const edits = variantsOf('edit repeat "repeat one search" = duplicate each s in steps where s.type == "search"', 'repeat', view);
    assert.equal(edits.length, 2);
    assert.deepEqual(edits.map((e) => e.position), [0, 2]);
    assert.deepEqual(edits[0]!.stepOrigin, [0, 0, 1, 2]);
    assert.deepEqual(edits.map((e) => [evaluate('repeated_queries()', view), evaluate('repeated_queries()', e.view)]), [[0, 1], [0, 1]]);
    assert.deepEqual(edits.map((e) => evaluate('search_calls', e.view)), [3, 3]);
    assert.deepEqual(edits[0]!.view.citations, view.citations);
  });

  it('oracle unsupported citation: a cited support passage swapped for a retrieved one that is not, labelled oracle', () => {
    const spec = 'edit unsupported "swap support for non-support" = replace each c in citations where c in gold.support with x in retrieved where x not in gold.support';
    const view = viewOf(parsed(v1Row));
    const edits = variantsOf(spec, 'unsupported', view);
    // w:1 is the one support id cited; w:2 and w:4 were retrieved and are not support.
    assert.deepEqual(edits.map((e) => [e.position, e.replacement, e.view.citations]), [[0, 'w:2', ['w:2']], [0, 'w:4', ['w:4']]]);
    assert.equal(edits[0]!.view.finalText, '<answer>Paris</answer> [w:2]');
    assert.equal(visibilityOf(spec, 'unsupported'), 'oracle');
    assert.equal(evaluate('any c in citations: c not in retrieved', edits[0]!.view), 0, 'L stays 0: the swap is isolated from L');
  });

  it('answer padding: the question appended to the answer and the final text, and sub-EM turns 0 → 1 on a comparison question', () => {
    const row = { ...v1Row, question: 'Which is older, Paris or Lyon?', final: { answer: 'Lyon', citations: ['w:1'], text: '<answer>Lyon</answer> [w:1]' } };
    const view = viewOf(parsed(row));
    const [edit, ...rest] = variantsOf('edit pad "append the question" = set answer = concat(answer, " ", question), set final_text = concat(final_text, " ", question)', 'pad', view);
    assert.equal(rest.length, 0);
    assert.equal(edit!.view.answer, 'Lyon Which is older, Paris or Lyon?');
    assert.equal(edit!.view.finalText, '<answer>Lyon</answer> [w:1] Which is older, Paris or Lyon?');
    const subEm = 'any a in gold.answers: contains(answer, a)';
    assert.deepEqual([evaluate(subEm, view), evaluate(subEm, edit!.view)], [0, 1]);
    assert.equal(visibilityOf('edit pad "p" = set answer = concat(answer, " ", question)', 'pad'), 'visible');
  });

  it('citation stuffing: every retrieved id not yet cited appended, in order, as one variant', () => {
    const view = viewOf(parsed(v1Row));
    const edits = variantsOf('edit stuff "cite everything" = append all x in retrieved where x not in citations to citations', 'stuff', view);
    assert.deepEqual(edits.map((e) => e.view.citations), [['w:1', 'w:2', 'w:4']]);
    assert.equal(edits[0]!.position, undefined);
    assert.deepEqual(variantsOf('edit stuff "one at a time" = append each x in retrieved where x not in citations to citations', 'stuff', view).map((e) => e.replacement), ['w:2', 'w:4']);
  });

  it('dropping the reasoning: every reasoning step gone, nothing else', () => {
    const view = toolView();
    const [edit] = variantsOf('edit drop "drop reasoning" = delete all s in steps where s.type == "reasoning"', 'drop', view);
    assert.deepEqual(edit!.view.steps.map((s) => s.type), ['search', 'tool', 'tool', 'tool', 'invalid']);
    assert.deepEqual(edit!.stepOrigin, [1, 2, 4, 5, 6]);
    assert.deepEqual([evaluate('count(reasoning)', view), evaluate('count(reasoning)', edit!.view)], [2, 0]);
    assert.deepEqual([...edit!.view.retrieved].sort(), [...view.retrieved].sort());
    // A row without reasoning has no such edit: nothing would change.
    assert.deepEqual(variantsOf('edit drop "drop reasoning" = delete all s in steps where s.type == "reasoning"', 'drop', viewOf(parsed(v1Row))), []);
  });

  it('deleting every visit and get_document call: the opened documents are no longer retrieved, so L turns 0 → 1', () => {
    const view = toolView();
    const [edit] = variantsOf('edit skip "skip reading" = delete all s in steps where s.tool == "visit" or s.tool == "get_document"', 'skip', view);
    assert.deepEqual(edit!.view.steps.map((s) => (s.type === 'tool' ? s.tool : s.type)), ['reasoning', 'search', 'reasoning', 'calculator', 'invalid']);
    const L = 'any c in citations: c in corpus and c not in retrieved';
    assert.deepEqual([evaluate(L, view), evaluate(L, edit!.view)], [0, 1]);
    assert.deepEqual([evaluate('calls("get_document")', view), evaluate('calls("get_document")', edit!.view)], [1, 0]);
  });

  it('citation-marker rewrite: a [k] marker pointed at each other rank of its result list, the marker rewritten', () => {
    const base = viewOf(parsed({ ...v1Row, final: { answer: 'Paris', citations: ['w:4'], text: '<answer>Paris</answer> see [2]' } }));
    // As the loader resolves `{"marker": "[2]", "rank": 2}`: rank 2 of the last step with results (w:2, w:4).
    const view: TrajectoryView = { ...base, citationRefs: [{ marker: '[2]', rank: 2 }] };
    const edits = variantsOf('edit move "move a marker" = replace each c in citations with other_ranks', 'move', view);
    assert.deepEqual(edits.map((e) => [e.position, e.replacement, e.view.citations, e.view.finalText]), [[0, 'w:2', ['w:2'], '<answer>Paris</answer> see [1]']]);
    // Citations logged as ids have no marker to move.
    assert.deepEqual(variantsOf('edit move "m" = replace each c in citations with other_ranks', 'move', base), []);
    // In a marker of several ranks, the rank is rewritten as a whole number: `[12, 2]` → `[12, 1]`, never `[11, 2]`.
    const group: TrajectoryView = { ...base, finalText: '<answer>Paris</answer> see [12, 2]', citationRefs: [{ marker: '[12, 2]', rank: 2 }] };
    const moved = variantsOf('edit move "m" = replace each c in citations with other_ranks', 'move', group);
    assert.deepEqual(moved.map((e) => e.view.finalText), ['<answer>Paris</answer> see [12, 1]']);
  });

  it('a guard limits the edit to the trajectories where it holds', () => {
    const view = viewOf(parsed(v1Row));
    assert.equal(variantsOf('edit drop "d" when not has_final = delete all s in steps where s.type == "search"', 'drop', view).length, 0);
    assert.equal(variantsOf('edit drop "d" when has_final = delete all s in steps where s.type == "search"', 'drop', view).length, 1);
  });
});

describe('the checker on edits', () => {
  const problems = (text: string) => analyze(text).problems.map((p) => `${p.code}: ${p.message}`);

  it('says what each verb takes', () => {
    assert.match(problems('edit e "d" = replace all c in citations with fake_id').join('\n'), /'replace' takes 'each', not 'all'/);
    assert.match(problems('edit e "d" = replace each c in citations').join('\n'), /'replace' needs 'with SOURCE'/);
    assert.match(problems('edit e "d" = delete all s in retrieved').join('\n'), /'delete' changes 'steps' or 'citations'/);
    assert.match(problems('edit e "d" = append all x in retrieved').join('\n'), /'append' needs 'to citations'/);
    assert.match(problems('edit e "d" = set question = answer').join('\n'), /'set' changes answer, final_text, not 'question'/);
    assert.match(problems('edit e "d" = set answer = 3').join('\n'), /type-mismatch: the new answer must be text, not number/);
    assert.match(problems('edit same_final "d" = set answer = ""').join('\n'), /duplicate-name: 'same_final' is a built-in edit/);
  });

  it('warns when a target can never flip, by read and write sets through signals', () => {
    const spec = `corpus c = "c.jsonl"
pool p = "p.jsonl"
signal short "a short answer" = tokens(answer) < 3
detector long_answer "a long answer" = not short
detector F "cites a fake" = any c in citations: c not in corpus
reward R { a 1 * exact_match(answer, gold.answers) }
edit pad "pad" = set answer = concat(answer, " ", question)
audit a {
  reward R
  corpus c
  pools p
  attack padded = pad targets long_answer
  attack wrong = pad targets F
}
`;
    const found = analyze(spec).problems.filter((p) => p.code === 'never-eligible');
    assert.deepEqual(found.map((p) => p.message), ["'F' reads citations, corpus; edit 'pad' changes only answer: 'F' can never flip 0 → 1, so this attack has no eligible edit"]);
  });
});
