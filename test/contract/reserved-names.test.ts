import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { reservedNames } from '../../server/src/contract/reserved-names.js';
import { builtinFieldsByName, builtinFunctionsByName } from '../../server/src/language/builtins.js';
import { keywords } from '../../server/src/problems/vocabulary.js';

describe('contract/reserved-names.ts', () => {
  it('is every keyword and built-in name of the language (npm run docs writes it)', () => {
    const language = [...new Set([...keywords, ...builtinFieldsByName.keys(), ...builtinFunctionsByName.keys()])].sort();
    assert.deepEqual([...reservedNames], language, 'contract/reserved-names.ts is stale: run npm run docs');
  });
});
