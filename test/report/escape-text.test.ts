import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeControls } from '../../server/src/report/escape-text.js';
import { embedJson } from '../../server/src/render/report-page/page-contract.js';

describe('escapeControls', () => {
  it('shows line breaks, tabs and other controls as escapes', () => {
    assert.equal(escapeControls('a\nb\r\nc\td'), 'a\\nb\\r\\nc\\td');
    assert.equal(escapeControls('\u0000\u0007\u001b[31mred\u001b[0m\u007f\u0085\u009b'), '\\u0000\\u0007\\u001b[31mred\\u001b[0m\\u007f\\u0085\\u009b');
  });

  it('shows every bidi control and the line and paragraph separators as escapes', () => {
    const bidi = ['\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u2028', '\u2029'];
    for (const c of bidi) assert.equal(escapeControls(`x${c}y`), `x\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}y`);
  });

  it('leaves everything else as it is, and escaping twice changes nothing more', () => {
    const plain = 'R0 +0.81375 → R_L −0.38625 · λ_L ≤ 4.30% "w:2552" C:\\pools\\a.jsonl ‐ 日本 🙂 \u200b';
    assert.equal(escapeControls(plain), plain);
    const once = escapeControls('id\n\u202e');
    assert.equal(escapeControls(once), once);
  });
});

describe('embedJson', () => {
  it('writes the characters JSON leaves raw as \\u escapes, and the value decodes unchanged', () => {
    const value = { id: '</script><!--&\u202e\u2066\u2028\u0085\u007f' };
    const embedded = embedJson(value);
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    assert.doesNotMatch(embedded, /[<>&\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/);
    assert.deepEqual(JSON.parse(embedded), value);
  });
});
