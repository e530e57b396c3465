#!/usr/bin/env node
// A small "dense-style" laundering-candidate generator for `candidates command` (docs/generators.md).
// Node only, no network, no packages: every passage and every query becomes a 256-dimensional
// vector by signed feature hashing of its words and word pairs (FNV-1a), weighted by inverse
// document frequency and normalised; candidates are the passages of highest cosine similarity.
// It stands in for a real dense retriever (an embedding model over the same corpus): the protocol
// is the same, only the vectors differ. Deterministic: the same corpus and requests give the same
// output, byte for byte.
//
//   node dense-retriever.mjs --corpus ../pools/corpus.jsonl --k 16 < requests.jsonl > answers.jsonl
//
// Reads one request per stdin line ({"request", "question", "answer", "retrieved", "cited", …}; no
// gold field is ever sent) and writes one answer per request: {"request": N, "candidates": [ids]}.
// Progress goes to stderr, which herald shows while the command runs.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && at + 1 < args.length ? args[at + 1] : fallback;
};
const corpusFile = option('corpus', '../pools/corpus.jsonl');
const k = Number(option('k', '16'));
const dims = Number(option('dims', '256'));

const stop = new Set('a an and are as at be by for from has have in is it its of on or that the this to was were which who with what when where how did does do'.split(' '));
const words = (text) => (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length > 1 && !stop.has(w));
const features = (text) => {
  const w = words(text);
  const out = [...w];
  for (let i = 0; i + 1 < w.length; i++) out.push(`${w[i]} ${w[i + 1]}`);
  return out;
};
const fnv1a = (text) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
};

const passages = readFileSync(corpusFile, 'utf8').split('\n').filter((l) => l.trim().length > 0).map((l) => JSON.parse(l));
const documentFrequency = new Map();
const passageFeatures = passages.map((p) => {
  const f = features(`${p.title} ${p.text}`);
  for (const x of new Set(f)) documentFrequency.set(x, (documentFrequency.get(x) ?? 0) + 1);
  return f;
});
const idf = (x) => Math.log((passages.length + 1) / ((documentFrequency.get(x) ?? 0) + 1)) + 1;

function embed(feats) {
  const v = new Float64Array(dims);
  const counts = new Map();
  for (const x of feats) counts.set(x, (counts.get(x) ?? 0) + 1);
  for (const [x, c] of counts) {
    const h = fnv1a(x);
    v[h % dims] += ((h >>> 31) === 1 ? -1 : 1) * (1 + Math.log(c)) * idf(x);
  }
  let norm = 0;
  for (const value of v) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < dims; i++) v[i] /= norm;
  return v;
}

const vectors = passageFeatures.map(embed);
const memo = new Map();
function ranked(text) {
  let ids = memo.get(text);
  if (ids !== undefined) return ids;
  const q = embed(features(text));
  const scored = vectors.map((v, i) => {
    let s = 0;
    for (let d = 0; d < dims; d++) s += v[d] * q[d];
    return [s, i];
  });
  scored.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  ids = scored.slice(0, k + 64).map(([, i]) => passages[i].id);
  memo.set(text, ids);
  return ids;
}

let answered = 0;
const out = [];
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim().length === 0) continue;
  const request = JSON.parse(line);
  const skip = new Set([...request.retrieved, ...request.cited]);
  const candidates = ranked(`${request.question} ${request.answer}`).filter((id) => !skip.has(id)).slice(0, k);
  out.push(JSON.stringify({ request: request.request, candidates }));
  answered += 1;
  if (answered % 500 === 0) process.stderr.write(`dense-retriever: ${answered} requests\n`);
}
process.stdout.write(out.length === 0 ? '' : `${out.join('\n')}\n`);
