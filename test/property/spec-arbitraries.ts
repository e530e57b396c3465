import fc from 'fast-check';
import { keywords } from '../../server/src/problems/vocabulary.js';

/**
 * Generators of .reward text. `wellFormedSpec` follows the grammar of server/src/syntax/parser.ts
 * rule by rule, so every text it yields must parse without errors (it need not type-check: names
 * are drawn from a small pool so that references, duplicates and kind clashes happen often).
 * `tokenSoup` and `characterSoup` yield mostly broken text.
 */

type Tokens = string[];

const reserved = new Set(keywords);

/** Declared names, built-in fields and functions, audit words: the names a real spec uses. */
const commonNames = [
  'a', 'b', 'x', 'R0', 'R_L', 'R_full', 'L', 'U', 'F', 'wiki', 'hotpot', 'answer', 'citations', 'retrieved', 'searches',
  'question', 'has_final', 'search_calls', 'invalid_actions', 'final_text', 'gold', 'answers', 'support', 'query', 'results',
  'token_f1', 'exact_match', 'grounding', 'tokens', 'mean', 'min', 'max', 'misses', 'recall', 'repeated_queries',
  'same_final', 'fake_id', 'launder', 'lexical', 'bm25', 'asr', 'upper', 'mean_margin', 'minimal_repair',
  'first_visible', 'oracle_worst', 'corpus_ids', '_',
];

export const identifier: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...commonNames) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,9}$/).filter((s) => !reserved.has(s)) },
);

export const numberLiteral: fc.Arbitrary<string> = fc.oneof(
  fc.nat(2000).map(String),
  fc.tuple(fc.nat(99), fc.nat(999)).map(([whole, fraction]) => `${whole}.${fraction}`),
  fc.constantFrom('1e-3', '2E+4', '0.5e2', '0.0', '100', '007'),
);

/** A string literal on one line, with escapes, `#` (not a comment inside a string) and non-ASCII text. */
export const stringLiteral: fc.Arbitrary<string> = fc
  .array(fc.oneof(fc.constantFrom(...'ab z/._-#{}()=%'.split('')), fc.constantFrom('\\"', '\\\\', '\\n', 'é', 'λ', '𝔼')), { maxLength: 12 })
  .map((parts) => `"${parts.join('')}"`);

const sign = fc.constantFrom('-', '+');
const comparisonOperator = fc.constantFrom('==', '!=', '<', '<=', '>', '>=');
const optional = (arb: fc.Arbitrary<Tokens>): fc.Arbitrary<Tokens> => fc.option(arb, { nil: undefined }).map((t) => t ?? []);
const one = (arb: fc.Arbitrary<string>): fc.Arbitrary<Tokens> => arb.map((t) => [t]);
const signedNumber: fc.Arbitrary<Tokens> = fc.tuple(optional(one(sign)), numberLiteral).map(([s, n]) => [...s, n]);

/** `item (SEP item)*` with between `min` and `max` items. */
function separated(item: fc.Arbitrary<Tokens>, separator: fc.Arbitrary<string>, min: number, max: number): fc.Arbitrary<Tokens> {
  return fc
    .array(fc.tuple(separator, item), { minLength: min, maxLength: max })
    .map((parts) => parts.flatMap(([sep, tokens], i) => (i === 0 ? tokens : [sep, ...tokens])));
}

/**
 * An operator chain that is mostly a single operand: with nine grammar levels, chains of several
 * operands at every level would multiply into specs of megabytes.
 */
function chain(item: fc.Arbitrary<Tokens>, operator: fc.Arbitrary<string>): fc.Arbitrary<Tokens> {
  return fc.oneof({ weight: 5, arbitrary: item }, { weight: 1, arbitrary: separated(item, operator, 2, 3) });
}

const nameList = separated(one(identifier), fc.constant(','), 1, 4);

interface ExpressionLevels {
  readonly expression: fc.Arbitrary<Tokens>;
  readonly postfix: fc.Arbitrary<Tokens>;
}

const levels = new Map<number, ExpressionLevels>();

/**
 * The expression grammar, level by level (or, and, not, comparison, additive, multiplicative,
 * unary, postfix, primary). `depth` bounds the nesting through parentheses, calls and
 * quantifiers; levels are memoised so building depth d costs d levels, not 4^d.
 */
