import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { aggregateWords, declarationWords, keywordDefs, keywords, quantifierWords } from '../../server/src/problems/vocabulary.js';
import { Identifier, keywordTokens, rewardLexer } from '../../server/src/syntax/tokens.js';

const sorted = (words: Iterable<string>): string[] => [...new Set(words)].sort();
const alternation = (group: string): string[] => sorted(group.split('|'));

describe('vocabulary', () => {
  it('declares each keyword once, with a doc and at least one role', () => {
    assert.equal(new Set(keywords).size, keywords.length);
    for (const k of keywordDefs) {
      assert.ok(k.doc.length > 0, k.word);
      const roles = Object.keys(k).filter((key) => key !== 'word' && key !== 'doc');
      assert.ok(roles.length > 0, `${k.word} has no role`);
    }
  });

  it('gives the lexer one token per keyword, and keeps longer names and prefixes identifiers', () => {
    assert.equal(keywordTokens.length, keywords.length);
    for (const word of keywords) {
      const { tokens, errors } = rewardLexer.tokenize(`${word} ${word}s ${word}_x x${word}`);
      assert.deepEqual(errors, []);
      assert.equal(tokens[0]!.image, word);
      assert.ok(keywordTokens.includes(tokens[0]!.tokenType), word);
      // `pools` is a keyword of its own; every other longer word is a name.
      for (const t of tokens.slice(1)) assert.ok(t.tokenType === Identifier || keywords.includes(t.image), t.image);
    }
  });
});

it('docs/language.md lists the reserved words', () => {
  const listed = /Keywords \(reserved\):\s*`([^`]*)`/.exec(readFileSync('docs/language.md', 'utf8'))?.[1];
  assert.deepEqual(sorted(listed?.split(/\s+/) ?? []), sorted(keywords));
});

// The TextMate grammar cannot import the vocabulary, so this test holds its word lists to it.
describe('the TextMate grammar lists the vocabulary\'s words', () => {
  const grammar = readFileSync('syntaxes/reward.tmLanguage.json', 'utf8');
  const repository = (JSON.parse(grammar) as { repository: Record<string, { match?: string; patterns?: { match?: string }[] }> }).repository;
  const captured = (pattern: RegExp): string[][] => [...grammar.matchAll(pattern)].map((m) => alternation(m[1]!));
  const inAuditBlock = sorted(keywordDefs.filter((k) => k.auditItem !== undefined || k.attackClause === true).map((k) => k.word));

  it('reserves every keyword, and only keywords, where a name is declared', () => {
    const lists = captured(/\(\?!\(\?:([a-z|]+)\)\\\\b\)/g);
    assert.ok(lists.length > 0);
    for (const list of lists) assert.deepEqual(list, sorted(keywords));
  });

  it('ends a block at the declaration keywords', () => {
    const lists = captured(/\\\\b\(\?:([a-z|]+)\)\\\\s\+\(\?!/g);
    assert.ok(lists.length > 0);
    for (const list of lists) assert.deepEqual(list, sorted(declarationWords));
  });

  it('colours the audit items, the attack clauses, the quantifiers, the aggregations and the word operators', () => {
    const words = (match: string | undefined): string[] => alternation(/\((?:\?:)?([a-z|]+)\)/.exec(match ?? '')![1]!);
    assert.deepEqual(words(repository['audit-keyword']?.match), inAuditBlock);
    assert.deepEqual(words(repository['reserved-audit-keyword']?.match), inAuditBlock.filter((w) => !declarationWords.some((d) => d === w)));
    assert.deepEqual(words(repository['quantifier']?.patterns?.[1]?.match), sorted(quantifierWords));
    assert.deepEqual(words(repository['quantifier']?.patterns?.[2]?.match), sorted(aggregateWords));
    assert.deepEqual(words(repository['word-operator']?.match), sorted(keywordDefs.filter((k) => k.operator === true).map((k) => k.word)));
    assert.deepEqual(words(repository['boolean']?.match), sorted(keywordDefs.filter((k) => k.constant === true).map((k) => k.word)));
  });
});
