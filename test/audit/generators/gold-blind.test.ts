import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBm25Index, createBm25Generator } from '../../../server/src/candidates/bm25.js';
import { createFileGenerator } from '../../../server/src/candidates/candidates-file.js';
import type { CandidateGenerator } from '../../../server/src/candidates/generator.js';
import { buildLexicalIndex, createLexicalGenerator } from '../../../server/src/candidates/lexical.js';
import type { Trajectory } from '../../../server/src/pool/types.js';
import { commandRequests, requestLines } from '../../../server/src/candidates/command.js';
import { corpusOf, passage, trajectory } from './fixtures.js';

// Generation may read only visible fields. Two trajectories that differ only in gold must get the
// same candidates, and a trajectory whose gold cannot even be read must still get them.
const corpus = corpusOf([
  passage('g1', 'Paris', 'Paris is the capital of France.'),
  passage('g2', 'Lyon', 'Lyon is a city in France.'),
  passage('g3', 'Berlin', 'Berlin is the capital of Germany.'),
  passage('g4', 'Seine', 'The Seine flows through Paris.'),
]);
const generators: CandidateGenerator[] = [
  ...[1, 2, 4, 8].map((k) => createLexicalGenerator(buildLexicalIndex(corpus), k)),
  ...[1, 2, 4, 8].map((k) => createBm25Generator(buildBm25Index(corpus), k)),
  createFileGenerator([{ traj_id: 't', citation_index: 0, candidates: ['g3', 'g2', 'g1'] }], corpus),
];
const question = 'What is the capital of France?';
const a = trajectory('t', question, 'Paris', { answers: ['Paris'], support_ids: ['g1'] });
const b = trajectory('t', question, 'Paris', { answers: ['Berlin', 'Germany capital'], support_ids: ['g3', 'g4'] });
const sealed: Trajectory = Object.defineProperty({ ...a }, 'gold', {
  get() {
    throw new Error('a generator read gold');
  },
}) as Trajectory;
const exclude = new Set(['g4']);

describe('generators never read gold', () => {
  for (const generator of generators) {
    it(`${generator.label}: different gold, same candidates; unreadable gold, same candidates`, () => {
      const fromA = generator.candidates({ trajectory: a, citationIndex: 0, exclude });
      assert.ok(fromA.length > 0, 'the test needs a nonempty candidate list to mean anything');
      assert.deepEqual(generator.candidates({ trajectory: b, citationIndex: 0, exclude }), fromA);
      assert.deepEqual(generator.candidates({ trajectory: sealed, citationIndex: 0, exclude }), fromA);
    });
  }

  it('the visible answer does change lexical candidates (so the check above is not vacuous)', () => {
    const generate = createLexicalGenerator(buildLexicalIndex(corpus), 1);
    const berlin = trajectory('t', 'Which city?', 'Berlin Germany');
    const seine = trajectory('t', 'Which city?', 'Seine flows');
    assert.notDeepEqual(generate.candidates({ trajectory: berlin, citationIndex: 0, exclude: new Set() }), generate.candidates({ trajectory: seine, citationIndex: 0, exclude: new Set() }));
  });
});

describe('every generator keeps its contract', () => {
  for (const generator of generators) {
    it(`${generator.label}: only corpus ids, none excluded, no repeats`, () => {
      const out = generator.candidates({ trajectory: a, citationIndex: 0, exclude });
      for (const id of out) {
        assert.ok(corpus.passages.has(id), id);
        assert.ok(!exclude.has(id), id);
      }
      assert.equal(new Set(out).size, out.length);
    });
  }
});

describe('a command generator is never sent gold', () => {
  it('the stdin of candidates command: different gold, same bytes; unreadable gold, same bytes', () => {
    const stdin = requestLines(commandRequests([a]));
    assert.ok(stdin.length > 0);
    assert.equal(requestLines(commandRequests([b])), stdin);
    assert.equal(requestLines(commandRequests([sealed])), stdin);
  });
});
