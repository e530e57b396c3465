import { issueCodes } from '../problems/issue-codes.js';
import type { BuiltinFunction, Literal } from '../language/builtins.js';
import { normalizations, isNormalization } from '../language/normalizer.js';
import { compilePattern } from '../language/patterns.js';
import type { Expr } from '../syntax/ast.js';
import { report, suggest, type Analysis } from './analysis.js';
import { checkPatternArgument } from './check-pattern.js';

// Arguments that must be written as literals (a built-in parameter's `literal` rule): their values
// are read when the spec is compiled, so a wrong one is an error at its place before any row is read.

/** The value of a string or number literal, a number's sign included (`-2`); undefined for any other expression. */
export function literalValue(e: Expr): Literal {
  if (e.kind === 'string' || e.kind === 'number') return e.value;
  if (e.kind === 'unary' && e.op === '-' && e.operand?.kind === 'number') return -e.operand.value;
  return undefined;
}

/** Checks argument `i` of a call of `fn` against its parameter's literal rule, if it has one. */
export function checkLiteralArgument(a: Analysis, fn: BuiltinFunction, args: readonly Expr[], i: number, what: string): void {
  const rule = fn.parameters[i]?.literal;
  const arg = args[i]!;
  switch (rule) {
    case undefined:
      return;
    case 'pattern':
      checkPatternArgument(a, arg, what);
      return;
    case 'group': {
      const group = literalValue(arg);
      if (typeof group !== 'number' || !Number.isInteger(group) || group < 0) {
        report(a, issueCodes.badPattern, 'error', arg.span, `${what} must be a capture group's number written as a whole number from 0 (the whole match)`);
        return;
      }
      // A bad pattern has its own error; only a valid one has groups to count.
      const at = fn.parameters.findIndex((p) => p.literal === 'pattern');
      const source = args[at] === undefined ? undefined : literalValue(args[at]);
      const compiled = typeof source === 'string' ? compilePattern(source) : undefined;
      if (compiled?.ok === true && group > compiled.pattern.groups) {
        const groups = compiled.pattern.groups;
        report(a, issueCodes.badPattern, 'error', arg.span,
          `${what} is group ${group}, but the pattern has ${groups === 0 ? 'no capture group' : groups === 1 ? 'one capture group' : `${groups} capture groups`} (0 is the whole match)`);
      }
      return;
    }
    case 'digits': {
      const digits = literalValue(arg);
      if (typeof digits !== 'number' || !Number.isInteger(digits)) {
        report(a, issueCodes.badArgument, 'error', arg.span, `${what} must be a whole number written as a literal (2 rounds to hundredths, -1 to tens)`);
      }
      return;
    }
    case 'normalization': {
      const name = literalValue(arg);
      const names = Object.keys(normalizations);
      if (typeof name === 'string' && isNormalization(name)) return;
      const suggestion = typeof name === 'string' ? suggest(a, name, () => names) : undefined;
      report(a, issueCodes.badArgument, 'error', arg.span,
        `${what} must name a normalisation as a string literal: ${names.map((n) => `"${n}"`).join(', ')}${suggestion === undefined ? '' : `; did you mean "${suggestion}"?`}`);
      return;
    }
  }
}
