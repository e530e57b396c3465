import type { IToken, TokenType } from 'chevrotain';
import type { AuditWordCategory } from '../semantics/symbols.js';
import type { Comment } from '../syntax/ast.js';
import * as T from '../syntax/tokens.js';
import { poolClauseWants, type ImportWant } from './import-clause.js';
import { auditItemStarts, auditWantsWithOptions } from './completion-audit-options.js';
import { editWants } from './completion-edits.js';
import { expressionEnds, is, parenDepth } from './completion-tokens.js';

// What may be written at the cursor, read from the tokens before it. Tokens rather than the AST:
// the text being typed is usually incomplete, and the recovering parser may drop the very node
// the cursor is in, while the token stream is always there.

/** A quantifier variable visible at the cursor, with the tokens of the collection it ranges over. */
export interface ScopedVariable {
  readonly name: IToken;
  readonly collection: readonly IToken[];
}

export type DeclaredKind = 'reward' | 'pool' | 'corpus' | 'detector';

export type Want =
  | { readonly kind: 'declaration-keywords' }
  | { readonly kind: 'audit-item-keywords' }
  | { readonly kind: 'keywords'; readonly words: readonly string[] }
  | { readonly kind: 'declared'; readonly declKind: DeclaredKind; readonly exclude: ReadonlySet<string> }
  | { readonly kind: 'audit-words'; readonly category: AuditWordCategory }
  /** Words of the edit algebra (verbs, modes, collections, clauses, sources), each with its doc. */
  | { readonly kind: 'edit-words'; readonly words: Readonly<Record<string, string>> }
  | { readonly kind: 'audit-rewards'; readonly auditStart: number }
  | { readonly kind: 'audit-attacks'; readonly auditStart: number }
  | { readonly kind: 'lattice-detectors'; readonly auditStart: number; readonly exclude: ReadonlySet<string> }
  | { readonly kind: 'expression'; readonly scope: readonly ScopedVariable[]; readonly visibleOnly: boolean; readonly exclude: string | undefined }
  | { readonly kind: 'members'; readonly object: readonly IToken[]; readonly scope: readonly ScopedVariable[] }
  /** Inside the string of a link (`corpus c = "…"`, `pool p = "…"`, `candidates "…"`): `typed` is its text before the cursor, `start`–`end` its contents. */
  | { readonly kind: 'path'; readonly typed: string; readonly start: number; readonly end: number }
  | ImportWant;


const wordTypes = new Set<TokenType>([T.Identifier, ...T.keywordTokens]);
const quantifiers = [T.Any, T.All, T.Count];
const continuationWords = ['and', 'or', 'in', 'not in'];

const declarationKeywords: Want = { kind: 'declaration-keywords' };
const auditItemKeywords: Want = { kind: 'audit-item-keywords' };
const nothing: Want[] = [];

function names(tokens: readonly IToken[]): Set<string> {
  return new Set(tokens.filter((t) => is(t, T.Identifier)).map((t) => t.image));
}

function endOf(token: IToken): number {
  return (token.endOffset ?? token.startOffset) + 1;
}

/** The lexer accepts a string without its closing quote; parse() then appends the quote to the image. */
function isUnterminated(token: IToken): boolean {
  return is(token, T.StringLiteral) && token.image.length !== endOf(token) - token.startOffset;
}

/**
 * `corpus` starts a declaration at the top level, but inside an expression it is the corpus's id
 * set. A declaration is `corpus NAME = …`, and an expression never puts a name right after it.
 */
function startsDeclaration(before: readonly IToken[], i: number, word: IToken | undefined): boolean {
  const token = before[i]!;
  if (is(token, T.Pool, T.Signal, T.Detector, T.Reward, T.Audit, T.Training, T.Comparison)) return true;
  // `edit NAME`: two names in a row, which no expression writes.
  if (is(token, T.Identifier) && token.image === 'edit' && is(before[i + 1] ?? word, T.Identifier)) return true;
  if (!is(token, T.Corpus)) return false;
  const next = before[i + 1] ?? word;
  if (next !== undefined) return is(next, T.Identifier);
  const previous = before[i - 1];
  return previous === undefined || is(previous, ...expressionEnds, T.RBrace);
}

/** `any x in`, `sum x in`: a quantifier or an aggregation (whose word is a name) binds `x`. */
function startsQuantifier(tokens: readonly IToken[], i: number): boolean {
  const [a, b, c] = [tokens[i], tokens[i + 1], tokens[i + 2]];
  if (a === undefined || b === undefined || c === undefined) return false;
  return (is(a, ...quantifiers) && is(b, T.Identifier) && is(c, T.In)) || T.startsAggregate(a, b, c);
}

