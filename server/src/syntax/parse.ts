import type { ICstVisitor, IRecognitionException, IToken } from 'chevrotain';
import { auditItemWords, declarationWords, quantifierWords, settingWords, wordList } from '../problems/vocabulary.js';
import type { Comment, Spec } from './ast.js';
import type { Span } from '../problems/span.js';
import { buildDecls } from './build-ast.js';
import type { RewardCstVisitor } from './cst-types.js';
import { issueCodes } from '../problems/issue-codes.js';
import { maxSpecLength } from '../problems/limits.js';
import { firstLineEncoding } from '../problems/text-encoding.js';
import { rewardParser } from './parser.js';
import type { Problem } from '../problems/problem.js';
import { limitNesting } from './nesting.js';
import { NumberLiteral, rewardLexer, StringLiteral, UnterminatedString } from './tokens.js';

export interface ParseResult {
  readonly spec: Spec;
  readonly tokens: readonly IToken[];
  readonly problems: readonly Problem[];
}

/** The grammar's rules by name (from the generated visitor interface), so a renamed rule breaks this table. */
type RuleName = Exclude<keyof RewardCstVisitor<unknown, unknown>, keyof ICstVisitor<unknown, unknown>>;

const aDeclaration = `a declaration (${wordList(declarationWords)})`;

/** What a rule stands for, for messages like "expected an expression". */
const ruleDescriptions: Partial<Record<RuleName, string>> = {
  spec: aDeclaration,
  declaration: aDeclaration,
  rewardDecl: "'{' with terms, or '=' and a base reward",
  term: 'a term: a name, a weight, \'*\' and an expression',
  auditItem: `an audit item (${wordList(auditItemWords)})`,
  // The generators are built-ins (semantics/builtins.ts), which the syntax stage does not read.
  generator: "a generator: lexical(K), bm25(K) or candidates \"file.jsonl\"",
  expectItem: 'a number or a {set} of detectors',
  comparisonOperator: 'a comparison (==, !=, <, <=, >, >=)',
  settingItem: wordList(settingWords),
  prefixedOperand: 'an expression',
  unary: 'an expression',
  primary: 'an expression',
  quantifier: wordList(quantifierWords),
  aggregate: "an aggregation: sum, max, min or mean, a variable, 'in' and a collection",
  signedNumber: 'a number',
  nameList: 'a name',
  latticeEntry: 'a detector and its penalty (L = 1.2)',
  argumentList: "'('",
};
const descriptionOf = new Map<string, string | undefined>(Object.entries(ruleDescriptions));

/** Long enough to recognise a token, short enough that a megabyte string does not become a message. */
const shownTokenLength = 40;
const describeToken = (t: IToken): string => {
  if (t.tokenType.name === 'EOF') return 'the end of the file';
  return t.image.length <= shownTokenLength ? `'${t.image}'` : `'${t.image.slice(0, shownTokenLength)}…'`;
};

function messageFor(e: IRecognitionException): string {
  const found = describeToken(e.token);
  const rule = e.context.ruleStack[e.context.ruleStack.length - 1] ?? 'spec';
  switch (e.name) {
    case 'MismatchedTokenException': {
      const expected = /--> (.*?) <--/.exec(e.message)?.[1];
      if (expected === 'EOF') return `unexpected ${found}: expected ${aDeclaration}`;
      return `expected ${expected ?? 'something else'} but found ${found}`;
    }
    case 'NotAllInputParsedException':
      return `unexpected ${found}: expected ${aDeclaration}`;
    default:
      return `expected ${descriptionOf.get(rule) ?? 'more input'} but found ${found}`;
  }
}

/** Place an error on the offending token, or just after the last real token at the end of input. */
function errorSpan(e: IRecognitionException, text: string, tokens: readonly IToken[]): Span {
  const t = e.token;
  if (!Number.isNaN(t.startOffset) && t.tokenType.name !== 'EOF') return { start: t.startOffset, end: (t.endOffset ?? t.startOffset) + 1 };
  const previous = tokens[tokens.length - 1];
  const at = previous === undefined ? text.length : (previous.endOffset ?? previous.startOffset) + 1;
  return { start: at, end: at };
}

/** A spec that is not lexed at all: no declarations, and one error at its start that says why. */
function refused(text: string, code: Problem['code'], message: string): ParseResult {
  return {
    spec: { kind: 'spec', decls: [], comments: [], span: { start: 0, end: text.length } },
    tokens: [],
    problems: [{ code, severity: 'error', message, span: { start: 0, end: 0 } }],
  };
}

/**
 * Why a spec is not lexed, or undefined. Past the size limit its tokens alone would take gigabytes,
 * and every keystroke would pay for them. Saved as UTF-16 (or a binary file) and read as UTF-8, it
 * is a NUL between every two characters: one error, not one per line (problems/text-encoding.ts,
 * the rule data files follow too).
 */
