import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { renderCstTypes } from '../../server/src/syntax/cst-types-text.js';

it('server/src/syntax/cst-types.d.ts is what the grammar generates now (run npm run docs)', () => {
  assert.equal(readFileSync('server/src/syntax/cst-types.d.ts', 'utf8'), renderCstTypes());
});