/** Quantifier variables whose filter or body the end of `tokens` is in: after their `where` or `:`, until their group closes. */
function scopeAt(tokens: readonly IToken[]): ScopedVariable[] {
  const pending: { name: IToken; collectionStart: number; depth: number }[] = [];
  const active: (ScopedVariable & { depth: number })[] = [];
  let depth = 0;
  tokens.forEach((t, i) => {
    if (is(t, T.LParen)) depth++;
    else if (is(t, T.RParen) || is(t, T.Comma)) {
      if (is(t, T.RParen)) depth--;
      // A body ends where its parenthesis closes or its function argument ends.
      for (let k = active.length - 1; k >= 0; k--) if (active[k]!.depth > depth || (is(t, T.Comma) && active[k]!.depth === depth)) active.splice(k, 1);
    } else if (startsQuantifier(tokens, i)) {
      pending.push({ name: tokens[i + 1]!, collectionStart: i + 3, depth });
    } else if (is(t, T.Colon) || (is(t, T.Identifier) && t.image === 'where')) {
      // The variable is in scope in the `where` filter too, and stays so in the body.
      let index = pending.length - 1;
      while (index >= 0 && pending[index]!.depth !== depth) index--;
      if (index >= 0) {
        const [quantifier] = pending.splice(index, 1);
        active.push({ name: quantifier!.name, collection: tokens.slice(quantifier!.collectionStart, i), depth });
      }
    }
  });
  return active;
}

/** The postfix chain ending just before a trailing dot: `gold` in `gold.`, `s` in `s.`. */
function objectBeforeDot(tokens: readonly IToken[]): IToken[] {
  const chain: IToken[] = [];
  let i = tokens.length - 2;
  while (i >= 0 && is(tokens[i], T.Identifier, T.Corpus)) {
    chain.unshift(tokens[i]!);
    if (!is(tokens[i - 1], T.Dot)) break;
    chain.unshift(tokens[i - 1]!);
    i -= 2;
  }
  return is(chain[0], T.Dot) ? [] : chain;
}

interface ExpressionOptions {
  /** Variables bound outside the tokens (an edit operation's `s`, `x`). */
  readonly scope?: readonly ScopedVariable[];
  readonly visibleOnly: boolean;
  readonly exclude: string | undefined;
  /** After a finished operand at the outer level, a new declaration may start. */
  readonly canEndDeclaration: boolean;
  /** After a finished operand, `and`, `or`, `in` may follow (not in a derived reward's operand). */
  readonly continues: boolean;
}

function expressionWants(tokens: readonly IToken[], options: ExpressionOptions): Want[] {
  const scope = [...(options.scope ?? []), ...scopeAt(tokens)];
  const last = tokens[tokens.length - 1];
  const previous = tokens[tokens.length - 2];
  if (is(last, T.Dot)) return [{ kind: 'members', object: objectBeforeDot(tokens), scope }];
  if (is(last, ...quantifiers)) return nothing;
  if (is(last, T.Identifier) && is(previous, ...quantifiers)) return [{ kind: 'keywords', words: ['in'] }];
  // `where` after a quantifier's collection (it put the variable in scope) opens the filter: an operand comes next.
  const opensFilter = is(last, T.Identifier) && last?.image === 'where' && scopeAt(tokens).length > scopeAt(tokens.slice(0, -1)).length;
  if (last !== undefined && is(last, ...expressionEnds) && !opensFilter) {
    const depth = parenDepth(tokens);
    const wants: Want[] = [];
    const awaited = awaitedConditionalWord(tokens);
    if (awaited !== undefined) wants.push({ kind: 'keywords', words: [awaited] });
    if (options.continues || depth > 0) wants.push({ kind: 'keywords', words: continuationWords });
    if (depth <= 0 && options.canEndDeclaration) wants.push(declarationKeywords);
    return wants;
  }
  return [{ kind: 'expression', scope, visibleOnly: options.visibleOnly, exclude: options.exclude }];
}

/** The `then` or `else` that the innermost open `if … then … else` still waits for. */
function awaitedConditionalWord(tokens: readonly IToken[]): 'then' | 'else' | undefined {
  const open: ('then' | 'else')[] = [];
  for (const t of tokens) {
    if (is(t, T.If)) open.push('then');
    else if (is(t, T.Then) && open[open.length - 1] === 'then') open[open.length - 1] = 'else';
    else if (is(t, T.Else) && open[open.length - 1] === 'else') open.pop();
  }
  return open[open.length - 1];
}

