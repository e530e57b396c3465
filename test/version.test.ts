import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { heraldVersion } from '../server/src/version.js';

it('the product version in the code matches package.json', () => {
  assert.equal(heraldVersion, (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version);
});
