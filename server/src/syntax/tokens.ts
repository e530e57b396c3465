import { createToken, Lexer, type IToken, type TokenType } from 'chevrotain';
import { aggregateWords, keywordDefs, quantifierWords, settingWords, type Keyword, type KeywordDef } from '../problems/vocabulary.js';

// Keywords are matched as identifiers first and then recategorised (longer_alt), so `corpus_ids`
// stays one identifier while `corpus` is the keyword.
/** Any word, a keyword or not: where the grammar takes a key that is no name of the spec's (`meta.reward`). */
export const Word = createToken({ name: 'Word', label: 'a name', pattern: Lexer.NA });
export const Identifier = createToken({ name: 'Identifier', label: 'a name', pattern: /[A-Za-z_][A-Za-z0-9_]*/, categories: [Word] });

function keywordToken(k: KeywordDef): TokenType {
  return createToken({ name: k.word[0]!.toUpperCase() + k.word.slice(1), label: `'${k.word}'`, pattern: new RegExp(k.word), longer_alt: Identifier, categories: [Word] });
}

const tokenOfWord = new Map<string, TokenType>(keywordDefs.map((k) => [k.word, keywordToken(k)]));

/** The lexer's token for a keyword; every word of the vocabulary has one. */
function tokenOf(word: Keyword): TokenType {
  return tokenOfWord.get(word)!;
}

/** Every keyword's token, in the vocabulary's order. */
export const keywordTokens: readonly TokenType[] = [...tokenOfWord.values()];

// The families of keywords the grammar takes one of, so a new setting or quantifier needs only its
// line in the vocabulary.
export const settingTokens: readonly TokenType[] = settingWords.map(tokenOf);
export const quantifierTokens: readonly TokenType[] = quantifierWords.map(tokenOf);

// The tokens the grammar and the editor features name one by one.
export const Corpus = tokenOf('corpus');
export const Pools = tokenOf('pools');
export const Pool = tokenOf('pool');
export const Field = tokenOf('field');
export const Signal = tokenOf('signal');
export const Detector = tokenOf('detector');
export const Reward = tokenOf('reward');
export const Audit = tokenOf('audit');
export const Training = tokenOf('training');
export const Comparison = tokenOf('comparison');
export const Compare = tokenOf('compare');
export const Attack = tokenOf('attack');
export const Targets = tokenOf('targets');
export const Using = tokenOf('using');
export const Candidates = tokenOf('candidates');
export const Lattice = tokenOf('lattice');
export const Expect = tokenOf('expect');
export const Conforms = tokenOf('conforms');
export const Seed = tokenOf('seed');
export const Bootstrap = tokenOf('bootstrap');
export const Sweep = tokenOf('sweep');
export const Any = tokenOf('any');
export const All = tokenOf('all');
export const Count = tokenOf('count');
export const In = tokenOf('in');
export const Not = tokenOf('not');
export const And = tokenOf('and');
export const Or = tokenOf('or');
export const If = tokenOf('if');
export const Then = tokenOf('then');
export const Else = tokenOf('else');
export const True = tokenOf('true');
export const False = tokenOf('false');

export const NumberLiteral = createToken({ name: 'NumberLiteral', label: 'a number', pattern: /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/ });
// `\r` and `\n` end a string; a backslash escapes any character but a line terminator (what `.` matches).
const isLineBreak = (c: number): boolean => c === 10 || c === 13;
const escapable = (c: number): boolean => !isLineBreak(c) && c !== 0x2028 && c !== 0x2029;

/**
 * Matches `"…"` (closed) or `"…` up to the line's end (unterminated): characters other than `"`,
 * `\` and line breaks, or a backslash and the character it escapes. A scan rather than the
 * regular expression `"(?:[^"\\\r\n]|\\.)*"`, whose backtracking exhausts the stack on a string of
 * a few megabytes; the two accept the same text.
 */
