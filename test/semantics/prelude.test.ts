// The prelude: the paper's three attack kinds are definitions in the edit algebra, checked like a
// spec's own, and docs/language.md shows exactly this text.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { prelude, preludeText } from '../../server/src/semantics/prelude.js';

describe('the prelude', () => {
  it('defines same_final, fake_id and launder, visible, with their write sets', () => {
    assert.deepEqual([...prelude.edits.keys()], ['same_final', 'fake_id', 'launder']);
    assert.deepEqual([...prelude.edits.values()].map((e) => [e.name, e.visibility, [...e.writes].sort(), e.generated]), [
      ['same_final', 'visible', ['steps'], false],
      ['fake_id', 'visible', ['citations', 'final_text'], false],
      ['launder', 'visible', ['citations', 'final_text'], true],
    ]);
  });

  it('is shown word for word in docs/language.md', () => {
    assert.ok(readFileSync('docs/language.md', 'utf8').includes(preludeText.trimEnd()));
  });
});