function equalsWithinHeader(segment: readonly IToken[]): number {
  // NAME, an optional doc string, then `=`: the sign is at most three tokens in.
  return segment.findIndex((t, i) => i > 0 && i <= 3 && is(t, T.Equals));
}

/** After `reward NAME = BASE`: terms `± W * X`, each X a postfix operand. */
function derivedRewardWants(rest: readonly IToken[], self: string | undefined): Want[] {
  const last = rest[rest.length - 1];
  if (last === undefined) return [declarationKeywords];
  if (is(last, T.Plus, T.Minus, T.NumberLiteral)) return nothing;
  let depth = 0;
  let star = -1;
  rest.forEach((t, i) => {
    if (is(t, T.LParen)) depth++;
    else if (is(t, T.RParen)) depth--;
    else if (depth === 0 && is(t, T.Star)) star = i;
  });
  if (star < 0) return nothing;
  return expressionWants(rest.slice(star + 1), { visibleOnly: false, exclude: self, canEndDeclaration: true, continues: false });
}

function declarationWants(segment: readonly IToken[]): Want[] {
  const keyword = segment[0]!;
  const self = is(segment[1], T.Identifier) ? segment[1]!.image : undefined;
  // An edit's header may hold a `when` condition: its `=` is the first one.
  const equals = is(keyword, T.Identifier) ? segment.findIndex((t) => is(t, T.Equals)) : equalsWithinHeader(segment);
  const clause = poolClauseWants(segment);
  if (clause !== undefined) return clause;
  if (is(keyword, T.Corpus, T.Pool)) return is(segment[3], T.StringLiteral) ? [declarationKeywords] : nothing;
  if (equals < 0) return nothing;
  const body = segment.slice(equals + 1);
  if (is(keyword, T.Signal, T.Detector)) {
    return expressionWants(body, { visibleOnly: is(keyword, T.Detector), exclude: self, canEndDeclaration: true, continues: true });
  }
  if (is(keyword, T.Identifier)) return editWants(body, (tokens, scope) => expressionWants(tokens, { scope, visibleOnly: false, exclude: undefined, canEndDeclaration: false, continues: true }));
  if (is(keyword, T.Reward)) {
    if (body.length === 0) return [{ kind: 'declared', declKind: 'reward', exclude: new Set(self === undefined ? [] : [self]) }];
    return derivedRewardWants(body.slice(1), self);
  }
  return nothing;
}

/** Inside `reward NAME { … }`: terms `name WEIGHT * EXPR`. */
function rewardBlockWants(inner: readonly IToken[]): Want[] {
  let depth = 0;
  let star = -1;
  inner.forEach((t, i) => {
    if (is(t, T.LParen)) depth++;
    else if (is(t, T.RParen)) depth--;
    else if (depth === 0 && is(t, T.Star) && is(inner[i - 1], T.NumberLiteral)) star = i;
  });
  if (star < 0) return nothing;
  // After a finished term a new term's free-form name follows: offer nothing there.
  return expressionWants(inner.slice(star + 1), { visibleOnly: false, exclude: undefined, canEndDeclaration: false, continues: false });
}

function attackWants(rest: readonly IToken[]): Want[] {
  const last = rest[rest.length - 1];
  // `attack launder targets L` names the attack after its kind, so kinds come first.
  if (last === undefined) return [{ kind: 'audit-words', category: 'attack-kind' }];
  const targets = rest.findIndex((t) => is(t, T.Targets));
  const using = rest.findIndex((t) => is(t, T.Using));
  if (targets < 0) {
    if (is(last, T.Equals)) return [{ kind: 'audit-words', category: 'attack-kind' }];
    return is(last, T.Identifier) ? [{ kind: 'keywords', words: ['targets'] }] : nothing;
  }
  if (using < 0) {
    if (is(last, T.Targets, T.Comma)) return [{ kind: 'declared', declKind: 'detector', exclude: names(rest.slice(targets)) }];
    return is(last, T.Identifier) ? [{ kind: 'keywords', words: ['using'] }, auditItemKeywords] : nothing;
  }
  if (is(last, T.Using, T.Comma)) return [{ kind: 'audit-words', category: 'generator' }];
  return is(last, T.RParen, T.StringLiteral) ? [auditItemKeywords] : nothing;
}

