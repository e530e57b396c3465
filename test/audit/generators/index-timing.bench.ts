// Prints (never asserts) how long the generator indexes take to build and to answer queries over
// a synthetic corpus. Run after the type-check: node out/test/audit/generators/index-timing.bench.js
import { performance } from 'node:perf_hooks';
import { buildBm25Index, createBm25Generator } from '../../../server/src/candidates/bm25.js';
import type { CandidateGenerator } from '../../../server/src/candidates/generator.js';
import { buildLexicalIndex, createLexicalGenerator } from '../../../server/src/candidates/lexical.js';
import type { Passage } from '../../../server/src/pool/types.js';
import { corpusOf, trajectory } from './fixtures.js';

const numbers = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const passages = Number(numbers[0] ?? 5000);
const queries = Number(numbers[1] ?? 1000);

// A seeded generator, so every run measures the same corpus.
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
const random = lcg(42);
// Zipf (s = 1) over 50,000 ranks, without the 100 most frequent (the stop words contentWords drops):
// the commonest remaining word is in about one passage in ten, most words are rare, as in real text.
// `--heavy` instead draws a much steeper law whose commonest words are in nearly every passage, a
// worst case for any inverted index.
const heavy = process.argv.includes('--heavy');
const ranks = 50_000;
const stopRanks = 100;
function rank(): number {
  if (heavy) return Math.floor(20_000 * random() ** 3);
  for (;;) {
    const r = Math.floor(ranks ** random());
    if (r > stopRanks) return r;
  }
}
const word = (): string => `w${rank().toString(36)}x`;
const words = (n: number): string => Array.from({ length: n }, word).join(' ');

const corpus = corpusOf(Array.from({ length: passages }, (_, i): Passage => ({ id: `w:${i}`, title: words(3), text: words(100) })));
const requests = Array.from({ length: queries }, (_, i) => ({
  trajectory: trajectory(`t${i}`, words(12), words(2)),
  citationIndex: 0,
  exclude: new Set(Array.from({ length: 5 }, () => `w:${Math.floor(random() * passages)}`)),
}));

function time<T>(what: string, run: () => T): T {
  const start = performance.now();
  const value = run();
  console.log(`${what.padEnd(44)} ${(performance.now() - start).toFixed(1).padStart(8)} ms`);
  return value;
}

function answerAll(generator: CandidateGenerator): number {
  let total = 0;
  for (const request of requests) total += generator.candidates(request).length;
  return total;
}

console.log(`synthetic corpus (${heavy ? 'heavy-tailed' : 'Zipf'}): ${passages} passages of 103 words; ${queries} distinct queries of 14 words`);
const lexical = time('lexical: build inverted index', () => buildLexicalIndex(corpus));
time(`lexical: ${queries} queries, budget 8 (cold)`, () => answerAll(createLexicalGenerator(lexical, 8)));
time(`lexical: same ${queries}, budget 16 (memo)`, () => answerAll(createLexicalGenerator(lexical, 16)));
const lexicalNoMemo = buildLexicalIndex(corpus, { capacity: 0 });
time(`lexical: ${queries} queries, budget 16, no memo`, () => answerAll(createLexicalGenerator(lexicalNoMemo, 16)));
const bm25 = time('bm25: build MiniSearch index', () => buildBm25Index(corpus));
time(`bm25: ${queries} queries, budget 8 (cold)`, () => answerAll(createBm25Generator(bm25, 8)));
time(`bm25: same ${queries}, budget 16 (memo)`, () => answerAll(createBm25Generator(bm25, 16)));
const bm25NoMemo = buildBm25Index(corpus, { capacity: 0 });
time(`bm25: ${queries} queries, budget 16, no memo`, () => answerAll(createBm25Generator(bm25NoMemo, 16)));
