import fc from 'fast-check';
import { rewardLexer } from '../../server/src/syntax/tokens.js';

/**
 * Edits of a valid spec of the kinds a person makes while typing: characters, tokens or lines
 * deleted, inserted, duplicated or swapped, and the text cut off. Each edit names its place as a
 * fraction of the current text, so a sequence of edits stays meaningful as the text changes.
 */
export interface Mutation {
  readonly kind:
    | 'delete-chars' | 'insert-chars' | 'duplicate-chars'
    | 'delete-token' | 'duplicate-token' | 'swap-tokens'
    | 'delete-line' | 'duplicate-line' | 'swap-lines' | 'truncate';
  readonly at: number;
  readonly length: number;
  readonly insert: string;
}

/** Characters that matter to the lexer and parser, plus letters and a character it rejects. */
const typed = fc.string({ unit: fc.constantFrom(...'aZ_7 .-+*/=!<>(){},:%#"\\\n\t'.split(''), '@', 'é'), minLength: 1, maxLength: 6 });

export const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom<Mutation['kind']>(
    'delete-chars', 'insert-chars', 'duplicate-chars', 'delete-token', 'duplicate-token', 'swap-tokens',
    'delete-line', 'duplicate-line', 'swap-lines', 'truncate',
  ),
  at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
  length: fc.integer({ min: 1, max: 12 }),
  insert: typed,
});

interface Piece {
  readonly start: number;
  readonly end: number;
}

function replacePiece(text: string, piece: Piece, replacement: string): string {
  return text.slice(0, piece.start) + replacement + text.slice(piece.end);
}

function swapPieces(text: string, first: Piece, second: Piece): string {
  return text.slice(0, first.start) + text.slice(second.start, second.end) + text.slice(first.end, second.start) + text.slice(first.start, first.end) + text.slice(second.end);
}

function tokenPieces(text: string): Piece[] {
  return rewardLexer.tokenize(text).tokens.map((t) => ({ start: t.startOffset, end: (t.endOffset ?? t.startOffset) + 1 }));
}

function linePieces(text: string): Piece[] {
  const pieces: Piece[] = [];
  const pattern = /[^\n]*(\n|$)/g;
  for (let match = pattern.exec(text); match !== null && match[0] !== ''; match = pattern.exec(text)) {
    pieces.push({ start: match.index, end: match.index + match[0].length });
  }
  return pieces;
}

/** Applies one edit; an edit that has nothing to act on (no tokens left, say) leaves the text alone. */
export function applyMutation(text: string, m: Mutation): string {
  const position = Math.floor(m.at * (text.length + 1));
  const chars: Piece = { start: position, end: Math.min(text.length, position + m.length) };
  const pick = (pieces: Piece[]): number => Math.floor(m.at * pieces.length);
  switch (m.kind) {
    case 'delete-chars':
      return replacePiece(text, chars, '');
    case 'insert-chars':
      return replacePiece(text, { start: position, end: position }, m.insert);
    case 'duplicate-chars':
      return replacePiece(text, { start: chars.end, end: chars.end }, text.slice(chars.start, chars.end));
    case 'truncate':
      return text.slice(0, position);
    case 'delete-token':
    case 'duplicate-token':
    case 'swap-tokens':
    case 'delete-line':
    case 'duplicate-line':
    case 'swap-lines': {
      const pieces = m.kind.endsWith('line') || m.kind.endsWith('lines') ? linePieces(text) : tokenPieces(text);
      const i = pick(pieces);
      const piece = pieces[i];
      if (piece === undefined) return text;
      if (m.kind.startsWith('delete')) return replacePiece(text, piece, '');
      if (m.kind.startsWith('duplicate')) {
        const copy = text.slice(piece.start, piece.end);
        return replacePiece(text, { start: piece.end, end: piece.end }, m.kind === 'duplicate-token' ? ` ${copy}` : copy);
      }
      const next = pieces[i + 1];
      return next === undefined ? text : swapPieces(text, piece, next);
    }
  }
}

/** One to four edits of `base`, applied in order. */
export function mutationsOf(base: string): fc.Arbitrary<string> {
  return fc.array(mutation, { minLength: 1, maxLength: 4 }).map((edits) => edits.reduce(applyMutation, base));
}
