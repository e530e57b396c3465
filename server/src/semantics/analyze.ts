import { parse, type ParseResult } from '../syntax/parse.js';
import type { Problem } from '../problems/problem.js';
import { check, type CheckOptions, type SpecModel } from './check.js';

export interface Analyzed {
  readonly parsed: ParseResult;
  readonly model: SpecModel;
  /** Syntax and checker problems together, in document order. */
  readonly problems: readonly Problem[];
}

/** Parse and check a spec's text: what runs on every keystroke and in `herald check`. */
export function analyze(text: string, options: CheckOptions = {}): Analyzed {
  const parsed = parse(text);
  const model = check(parsed.spec, options);
  const problems = [...parsed.problems, ...model.problems].sort((x, y) => x.span.start - y.span.start);
  return { parsed, model, problems };
}
