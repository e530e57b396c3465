// A kept edit that swaps one citation is rebuilt from the position and id its run kept
// (`swapRebuilder`, used when a new term is evaluated on the kept edits): the very variant the
// engine builds, view for view, for every source that names the id it puts in; no rebuilder for an
// edit of another shape.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { editVariants, swapRebuilder, type Edit } from '../../server/src/edits/edit-program.js';
import { loadCorpus, loadPool } from '../../server/src/inputs/loaders.js';
import { corpusEnv } from '../../server/src/language/eval-env.js';
import { viewOf } from '../../server/src/language/view.js';
import { compileEdit, type CompiledEdit } from '../../server/src/reward/compile-edit.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { preludeEdit } from './prelude-edits.js';

function declared(spec: string, name: string): CompiledEdit {
  const { model, problems } = analyze(spec);
  assert.deepEqual(problems, []);
  return compileEdit(model, model.edits.get(name)!);
}

describe('a one-citation swap rebuilt from what its run kept', () => {
  it('is the variant the engine built, for the prelude and a declared swap, on every row of a sample pool', async () => {
    const corpus = (await loadCorpus(path.resolve('samples/pools/corpus.jsonl'))).corpus;
    const rows = (await loadPool(path.resolve('samples/pools/hotpot.jsonl'), 'hotpot')).items;
    const env = corpusEnv(corpus);
    const ids = [...corpus.passages.keys()];
    const edits = [
      preludeEdit('launder'),
      preludeEdit('fake_id'),
      declared('edit retrieved_swap "a citation for another retrieved passage" = replace each c in citations where c in corpus with x in retrieved where x != c', 'retrieved_swap'),
    ];
    let compared = 0;
    let rewritten = 0;
    for (const edit of edits) {
      const rebuild = swapRebuilder(edit);
      assert.ok(rebuild !== undefined, edit.name);
      rows.forEach((row, r) => {
        const original = viewOf(row);
        // Candidates that differ by position and row, a cited id among them, as ranked candidates do.
        const candidatesAt = (position: number): string[] => [ids[(r + position) % ids.length]!, ids[(r * 7 + 3) % ids.length]!, ...original.citations.slice(0, 1)];
        for (const built of editVariants(edit, original, { trajectoryId: row.id, env, candidatesAt })) {
          const again: Edit = rebuild(original, built.position!, built.replacement!);
          assert.deepEqual(again, built, `${edit.name} on row ${row.id} at ${built.position}`);
          assert.equal(again.view.swap?.original, original);
          compared++;
          if (again.view.finalText !== original.finalText) rewritten++;
        }
      });
    }
    assert.ok(compared > 100, `compared ${compared} variants`);
    assert.ok(rewritten > 0, 'some variants rewrite the final text');
  });

  it('is not offered for a rank marker moved, several operations or another verb', () => {
    assert.equal(swapRebuilder(declared('edit move "m" = replace each c in citations with other_ranks', 'move')), undefined);
    assert.equal(swapRebuilder(declared('edit two "t" = replace each c in citations with fake_id, set answer = "x"', 'two')), undefined);
    assert.equal(swapRebuilder(preludeEdit('same_final')), undefined);
    assert.equal(swapRebuilder(declared('edit drop "d" = delete each c in citations', 'drop')), undefined);
  });
});