function stringMatcher(closed: boolean): (text: string, offset: number) => [string] | null {
  return (text, offset) => {
    if (text.charCodeAt(offset) !== 34) return null;
    let i = offset + 1;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 34) return closed ? [text.slice(offset, i + 1)] : [text.slice(offset, i)];
      if (isLineBreak(c)) break;
      if (c === 92) {
        if (i + 1 >= text.length || !escapable(text.charCodeAt(i + 1))) break;
        i += 2;
      } else {
        i++;
      }
    }
    return closed ? null : [text.slice(offset, i)];
  };
}

export const StringLiteral = createToken({
  name: 'StringLiteral', label: 'a string', pattern: { exec: stringMatcher(true) }, start_chars_hint: ['"'], line_breaks: false,
});
// An unterminated string is its own token so the error names the real problem, not a stray quote.
export const UnterminatedString = createToken({
  name: 'UnterminatedString', pattern: { exec: stringMatcher(false) }, start_chars_hint: ['"'], line_breaks: false,
});

export const EqEq = createToken({ name: 'EqEq', label: "'=='", pattern: /==/ });
export const NotEq = createToken({ name: 'NotEq', label: "'!='", pattern: /!=/ });
export const LessEq = createToken({ name: 'LessEq', label: "'<='", pattern: /<=/ });
export const GreaterEq = createToken({ name: 'GreaterEq', label: "'>='", pattern: />=/ });
export const Less = createToken({ name: 'Less', label: "'<'", pattern: /</ });
export const Greater = createToken({ name: 'Greater', label: "'>'", pattern: />/ });
export const Equals = createToken({ name: 'Equals', label: "'='", pattern: /=/ });
export const Plus = createToken({ name: 'Plus', label: "'+'", pattern: /\+/ });
export const Minus = createToken({ name: 'Minus', label: "'-'", pattern: /-/ });
export const Star = createToken({ name: 'Star', label: "'*'", pattern: /\*/ });
export const Slash = createToken({ name: 'Slash', label: "'/'", pattern: /\// });
export const Percent = createToken({ name: 'Percent', label: "'%'", pattern: /%/ });
export const LParen = createToken({ name: 'LParen', label: "'('", pattern: /\(/ });
export const RParen = createToken({ name: 'RParen', label: "')'", pattern: /\)/ });
export const LBrace = createToken({ name: 'LBrace', label: "'{'", pattern: /\{/ });
export const RBrace = createToken({ name: 'RBrace', label: "'}'", pattern: /\}/ });
export const Comma = createToken({ name: 'Comma', label: "','", pattern: /,/ });
export const Colon = createToken({ name: 'Colon', label: "':'", pattern: /:/ });
export const Dot = createToken({ name: 'Dot', label: "'.'", pattern: /\./ });

export const Comment = createToken({ name: 'Comment', pattern: /#[^\r\n]*/, group: 'comments' });
export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\r\n\f\uFEFF]+/, group: Lexer.SKIPPED });

export const allTokens: TokenType[] = [
  // A category the lexer never produces (Lexer.NA): listed so the parser knows it.
  Word,
  WhiteSpace, Comment,
  // Longer keywords first: before `pools`, `pool` would match and give way to the longer identifier (longer_alt).
  ...[...keywordTokens].sort((a, b) => String(b.PATTERN).length - String(a.PATTERN).length),
  Identifier, NumberLiteral, StringLiteral, UnterminatedString,
  EqEq, NotEq, LessEq, GreaterEq, Less, Greater, Equals,
  Plus, Minus, Star, Slash, Percent, LParen, RParen, LBrace, RBrace, Comma, Colon, Dot,
];

export const rewardLexer = new Lexer(allTokens, { ensureOptimizations: true, positionTracking: 'full' });

const aggregates = new Set<string>(aggregateWords);

/** `sum s in …`: an aggregation's name stands before a variable and `in` (the names are not reserved words). */
export function startsAggregate(a: IToken, b: IToken, c: IToken): boolean {
  return a.tokenType === Identifier && aggregates.has(a.image) && b.tokenType === Identifier && c.tokenType === In;
}
