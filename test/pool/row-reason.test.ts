import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeValue, formatPath } from '../../server/src/pool/row-reason.js';

describe('row reasons', () => {
  it('write field paths as a user would', () => {
    assert.equal(formatPath(['steps', 2, 'results']), 'steps[2].results');
    assert.equal(formatPath(['meta', 'odd key']), 'meta["odd key"]');
    assert.equal(formatPath([]), 'row');
  });

  it('name JSON values by their kind only, never the value (a linked file may hold secrets)', () => {
    assert.deepEqual([null, [], {}, '', 'x', 1.5, 7, true].map(describeValue), ['null', 'an array', 'an object', 'an empty string', 'a string', 'a fractional number', 'an integer', 'a boolean']);
  });
});