function expectWants(rest: readonly IToken[], auditStart: number): Want[] {
  const last = rest[rest.length - 1];
  if (last === undefined) return [{ kind: 'audit-words', category: 'metric' }];
  const open = rest.findIndex((t) => is(t, T.LParen));
  const closed = rest.some((t) => is(t, T.RParen));
  if (open >= 0 && !closed) {
    if (!is(last, T.LParen, T.Comma)) return nothing;
    const argument = rest.slice(open).filter((t) => is(t, T.Comma)).length;
    if (argument === 0) return [{ kind: 'audit-rewards', auditStart }];
    if (argument === 1) return [{ kind: 'audit-attacks', auditStart }];
    return argument === 2 ? [{ kind: 'audit-words', category: 'selection' }] : nothing;
  }
  return is(last, T.NumberLiteral, T.Percent, T.RBrace) ? [auditItemKeywords] : nothing;
}

/** The tokens of the audit item the cursor is in (its keyword first); empty before the first item. */
function currentAuditItem(inner: readonly IToken[]): readonly IToken[] {
  let depth = 0;
  let start = -1;
  inner.forEach((t, i) => {
    if (is(t, T.LBrace)) depth++;
    else if (is(t, T.RBrace)) depth--;
    else if (depth === 0 && is(t, ...auditItemStarts)) start = i;
  });
  return start < 0 ? [] : inner.slice(start);
}

function auditWants(inner: readonly IToken[], auditStart: number): Want[] {
  const item = currentAuditItem(inner);
  const keyword = item[0];
  if (keyword === undefined) return [auditItemKeywords];
  const rest = item.slice(1);
  const last = rest[rest.length - 1];
  const listContinues = last === undefined || is(last, T.Comma);
  if (is(keyword, T.Reward)) return last === undefined ? [{ kind: 'declared', declKind: 'reward', exclude: new Set() }] : [auditItemKeywords];
  if (is(keyword, T.Corpus)) return last === undefined ? [{ kind: 'declared', declKind: 'corpus', exclude: new Set() }] : [auditItemKeywords];
  if (is(keyword, T.Compare, T.Pools)) {
    if (!listContinues) return [auditItemKeywords];
    return [{ kind: 'declared', declKind: is(keyword, T.Compare) ? 'reward' : 'pool', exclude: names(rest) }];
  }
  if (is(keyword, T.Attack)) return attackWants(rest);
  if (is(keyword, T.Lattice)) {
    if (listContinues) return [{ kind: 'declared', declKind: 'detector', exclude: names(rest) }];
    return is(last, T.NumberLiteral) ? [auditItemKeywords] : nothing;
  }
  if (is(keyword, T.Expect)) return expectWants(rest, auditStart);
  return is(last, T.NumberLiteral) ? [auditItemKeywords] : nothing;
}

interface Frame {
  readonly open: number;
  readonly owner: 'audit' | 'block' | 'reward' | 'set' | 'other';
}

/** What each option of a training or comparison block lists (check-blocks.ts checks the same). */
const optionValues: Readonly<Record<string, Want>> = {
  log: { kind: 'declared', declKind: 'pool', exclude: new Set() },
  base: { kind: 'declared', declKind: 'pool', exclude: new Set() },
  treatment: { kind: 'declared', declKind: 'pool', exclude: new Set() },
  detectors: { kind: 'declared', declKind: 'detector', exclude: new Set() },
  normalize: { kind: 'keywords', words: ['std', 'mean'] },
};

/**
 * Inside `training { … }` or `comparison { … }`: the audit items they borrow read as in an audit;
 * an option `key value, …` takes the names its key lists. At an item's start: the options and items.
 */
function blockWants(inner: readonly IToken[], auditStart: number, comparison: boolean): Want[] {
  const itemStart: Want[] = [{ kind: 'audit-words', category: 'option' }, { kind: 'keywords', words: comparison ? ['reward', 'corpus', 'attack', 'seed', 'bootstrap'] : ['reward', 'corpus'] }];
  // Find the last option key or item keyword before the cursor. Lists are comma-separated, so a name right after a finished value starts the next option; a
  // name right after an option's key (or a comma) is one of its values.
  let start = -1;
  let valueDone = true;
  inner.forEach((t, i) => {
    if (is(t, ...auditItemStarts)) {
      start = i;
      valueDone = false;
    } else if (is(t, T.Identifier) && valueDone) {
      start = i;
      valueDone = false;
    } else {
      // `targets`, `using` and `=` in an attack are followed by their values like a key.
      valueDone = !is(t, T.Comma, T.Minus, T.Plus, T.Targets, T.Using, T.Equals);
    }
  });
  if (start < 0) return itemStart;
  const item = inner.slice(start);
  const key = item[0]!;
  if (!is(key, T.Identifier)) {
    const wants = auditWants(item, auditStart);
    // The audit's own item keywords are not all at home here: offer the block's.
    return wants.map((w) => (w.kind === 'audit-item-keywords' ? itemStart : [w])).flat();
  }
  const last = item[item.length - 1]!;
  if (item.length === 1 || is(last, T.Comma)) return optionValues[key.image] === undefined ? nothing : [optionValues[key.image]!];
  return itemStart;
}

