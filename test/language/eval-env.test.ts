// What evaluation environments over one corpus share: its ids and its normalised passages, kept with
// the corpus object (language/eval-env.ts), so a re-audit's environment does not normalise again
// what the last one did, and another corpus never sees them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { corpusEnv } from '../../server/src/language/eval-env.js';
import { normalizeAnswer } from '../../server/src/language/text.js';
import type { Corpus, Passage } from '../../server/src/pool/types.js';

const passagesOf = (title: string, text: string): Map<string, Passage> => new Map([['d1', { id: 'd1', title, text }]]);
const corpusOf = (passages: Map<string, Passage>): Corpus => ({ file: 'corpus.jsonl', passages });

describe('evaluation environments', () => {
  it('normalise a passage as normalizeAnswer does its title and text, and know only corpus ids', () => {
    const env = corpusEnv(corpusOf(passagesOf('The Title', 'An  ANSWER, here.')));
    assert.equal(env.normalizedPassage('d1'), normalizeAnswer('The Title An  ANSWER, here.'));
    assert.equal(env.normalizedPassage('d2'), undefined);
    assert.deepEqual([...env.corpusIds], ['d1']);
  });

  it('over the same corpus share what was normalised; over another corpus they do not', () => {
    const passages = passagesOf('The Title', 'first text');
    const corpus = corpusOf(passages);
    const first = corpusEnv(corpus);
    const seen = first.normalizedPassage('d1');
    assert.equal(seen, normalizeAnswer('The Title first text'));
    // A corpus is never changed once loaded; changing it here shows which environment normalises again.
    passages.set('d1', { id: 'd1', title: 'The Title', text: 'second text' });
    assert.equal(corpusEnv(corpus).normalizedPassage('d1'), seen, 'a later environment over the same corpus reads the kept normalisation');
    assert.equal(corpusEnv(corpus).corpusIds, first.corpusIds, 'and the same id set');
    const other = corpusOf(passagesOf('Other', 'third text'));
    assert.equal(corpusEnv(other).normalizedPassage('d1'), normalizeAnswer('Other third text'));
  });
});
