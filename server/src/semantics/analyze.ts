import { parse, type ParseResult } from '../syntax/parse.js';
import type { Problem } from '../problems/problem.js';
import { check, type CheckOptions, type SpecModel } from './check.js';
import { specHashes, type SpecHashes } from './decl-hashes.js';

export interface Analyzed {
  readonly parsed: ParseResult;
  readonly model: SpecModel;
  /** Syntax and checker problems together, in document order. */
  readonly problems: readonly Problem[];
}

/**
 * A spec's text, checked: what every analysis of one version of a spec starts from. The audit, the
 * training-signal audit and the comparison read this and never parse the text again.
 */
export interface CheckedSpec {
  readonly text: string;
  /** The spec's path, against whose folder its links resolve. */
  readonly specFile: string;
  readonly model: SpecModel;
  /** Syntax and checker problems together, in document order: an error among them means no analysis runs. */
  readonly problems: readonly Problem[];
  /** The content hashes of its declarations, terms and attacks (what the audit's kept results are keyed by). */
  readonly hashes: SpecHashes;
}

/** `text` parsed and checked, as the analyses take it. */
export function checkSpec(text: string, specFile: string, options: Omit<CheckOptions, 'specFile'> = {}): CheckedSpec {
  return checkedOf(text, specFile, analyze(text, { ...options, specFile }));
}

/**
 * An analysed text as the analyses take it. The content hashes are worked out here, for an analysis
 * that runs, and not on every keystroke.
 */
export function checkedOf(text: string, specFile: string, analyzed: Analyzed): CheckedSpec {
  const { parsed, model, problems } = analyzed;
  return { text, specFile, model, problems, hashes: specHashes(parsed.spec, parsed.tokens) };
}

/** Parse and check a spec's text: what runs on every keystroke and in `herald check`. */
export function analyze(text: string, options: CheckOptions = {}): Analyzed {
  const parsed = parse(text);
  const model = check(parsed.spec, options);
  const problems = [...parsed.problems, ...model.problems].sort((x, y) => x.span.start - y.span.start);
  return { parsed, model, problems };
}
