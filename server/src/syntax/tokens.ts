import { createToken, Lexer, type TokenType } from 'chevrotain';

// Keywords are matched as identifiers first and then recategorised (longer_alt), so `corpus_ids`
// stays one identifier while `corpus` is the keyword.
export const Identifier = createToken({ name: 'Identifier', label: 'a name', pattern: /[A-Za-z_][A-Za-z0-9_]*/ });

function keyword(word: string): TokenType {
  return createToken({ name: word[0]!.toUpperCase() + word.slice(1), label: `'${word}'`, pattern: new RegExp(word), longer_alt: Identifier });
}

export const Corpus = keyword('corpus');
export const Pools = keyword('pools');
export const Pool = keyword('pool');
export const Signal = keyword('signal');
export const Detector = keyword('detector');
export const Reward = keyword('reward');
export const Audit = keyword('audit');
export const Training = keyword('training');
export const Comparison = keyword('comparison');
export const Compare = keyword('compare');
export const Attack = keyword('attack');
export const Targets = keyword('targets');
export const Using = keyword('using');
export const Candidates = keyword('candidates');
export const Lattice = keyword('lattice');
export const Expect = keyword('expect');
export const Seed = keyword('seed');
export const Bootstrap = keyword('bootstrap');
export const Sweep = keyword('sweep');
export const Any = keyword('any');
export const All = keyword('all');
export const Count = keyword('count');
export const In = keyword('in');
export const Not = keyword('not');
export const And = keyword('and');
export const Or = keyword('or');
export const True = keyword('true');
export const False = keyword('false');

export const NumberLiteral = createToken({ name: 'NumberLiteral', label: 'a number', pattern: /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/ });
export const StringLiteral = createToken({ name: 'StringLiteral', label: 'a string', pattern: /"(?:[^"\\\r\n]|\\.)*"/ });
// An unterminated string is its own token so the error names the real problem, not a stray quote.
export const UnterminatedString = createToken({ name: 'UnterminatedString', pattern: /"(?:[^"\\\r\n]|\\.)*/ });

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

export const keywordTokens: TokenType[] = [
  Corpus, Pools, Pool, Signal, Detector, Reward, Audit, Training, Comparison, Compare, Attack, Targets, Using, Candidates,
  Lattice, Expect, Seed, Bootstrap, Sweep, Any, All, Count, In, Not, And, Or, True, False,
];

export const keywords: string[] = keywordTokens.map((t) => String(t.PATTERN).slice(1, -1));

export const allTokens: TokenType[] = [
  WhiteSpace, Comment,
  // `pools` before `pool`, so the longer keyword wins.
  ...keywordTokens,
  Identifier, NumberLiteral, StringLiteral, UnterminatedString,
  EqEq, NotEq, LessEq, GreaterEq, Less, Greater, Equals,
  Plus, Minus, Star, Slash, Percent, LParen, RParen, LBrace, RBrace, Comma, Colon, Dot,
];

export const rewardLexer = new Lexer(allTokens, { ensureOptimizations: true, positionTracking: 'full' });
