import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkSpec } from '../../server/src/semantics/analyze.js';
import type { SpecHashes } from '../../server/src/semantics/decl-hashes.js';

const spec = `# a comment
signal quiet "answered without searching" = has_final and search_calls == 0
detector U "no search at all" = quiet and answer != ""
detector F "cites an id that is not in the corpus" = any c in citations: c not in corpus
reward R0 {
  answer  1.0 * token_f1(answer, gold.answers)
  cost   -0.1 * search_calls
}
reward R_U = R0 - 0.5 * U
audit a {
  reward R0
  compare R_U
  corpus wiki
  pools p
  attack same_final targets U
  lattice U = 0.5
}
corpus wiki = "corpus.jsonl"
pool p = "p.jsonl"
`;

const hashesOf = (text: string): SpecHashes => checkSpec(text, '/tmp/hashes.reward').hashes;

/** The names whose hash differs between the two texts. */
function changed(before: string, after: string): string[] {
  const a = hashesOf(before);
  const b = hashesOf(after);
  const names = (map: ReadonlyMap<string, string>, other: ReadonlyMap<string, string>, prefix: string): string[] =>
    [...new Set([...map.keys(), ...other.keys()])].filter((k) => map.get(k) !== other.get(k)).map((k) => `${prefix}${k}`);
  return [...names(a.decls, b.decls, ''), ...names(a.terms, b.terms, 'term '), ...names(a.attacks, b.attacks, 'attack ')].sort();
}

describe('content hashes of declarations, terms and attacks', () => {
  it('a comment or a change of layout changes none', () => {
    assert.deepEqual(changed(spec, spec.replace('# a comment', '# another comment\n# and one more')), []);
    assert.deepEqual(changed(spec, spec.replace('answer != ""', 'answer  !=  ""').replace('  cost   -0.1', '    cost -0.1')), []);
  });

  it("a string's inner spaces are content, not layout", () => {
    assert.deepEqual(changed(spec, spec.replace('"cites an id that is not in the corpus"', '"cites an id that is  not in the corpus"')), ['F']);
  });

  it('an edit reaches the declarations, terms and attacks that use the edited one, through names, and nothing else', () => {
    assert.deepEqual(changed(spec, spec.replace('search_calls == 0', 'search_calls < 1')), ['R_U', 'U', 'a', 'attack a.same_final', 'quiet', 'term R_U.U']);
  });

  it("a weight changes its reward and what uses it, not its term's expression", () => {
    assert.deepEqual(changed(spec, spec.replace('-0.1 * search_calls', '-0.2 * search_calls')), ['R0', 'R_U', 'a']);
    assert.deepEqual(changed(spec, spec.replace('-0.1 * search_calls', '-0.1 * min(search_calls, 3)')), ['R0', 'R_U', 'a', 'term R0.cost']);
  });

  it("an audit's expect lines change its declaration's hash, not its report's", () => {
    const withExpect = spec.replace('  lattice U = 0.5\n', '  lattice U = 0.5\n  expect asr(R0, same_final, first_visible) <= 20%\n');
    const a = checkSpec(withExpect, '/tmp/hashes.reward').hashes;
    const b = checkSpec(withExpect.replace('<= 20%', '<= 25%'), '/tmp/hashes.reward').hashes;
    assert.notEqual(a.decls.get('a'), b.decls.get('a'));
    assert.equal(a.reports.get('a'), b.reports.get('a'));
    assert.notEqual(a.reports.get('a'), checkSpec(withExpect.replace('lattice U = 0.5', 'lattice U = 0.6'), '/tmp/hashes.reward').hashes.reports.get('a'));
  });

  it('a chain of declarations deeper than the call stack is hashed', () => {
    const chain = Array.from({ length: 20_000 }, (_, i) => (i === 0 ? 'signal s0 "s" = search_calls > 0' : `signal s${i} "s" = s${i - 1}`)).reverse().join('\n');
    const hashes = hashesOf(chain);
    assert.equal(hashes.decls.size, 20_000);
    assert.notEqual(hashesOf(chain.replace('search_calls > 0', 'search_calls > 1')).decls.get('s19999'), hashes.decls.get('s19999'));
  });
});