export function expressionLevels(depth: number): ExpressionLevels {
  const known = levels.get(depth);
  if (known !== undefined) return known;
  const inner = depth > 0 ? expressionLevels(depth - 1) : undefined;
  const atoms: fc.Arbitrary<Tokens>[] = [
    one(numberLiteral), one(stringLiteral), one(fc.constantFrom('true', 'false', 'corpus')), one(identifier),
    identifier.map((f) => [f, '(', ')']),
  ];
  const nested: fc.Arbitrary<Tokens>[] = inner === undefined ? [] : [
    fc.tuple(identifier, separated(inner.expression, fc.constant(','), 0, 3)).map(([f, args]) => [f, '(', ...args, ')']),
    separated(inner.expression, fc.constant(','), 1, 2).map((args) => ['count', '(', ...args, ')']),
    inner.expression.map((e) => ['(', ...e, ')']),
    fc.tuple(fc.constantFrom('any', 'all', 'count'), identifier, inner.postfix, inner.expression).map(([q, v, c, b]) => [q, v, 'in', ...c, ':', ...b]),
  ];
  const primary = fc.oneof({ weight: 4 * atoms.length, arbitrary: fc.oneof(...atoms) }, ...nested.map((arbitrary) => ({ weight: 1, arbitrary })));
  const postfix = fc.tuple(primary, fc.array(identifier, { maxLength: 2 })).map(([p, members]) => [...p, ...members.flatMap((m) => ['.', m])]);
  const unary = fc.tuple(fc.constantFrom(0, 0, 0, 1, 2), postfix).map(([minuses, p]) => [...Array<string>(minuses).fill('-'), ...p]);
  const multiplicative = chain(unary, fc.constantFrom('*', '/'));
  const additive = chain(multiplicative, fc.constantFrom('+', '-'));
  const comparison = fc
    .tuple(additive, fc.option(fc.tuple(fc.oneof(comparisonOperator.map((op) => [op]), fc.constant(['in']), fc.constant(['not', 'in'])), additive), { nil: undefined }))
    .map(([left, rest]) => (rest === undefined ? left : [...left, ...rest[0], ...rest[1]]));
  const not = fc.tuple(fc.constantFrom(0, 0, 0, 1, 2), comparison).map(([nots, c]) => [...Array<string>(nots).fill('not'), ...c]);
  const and = chain(not, fc.constant('and'));
  const expression = chain(and, fc.constant('or'));
  const result = { expression, postfix };
  levels.set(depth, result);
  return result;
}

const expression = expressionLevels(2).expression;
const doc = optional(one(stringLiteral));

const link = fc.tuple(fc.constantFrom('corpus', 'pool'), identifier, stringLiteral).map(([k, n, p]) => [k, n, '=', p]);
const valueDecl = fc.tuple(fc.constantFrom('signal', 'detector'), identifier, doc, expression).map(([k, n, d, e]) => [k, n, ...d, '=', ...e]);
const term = fc.tuple(identifier, signedNumber, expression).map(([n, w, e]) => [n, ...w, '*', ...e]);
const rewardBlock = fc
  .tuple(identifier, doc, fc.array(term, { maxLength: 5 }))
  .map(([n, d, terms]) => ['reward', n, ...d, '{', ...terms.flat(), '}']);
const derivedTerm = fc.tuple(sign, numberLiteral, expressionLevels(1).postfix).map(([s, w, x]) => [s, w, '*', ...x]);
const derivedReward = fc
  .tuple(identifier, doc, identifier, fc.array(derivedTerm, { maxLength: 4 }))
  .map(([n, d, base, terms]) => ['reward', n, ...d, '=', base, ...terms.flat()]);

