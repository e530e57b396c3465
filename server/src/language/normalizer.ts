import { LRUCache } from 'lru-cache';
import { answerTokens, normalizeAnswer, normalizeSpaced, normalizeSquadSpaced } from './text.js';

/** A normalisation as the answer functions use it; `tokens` are shared, never to be changed. */
export interface Normalizer {
  normalize(text: string): string;
  tokens(text: string): readonly string[];
}

/**
 * The normalisations an answer metric can be asked for by name (its last argument); `squad` is the
 * default. docs/language.md ("Normalisations") says which project uses which.
 */
export const normalizations = {
  squad: normalizeAnswer,
  spaced: normalizeSpaced,
  squad_spaced: normalizeSquadSpaced,
} as const satisfies Record<string, (text: string) => string>;

export type Normalization = keyof typeof normalizations;

export function isNormalization(name: string): name is Normalization {
  return Object.hasOwn(normalizations, name);
}

const wordsOf = (normalized: string): string[] => (normalized.length === 0 ? [] : normalized.split(' '));

/** Normalises every time: for callers that see each text once (per-row metrics, retention). */
export const plainNormalizer: Normalizer = { normalize: normalizeAnswer, tokens: answerTokens };

/** `plainNormalizer` for a named normalisation. */
export function plainNormalizerFor(name: Normalization): Normalizer {
  const normalize = normalizations[name];
  return name === 'squad' ? plainNormalizer : { normalize, tokens: (text) => wordsOf(normalize(text)) };
}

// An audit normalises the same short texts (an answer, a gold answer, a query) once per edit of a
// trajectory, and a training pool has a million edits; the edits of one trajectory are evaluated
// together, so the texts in use at any time are few. The cache allocates its slots up front (about
// 1 ms per thousand), hence a few thousand. Texts past `cachedTextLength` (passages, raw finals)
// rarely repeat and would crowd the short ones out, so they are normalised every time.
const cachedTextLength = 256;
const cachedTexts = 1 << 12;

/** Remembers the most recently used short texts; owned by an evaluation environment and gone with it. */
export function cachingNormalizer(name: Normalization = 'squad'): Normalizer {
  const base = normalizations[name];
  const normalized = new LRUCache<string, string>({ max: cachedTexts });
  const tokens = new LRUCache<string, readonly string[]>({ max: cachedTexts });
  const remember = <T extends object | string>(cache: LRUCache<string, T>, text: string, compute: (text: string) => T): T => {
    if (text.length > cachedTextLength) return compute(text);
    let value = cache.get(text);
    if (value === undefined) cache.set(text, (value = compute(text)));
    return value;
  };
  const normalize = (text: string): string => remember(normalized, text, base);
  return {
    normalize,
    tokens: (text) => remember(tokens, text, (t) => wordsOf(normalize(t))),
  };
}
