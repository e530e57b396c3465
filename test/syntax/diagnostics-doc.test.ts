import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { renderDiagnosticsDoc } from '../../server/src/problems/diagnostics-doc.js';
import { issueCodes } from '../../server/src/problems/issue-codes.js';

it('docs/diagnostics.md is generated from the issue-code table and has a heading per code', () => {
  const doc = readFileSync('docs/diagnostics.md', 'utf8');
  assert.equal(doc, renderDiagnosticsDoc(), 'run npm run docs');
  for (const code of Object.values(issueCodes)) assert.match(doc, new RegExp(`^## ${code}$`, 'm'));
});
