import { describe, it } from 'node:test';
import fc from 'fast-check';
import { bounded } from './bounded.js';
import { assertFormatSound } from './invariants.js';
import { mutationsOf } from './mutations.js';
import { paperSample } from './sample.js';
import { characterSoup, tokenSoup, wellFormedSpec } from './spec-arbitraries.js';

describe('formatSpec: properties', () => {
  it('keeps tokens and comments, meaning and itself on grammar-generated specs', () => {
    fc.assert(fc.property(wellFormedSpec, assertFormatSound), { numRuns: 1000, ...bounded });
  });

  it('keeps tokens and comments, meaning and itself on edits of the sample', () => {
    fc.assert(fc.property(mutationsOf(paperSample), assertFormatSound), { numRuns: 1500, ...bounded });
  });

  it('leaves random tokens and characters alone unless they parse, and never throws', () => {
    fc.assert(fc.property(fc.oneof(tokenSoup, characterSoup), assertFormatSound), { numRuns: 3000, ...bounded });
  });
});