/** A link's string: after `corpus NAME =` or `pool NAME =`, or after `candidates`. */
function isLinkString(before: readonly IToken[], token: IToken): boolean {
  if (!is(token, T.StringLiteral)) return false;
  const n = before.length;
  return is(before[n - 1], T.Candidates) || (is(before[n - 1], T.Equals) && is(before[n - 2], T.Identifier) && is(before[n - 3], T.Corpus, T.Pool));
}

/** The path want of a cursor inside a link's string (after its opening quote). */
function pathWant(token: IToken, offset: number): Want {
  const start = token.startOffset + 1;
  const end = isUnterminated(token) ? endOf(token) : endOf(token) - 1;
  return { kind: 'path', typed: token.image.slice(1, offset - token.startOffset), start, end: Math.max(start, end) };
}

/** What the completion list at `offset` should offer. */
export function completionWants(tokens: readonly IToken[], comments: readonly Comment[], offset: number): Want[] {
  if (comments.some((c) => c.span.start < offset && offset <= c.span.end)) return nothing;
  const before: IToken[] = [];
  let word: IToken | undefined;
  for (const token of tokens) {
    if (token.startOffset >= offset) break;
    const end = endOf(token);
    if (end > offset || (end === offset && (wordTypes.has(token.tokenType) || is(token, T.NumberLiteral) || isUnterminated(token)))) {
      // The cursor is in or right after this token: a word being typed is replaced by the
      // completion; inside a link's string, files; inside another string or a number, nothing.
      if (isLinkString(before, token) && offset > token.startOffset) return [pathWant(token, offset)];
      if (!wordTypes.has(token.tokenType)) return nothing;
      word = token;
      break;
    }
    before.push(token);
  }

  let decl: number | undefined;
  let declClosed = false;
  const frames: Frame[] = [];
  before.forEach((t, i) => {
    // These keywords only ever start a declaration, so they also end a block left unclosed.
    if (is(t, T.Pool, T.Signal, T.Detector, T.Audit, T.Training, T.Comparison)) frames.length = 0;
    if (frames.length === 0 && startsDeclaration(before, i, word)) {
      decl = i;
      declClosed = false;
    } else if (is(t, T.LBrace)) {
      const outer = frames[frames.length - 1];
      const declKeyword = decl === undefined ? undefined : before[decl];
      const owner = outer === undefined
        ? (is(declKeyword, T.Audit) ? 'audit' : is(declKeyword, T.Training, T.Comparison) ? 'block' : is(declKeyword, T.Reward) ? 'reward' : 'other')
        : outer.owner === 'audit' ? 'set' : 'other';
      frames.push({ open: i, owner });
    } else if (is(t, T.RBrace) && frames.pop() !== undefined && frames.length === 0) {
      declClosed = true;
    }
  });

  if (decl === undefined || (frames.length === 0 && declClosed)) return [declarationKeywords];
  if (frames.length === 0) return declarationWants(before.slice(decl));
  const frame = frames[frames.length - 1]!;
  const auditStart = before[decl]!.startOffset;
  switch (frame.owner) {
    case 'audit':
      return auditWantsWithOptions(before.slice(frame.open + 1), () => auditWants(before.slice(frame.open + 1), auditStart));
    case 'block':
      return blockWants(before.slice(frame.open + 1), auditStart, is(before[decl], T.Comparison));
    case 'reward':
      return rewardBlockWants(before.slice(frame.open + 1));
    case 'set': {
      // `expect minimal_repair == {L, U}`: the detectors of this audit's lattice.
      const item = currentAuditItem(before.slice(frames[frames.length - 2]!.open + 1, frame.open));
      const inner = before.slice(frame.open + 1);
      const last = inner[inner.length - 1];
      if (!is(item[0], T.Expect) || (last !== undefined && !is(last, T.Comma))) return nothing;
      return [{ kind: 'lattice-detectors', auditStart, exclude: names(inner) }];
    }
    default:
      return nothing;
  }
}
