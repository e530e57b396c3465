import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { bounded } from './bounded.js';
import { assertAnalyzeSound, syntaxProblems } from './invariants.js';
import { mutationsOf } from './mutations.js';
import { paperSample } from './sample.js';
import { characterSoup, tokenSoup, wellFormedSpec } from './spec-arbitraries.js';

// Run counts keep each property to a few seconds; a failure prints its seed and shrunk
// counterexample, and `fc.assert(..., { seed, path })` replays it.
describe('analyze: properties', () => {
  it('parses every grammar-generated spec without syntax errors, and stays in the document', () => {
    fc.assert(
      fc.property(wellFormedSpec, (text) => {
        assert.deepEqual(syntaxProblems(assertAnalyzeSound(text)), []);
      }),
      { numRuns: 2000, ...bounded },
    );
  });

  it('never throws on random tokens and keeps every span in the document', () => {
    fc.assert(fc.property(tokenSoup, (text) => void assertAnalyzeSound(text)), { numRuns: 3000, ...bounded });
  });

  it('never throws on random characters and keeps every span in the document', () => {
    fc.assert(fc.property(characterSoup, (text) => void assertAnalyzeSound(text)), { numRuns: 3000, ...bounded });
  });

  it('never throws on edits of the sample and keeps every span in the document', () => {
    fc.assert(fc.property(mutationsOf(paperSample), (text) => void assertAnalyzeSound(text)), { numRuns: 1500, ...bounded });
  });
});
