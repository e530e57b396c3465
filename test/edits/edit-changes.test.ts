// An attack's edits keep what they change as distinct change vectors and each edit's vector
// (server/src/edits/edit-changes.ts). These tests pin that the coding loses nothing: every change
// reads back as the double that was put in, parts join and subsets select to the same changes, and
// margins summed once per vector are the doubles a sum per edit gives.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AttackRun } from '../../server/src/edits/attack-run.js';
import { ChangeVectorSet, changeOf, changesFeature, joinChanges, selectChanges, vectorCount, type EditChanges } from '../../server/src/edits/edit-changes.js';
import { editMargin, pairedMargin } from '../../server/src/edits/features.js';
import { editMargins } from '../../server/src/scoring/scoring.js';
import { scoringMemo } from '../../server/src/edits/scoring-memo.js';
import { seededRandom } from '../../server/src/stats/random.js';

// Doubles whose sums round, ties that cancel exactly, and both zeros.
const values = [0, -0, 1, -1, 1 / 3, -1 / 3, 0.1, 0.2, -0.3, 1e-300, 2 ** 53, 0.5];

/** `edits` random change vectors over `features` features, of which `columns` can change, coded as an attack keeps them. */
function coded(random: () => number, edits: number, columns: readonly number[], distinct: number): { changes: EditChanges; plain: Float64Array[] } {
  const pool = Array.from({ length: distinct }, () => columns.map(() => values[Math.floor(random() * values.length)]!));
  const set = new ChangeVectorSet(columns.length);
  const vectorOf = new Int32Array(edits);
  const plain: Float64Array[] = [];
  for (let e = 0; e < edits; e++) {
    const vector = pool[Math.floor(random() * pool.length)]!;
    set.vector.set(vector);
    vectorOf[e] = set.index();
    plain.push(Float64Array.from(vector));
  }
  return { changes: { columns: Int32Array.from(columns), vectors: set.finish(), vectorOf }, plain };
}

function runOf(changes: EditChanges): AttackRun {
  return { plan: { name: 'test' }, index: { editRow: new Int32Array(changes.vectorOf.length), unitFirst: new Int32Array(0) }, changes } as unknown as AttackRun;
}

describe('edit changes as distinct vectors', () => {
  it('reads every change back as the double put in, each distinct vector kept once, 0 and −0 apart', () => {
    const random = seededRandom(7);
    const columns = [1, 2, 4, 6];
    const { changes, plain } = coded(random, 20_000, columns, 700);
    for (let e = 0; e < plain.length; e++) {
      for (let k = 0; k < 8; k++) {
        const i = columns.indexOf(k);
        assert.ok(Object.is(changeOf(changes, k, e), i < 0 ? 0 : plain[e]![i]!), `edit ${e} feature ${k}`);
      }
    }
    const keys = new Set(plain.map((v) => Array.from(v, (x) => (Object.is(x, -0) ? '-0' : String(x))).join(',')));
    assert.equal(vectorCount(changes), keys.size);

    const zeros = new ChangeVectorSet(2);
    zeros.vector.set([0, 0]);
    const plus = zeros.index();
    zeros.vector.set([-0, 0]);
    assert.notEqual(zeros.index(), plus, '−0 is another double');
    zeros.vector.set([0, 0]);
    assert.equal(zeros.index(), plus);
  });

  it('codes an attack that can change no feature as one empty vector', () => {
    const set = new ChangeVectorSet(0);
    const vectorOf = Int32Array.from({ length: 5 }, () => set.index());
    const changes = { columns: new Int32Array(0), vectors: set.finish(), vectorOf };
    assert.deepEqual([...vectorOf], [0, 0, 0, 0, 0]);
    assert.equal(vectorCount(changes), 1);
    assert.equal(changeOf(changes, 3, 2), 0);
    assert.equal(changesFeature(changes, 3), false);
  });

  it('joins parts and selects edits to the same changes, keeping only the vectors in use', () => {
    const random = seededRandom(11);
    const columns = [0, 3];
    const parts = [coded(random, 3000, columns, 40), coded(random, 1, columns, 1), coded(random, 2000, columns, 40)];
    const joined = joinChanges(Int32Array.from(columns), parts.map((p) => p.changes));
    const plain = parts.flatMap((p) => p.plain);
    assert.equal(joined.vectorOf.length, plain.length);
    plain.forEach((v, e) => columns.forEach((k, i) => assert.ok(Object.is(changeOf(joined, k, e), v[i]!), `edit ${e}`)));

    const kept = Array.from({ length: 500 }, (_, i) => i * 7);
    const selected = selectChanges(joined, kept);
    kept.forEach((e, i) => columns.forEach((k) => assert.ok(Object.is(changeOf(selected, k, i), changeOf(joined, k, e)))));
    const used = new Set(kept.map((e) => joined.vectorOf[e]));
    assert.equal(vectorCount(selected), used.size);

    // A feature changed only by edits left out is changed by none of the selection.
    const only = coded(seededRandom(3), 10, [5], 1);
    only.changes.vectorOf.fill(0);
    const mixed = joinChanges(Int32Array.from([5]), [{ ...only.changes, vectors: Float64Array.of(0) }, { columns: Int32Array.of(5), vectors: Float64Array.of(1), vectorOf: Int32Array.of(0) }]);
    assert.equal(changesFeature(mixed, 5), true);
    assert.equal(changesFeature(selectChanges(mixed, [0, 3, 9]), 5), false);
  });

  it('gives every edit the margin a sum over its own changes gives, with ties made exact', () => {
    const random = seededRandom(5);
    const columns = [0, 1, 2, 4];
    const { changes, plain } = coded(random, 5000, columns, 300);
    const features = 6;
    const zeros = new Float64Array(features);
    for (const weights of [Float64Array.of(1, -1, 0.6, 0, -1.2, 0), Float64Array.of(0.1, 0.2, -0.3, 5, 0, 1), Float64Array.of(0, 0, 0, 0, 0, 0)]) {
      const margins = editMargins(runOf(changes), weights, scoringMemo());
      plain.forEach((vector, e) => {
        const full = new Float64Array(features);
        columns.forEach((k, i) => (full[k] = vector[i]!));
        const expected = pairedMargin(weights, full, 0, zeros, 0);
        assert.ok(Object.is(margins.at(e), expected), `edit ${e}: ${margins.at(e)} against ${expected}`);
        assert.ok(Object.is(editMargin(weights, changes, e), expected));
      });
    }
  });

  it('names the first edit whose margin overflows a double', () => {
    const set = new ChangeVectorSet(1);
    const vectorOf = Int32Array.from([1, 1e308, 1e308], (d) => {
      set.vector[0] = d;
      return set.index();
    });
    const run = runOf({ columns: Int32Array.of(0), vectors: set.finish(), vectorOf });
    (run.index.editRow as Int32Array).set([4, 5, 6]);
    assert.throws(() => editMargins(run, Float64Array.of(10), scoringMemo()), (error: Error & { row?: number }) => error.row === 5 && /overflow a double/.test(error.message));
  });
});
