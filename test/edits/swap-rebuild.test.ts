// An edit that is one citation swap: its variants come from one flat loop (`swapVariants`), the
// general engine's variants in the same order; and a kept one is rebuilt from the position and id its
// run kept (`swapRebuilder`, used when a new term is evaluated on the kept edits), the very variant
// the engine builds, view for view, for every source that names the id it puts in; no rebuilder for
// an edit of another shape.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { editVariants, swapRebuilder, type Edit, type EditContext } from '../../server/src/edits/edit-program.js';
import { loadCorpus, loadPool } from '../../server/src/inputs/loaders.js';
import { corpusEnv } from '../../server/src/language/eval-env.js';
import { viewOf, type TrajectoryView } from '../../server/src/language/view.js';
import { compileEdit, type CompiledEdit } from '../../server/src/reward/compile-edit.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { preludeEdit } from './prelude-edits.js';

function declared(spec: string, name: string): CompiledEdit {
  const { model, problems } = analyze(spec);
  assert.deepEqual(problems, []);
  return compileEdit(model, model.edits.get(name)!);
}

/** Each row of a sample pool as an edit reads it: its view, and the context an attack builds its edits in. */
async function sampleRows(): Promise<{ id: string; original: TrajectoryView; ctx: EditContext }[]> {
  const corpus = (await loadCorpus(path.resolve('samples/pools/corpus.jsonl'))).corpus;
  const rows = (await loadPool(path.resolve('samples/pools/hotpot.jsonl'), 'hotpot')).items;
  const env = corpusEnv(corpus);
  const ids = [...corpus.passages.keys()];
  return rows.map((row, r) => {
    const original = viewOf(row);
    // Candidates that differ by position and row, the row's citations among them, as ranked candidates may.
    const candidatesAt = (position: number): string[] => [ids[(r + position) % ids.length]!, ...original.citations, ids[(r * 7 + 3) % ids.length]!];
    return { id: row.id, original, ctx: { trajectoryId: row.id, env, candidatesAt } };
  });
}

describe('a one-citation swap rebuilt from what its run kept', () => {
  it('is the variant the engine built, for the prelude and a declared swap, on every row of a sample pool', async () => {
    const rows = await sampleRows();
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
      for (const { id, original, ctx } of rows) {
        for (const built of editVariants(edit, original, ctx)) {
          const again: Edit = rebuild(original, built.position!, built.replacement!);
          assert.deepEqual(again, built, `${edit.name} on row ${id} at ${built.position}`);
          assert.equal(again.view.swap?.original, original);
          compared++;
          if (again.view.finalText !== original.finalText) rewritten++;
        }
      }
    }
    assert.ok(compared > 100, `compared ${compared} variants`);
    assert.ok(rewritten > 0, 'some variants rewrite the final text');
  });

  it('the flat loop of a one-replace edit gives the variants the general engine gives, in order', async () => {
    // The same replace after a `set` that changes nothing goes through the general engine
    // (`applyOp`, `replacements`): its variants are the flat loop's but for the swap mark.
    const rows = await sampleRows();
    const sources = [
      'with generated',
      'with fake_id',
      'with x in retrieved where x != c',
      'with x in gold.support where x != c',
    ];
    let compared = 0;
    for (const source of sources) {
      const flat = declared(`edit swap "s" = replace each c in citations ${source}`, 'swap');
      const general = declared(`edit swap "s" = set answer = answer, replace each c in citations ${source}`, 'swap');
      const unmarked = (edit: Edit): unknown => ({ ...edit, view: { ...edit.view, swap: undefined } });
      for (const { id, original, ctx } of rows) {
        const fromFlat = [...editVariants(flat, original, ctx)];
        assert.ok(fromFlat.every((edit) => edit.view.swap?.original === original && edit.view.swap.position === edit.position), source);
        assert.deepEqual(fromFlat.map(unmarked), [...editVariants(general, original, ctx)].map(unmarked), `${source} on row ${id}`);
        compared += fromFlat.length;
      }
    }
    assert.ok(compared > 100, `compared ${compared} variants`);
  });

  it('is not offered for a rank marker moved, several operations or another verb', () => {
    assert.equal(swapRebuilder(declared('edit move "m" = replace each c in citations with other_ranks', 'move')), undefined);
    assert.equal(swapRebuilder(declared('edit two "t" = replace each c in citations with fake_id, set answer = "x"', 'two')), undefined);
    assert.equal(swapRebuilder(preludeEdit('same_final')), undefined);
    assert.equal(swapRebuilder(declared('edit drop "d" = delete each c in citations', 'drop')), undefined);
  });
});