function refusal(text: string): ParseResult | undefined {
  if (text.length > maxSpecLength) {
    const size = text.length.toLocaleString('en-US');
    return refused(text, issueCodes.specTooLarge, `this spec has ${size} characters, more than the ${maxSpecLength.toLocaleString('en-US')} a spec may have: it is not checked or audited. Split it into smaller specs`);
  }
  const newline = text.indexOf('\n');
  switch (firstLineEncoding(newline < 0 ? text : text.slice(0, newline))) {
    case 'utf-16':
      return refused(text, issueCodes.lexError, 'the spec is UTF-16 text; save it as UTF-8');
    case 'binary':
      return refused(text, issueCodes.lexError, 'the spec is not text: its first line holds NUL characters (binary content); save it as UTF-8 text');
    case undefined:
      return undefined;
  }
}

/**
 * Where the first escape other than `\\` and `\"` of a string token starts, or −1. A spec string
 * has only those two: any other backslash would silently vanish (`"\n"` is `n`), which changes what
 * a pattern, a `count_of` or a `concat` reads without a word.
 */
function lostEscape(image: string): number {
  for (let i = 1; i < image.length; i++) {
    if (image[i] !== '\\') continue;
    if (image[i + 1] !== '\\' && image[i + 1] !== '"') return i;
    i++;
  }
  return -1;
}

/** Lexes and parses a spec. Pure: never throws, always returns an AST (possibly partial). */
/**
 * Texts parsed by this thread so far. The analysis host promises one parse per document version
 * (the server thread's; the worker and every analysis read the bound model), and its tests hold it
 * to that by counting here.
 */
let parses = 0;
export const parsesSoFar = (): number => parses;

export function parse(text: string): ParseResult {
  parses++;
  const refusedSpec = refusal(text);
  if (refusedSpec !== undefined) return refusedSpec;
  const lexed = rewardLexer.tokenize(text);
  const problems: Problem[] = lexed.errors.map((e) => ({
    code: issueCodes.lexError,
    severity: 'error',
    message: `unexpected character '${text.slice(e.offset, e.offset + e.length)}'`,
    span: { start: e.offset, end: e.offset + e.length },
  }));
  const tokens = lexed.tokens.map((t) => {
    if (t.tokenType === NumberLiteral && !Number.isFinite(Number(t.image))) {
      problems.push({
        code: issueCodes.nonFiniteNumber,
        severity: 'error',
        message: `${t.image} is too large for a double: it would be Infinity, and every margin it enters would be NaN`,
        span: { start: t.startOffset, end: (t.endOffset ?? t.startOffset) + 1 },
      });
    }
    if (t.tokenType === StringLiteral || t.tokenType === UnterminatedString) {
      const escape = lostEscape(t.image);
      if (escape >= 0) {
        const written = t.image.slice(escape, escape + 2);
        problems.push({
          code: issueCodes.badEscape,
          severity: 'error',
          message: `in a spec string \`${written}\` is just \`${written.slice(1)}\` (only \`\\\\\` and \`\\"\` are escapes): write \`\\${written}\` for a backslash and ${written.slice(1)}, which a pattern reads as RE2's \`${written}\``,
          span: { start: t.startOffset + escape, end: t.startOffset + escape + written.length },
        });
      }
    }
    if (t.tokenType !== UnterminatedString) return t;
    problems.push({
      code: issueCodes.unterminatedString,
      severity: 'error',
      message: 'this string has no closing quote on its line',
      span: { start: t.startOffset, end: (t.endOffset ?? t.startOffset) + 1 },
    });
    // Parse on as if the quote were there, so one missing quote costs one error.
    return { ...t, tokenType: StringLiteral, tokenTypeIdx: StringLiteral.tokenTypeIdx!, image: `${t.image}"` };
  });

  const limited = limitNesting(tokens, text.length);
  for (const problem of limited.problems) problems.push(problem);
  rewardParser.input = limited.tokens;
  const cst = rewardParser.spec();
  // A recovered parse can report the same spot more than once; keep the first message.
  const seen = new Set<number>();
  const inCut = (span: Span): boolean => limited.cuts.some((c) => span.start >= c.start && span.start <= c.end);
  for (const e of rewardParser.errors) {
    const span = errorSpan(e, text, limited.tokens);
    if (seen.has(span.start) || inCut(span)) continue;
    seen.add(span.start);
    problems.push({ code: issueCodes.parseError, severity: 'error', message: messageFor(e), span });
  }

  const comments: Comment[] = (lexed.groups['comments'] ?? []).map((t) => ({
    text: t.image,
    span: { start: t.startOffset, end: (t.endOffset ?? t.startOffset) + 1 },
  }));
  const decls = cst === undefined ? [] : buildDecls(cst);
  return { spec: { kind: 'spec', decls, comments, span: { start: 0, end: text.length } }, tokens, problems };
}