const generator = fc.oneof(
  fc.tuple(identifier, numberLiteral).map(([g, k]) => [g, '(', k, ')']),
  stringLiteral.map((file) => ['candidates', file]),
);
const auditItem: fc.Arbitrary<Tokens> = fc.oneof(
  identifier.map((r) => ['reward', r]),
  nameList.map((names) => ['compare', ...names]),
  identifier.map((c) => ['corpus', c]),
  nameList.map((names) => ['pools', ...names]),
  fc
    .tuple(identifier, optional(identifier.map((kind) => ['=', kind])), nameList, optional(separated(generator, fc.constant(','), 1, 3).map((g) => ['using', ...g])))
    .map(([n, kind, targets, using]) => ['attack', n, ...kind, 'targets', ...targets, ...using]),
  separated(fc.tuple(identifier, signedNumber).map(([d, l]) => [d, '=', ...l]), fc.constant(','), 1, 3).map((entries) => ['lattice', ...entries]),
  fc
    .tuple(
      identifier,
      optional(optional(nameList).map((args) => ['(', ...args, ')'])),
      comparisonOperator,
      fc.oneof(
        fc.tuple(signedNumber, optional(fc.constant(['%']))).map(([n, percent]) => [...n, ...percent]),
        optional(nameList).map((set) => ['{', ...set, '}']),
      ),
    )
    .map(([metric, args, op, value]) => ['expect', metric, ...args, op, ...value]),
  fc.tuple(fc.constantFrom('seed', 'bootstrap', 'sweep'), separated(one(numberLiteral), fc.constant(','), 1, 3)).map(([k, values]) => [k, ...values]),
);
const audit = fc.tuple(identifier, doc, fc.array(auditItem, { maxLength: 8 })).map(([n, d, items]) => ['audit', n, ...d, '{', ...items.flat(), '}']);

export const declaration: fc.Arbitrary<Tokens> = fc.oneof(link, valueDecl, rewardBlock, derivedReward, audit);

/** Text of a comment: anything up to the end of its line. */
const commentText = fc.string({ unit: fc.constantFrom(...'ab #"\'(){}=-\t'.split(''), 'é', '𝔼'), maxLength: 12 }).map((s) => `#${s}`);

/** What may stand between two tokens: whitespace of every kind, and comments (each ends its line). */
const separator: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.constant(' ') },
  { weight: 3, arbitrary: fc.constantFrom('', '  ', '\t', '\n', '\n  ', '\n\n', '\n\n\n', '\r\n', '\r\n\r\n    ', '\r', '\f', '\uFEFF') },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(' ', '', '   '), commentText, fc.constantFrom('\n', '\n\n', '\r\n', '\n  ')).map(([a, c, b]) => a + c + b) },
  { weight: 1, arbitrary: fc.tuple(commentText, commentText).map(([c1, c2]) => `\n${c1}\n\n  ${c2}\n`) },
);

/** Tokens that can touch any neighbour without the two lexing as one token. */
const selfDelimiting = new Set(['(', ')', ',', '{', '}', ':', '%']);

/** Joins tokens with random separators; two tokens that could merge (`a b`, `= =`) keep a space. */
export function joinTokens(tokens: readonly string[]): fc.Arbitrary<string> {
  return fc.array(separator, { minLength: tokens.length + 1, maxLength: tokens.length + 1 }).map((separators) => {
    let text = separators[0]!;
    tokens.forEach((token, i) => {
      const before = i === 0 ? '' : separators[i]!;
      const mayTouch = i === 0 || selfDelimiting.has(token) || selfDelimiting.has(tokens[i - 1]!);
      text += (before === '' && !mayTouch ? ' ' : before) + token;
    });
    return text + separators[tokens.length]!;
  });
}

export const wellFormedSpec: fc.Arbitrary<string> = fc
  .array(declaration, { maxLength: 7 })
  .chain((decls) => joinTokens(decls.flat()));

const soupToken = fc.oneof(
  fc.constantFrom(...keywords),
  identifier,
  numberLiteral,
  stringLiteral,
  fc.constantFrom('"unterminated', '"\\', '!', '!=', '==', '=', '<', '<=', '>', '>=', '+', '-', '*', '/', '(', ')', '{', '}', ',', ':', '.', '%', '#c', '@', '$', '\u00a0'),
);

/** Random tokens (and a few stray characters), so the parser's recovery runs everywhere. */
export const tokenSoup: fc.Arbitrary<string> = fc.array(soupToken, { maxLength: 60 }).chain(joinTokens);

/** Random characters: the language's punctuation, letters, newlines and any Unicode at all. */
export const characterSoup: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'ab_1 .-+*/=!<>(){},:%#"\\\n\r\t'.split('')), maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
);
