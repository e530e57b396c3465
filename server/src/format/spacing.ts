import type { IToken, TokenType } from 'chevrotain';
import type { Expr, Spec } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';
import * as T from '../syntax/tokens.js';

// Braces only reach these tables inside `expect minimal_repair == {L}`: the braces of reward and
// audit blocks are laid out by the block printer, never spaced token by token.
const noSpaceBefore = new Set<TokenType>([T.Comma, T.RParen, T.RBrace, T.Dot, T.Colon, T.Percent]);
const noSpaceAfter = new Set<TokenType>([T.LParen, T.LBrace, T.Dot]);
/** A name directly before `(` is called: `token_f1(…)`, `count(…)`, `lexical(8)`, `asr(…)`. */
const callees = new Set<TokenType>([T.Identifier, T.Count]);

/**
 * The canonical space between two tokens on one line: none inside parentheses and set braces,
 * around `.`, before `,`, `:` and `%`, after a sign or unary minus and between a callee and its
 * arguments; one space everywhere else (binary operators, keywords, after `,` and `:`).
 */
export function flatSpace(a: IToken, b: IToken, attachedSigns: ReadonlySet<number>): string {
  if (noSpaceBefore.has(b.tokenType) || noSpaceAfter.has(a.tokenType)) return '';
  if (attachedSigns.has(a.startOffset)) return '';
  if (b.tokenType === T.LParen && callees.has(a.tokenType)) return '';
  return ' ';
}

/**
 * The offsets of the `-` and `+` tokens that belong to what follows them: unary minus and the
 * signs of weights, lattice penalties, expected values and conformance tolerances. Only the AST can tell `a -1 * x` (a
 * term named `a` with weight -1) from `a - 1` (a subtraction); derived terms (`R0 - 1.2 * L`) read
 * as subtractions and keep their spaces.
 */
export function attachedSigns(spec: Spec, text: string): Set<number> {
  const signs = new Set<number>();
  const signed = (span: Span | undefined): void => {
    if (span !== undefined && (text[span.start] === '-' || text[span.start] === '+')) signs.add(span.start);
  };
  const visit = (e: Expr | undefined): void => {
    if (e === undefined) return;
    switch (e.kind) {
      case 'unary':
        if (e.op === '-') signs.add(e.span.start);
        visit(e.operand);
        return;
      case 'binary':
        visit(e.left);
        visit(e.right);
        return;
      case 'member':
        visit(e.object);
        return;
      case 'call':
        e.args.forEach(visit);
        return;
      case 'quantifier':
        visit(e.collection);
        visit(e.filter);
        visit(e.body);
        visit(e.fallback);
        return;
      case 'if':
        visit(e.condition);
        visit(e.whenTrue);
        visit(e.whenFalse);
        return;
      default:
        return;
    }
  };
  for (const decl of spec.decls) {
    switch (decl.kind) {
      case 'signal':
      case 'detector':
        visit(decl.body);
        break;
      case 'reward':
        for (const term of decl.terms) {
          if (!term.derived) signed(term.weightSpan);
          visit(term.body);
        }
        break;
      case 'audit':
      case 'training':
      case 'comparison':
        for (const item of decl.items) {
          if (item.kind === 'lattice') item.entries.forEach((entry) => signed(entry.lambda?.span));
          else if (item.kind === 'expect-metric') signed(item.value?.span);
          else if (item.kind === 'option') item.values.forEach((value) => (value.kind === 'number' ? signed(value.span) : undefined));
          else if (item.kind === 'conforms') signed(item.tolerance?.span);
        }
        break;
      default:
        break;
    }
  }
  return signs;
}
