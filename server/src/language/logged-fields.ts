import type { TrajectoryMeta } from '../pool/types.js';
import { EvaluationError } from './eval-error.js';
import { kinds, type TypedEval } from './values.js';

// Declared logged fields (`field judge "…" : number = meta.judge.score`): values a framework logs
// with each row, read by path from the row's `meta`. A row whose value is missing or of another
// type is skipped before any analysis evaluates it (edits/logged-field-rows.ts), so an evaluator
// here never sees one; it checks again and raises rather than read a wrong value.

/** The types a logged field may declare, as the language's types. */
export const loggedTypes = { number: 'number', boolean: 'boolean', text: 'text', texts: 'texts', ids: 'ids' } as const;
export type LoggedType = keyof typeof loggedTypes;

export function isLoggedType(name: string): name is LoggedType {
  return Object.hasOwn(loggedTypes, name);
}

/** The value at `path` under `meta`; undefined where a step is missing or not an object. */
export function lookup(meta: TrajectoryMeta, path: readonly string[]): unknown {
  let value: unknown = meta;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, key)) return undefined;
    const next: unknown = Reflect.get(value, key);
    value = next;
  }
  return value;
}

const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every((e) => typeof e === 'string');

/** What a value of each type must be in the row's JSON (numbers finite: a term must be). */
const accepts: Record<LoggedType, (x: unknown) => boolean> = {
  number: (x) => typeof x === 'number' && Number.isFinite(x),
  boolean: (x) => typeof x === 'boolean',
  text: (x) => typeof x === 'string',
  texts: isStrings,
  ids: isStrings,
};

/** What a value is, in words: its JSON kind, or, for a number that JSON.parse read as ±Infinity (`1e999`), that it is not finite. */
function jsonKind(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'a list with an element that is not a string';
  if (typeof x === 'number' && !Number.isFinite(x)) return 'not finite (a number too large for a double)';
  return typeof x;
}

/** Why a row's `meta` has no value of `type` at `path` (without `meta`), or undefined when it has. Never quotes the value. */
export function loggedFieldReason(meta: TrajectoryMeta, path: readonly string[], type: LoggedType, name: string): string | undefined {
  const value = lookup(meta, path);
  const where = `meta.${path.join('.')}`;
  if (value === undefined) return `logged field '${name}': the row has no ${where}`;
  if (!accepts[type](value)) {
    // A number of the wrong size is not of the wrong type: "is number, not a number" says nothing.
    if (type === 'number' && typeof value === 'number') return `logged field '${name}': ${where} is ${jsonKind(value)}: every term must be a finite number`;
    return `logged field '${name}': ${where} is ${jsonKind(value)}, not ${type === 'texts' || type === 'ids' ? `a list of texts (${type})` : `a ${type}`}`;
  }
  return undefined;
}

/** The evaluator of a logged field at `path` (without `meta`). */
export function loggedFieldEvaluator(path: readonly string[], type: LoggedType, name: string): TypedEval {
  const read = <T>(check: (x: unknown) => x is T) => (meta: TrajectoryMeta): T => {
    const value = lookup(meta, path);
    if (!check(value)) throw new EvaluationError(loggedFieldReason(meta, path, type, name) ?? `logged field '${name}' cannot be read`);
    return value;
  };
  switch (type) {
    case 'number': {
      const get = read((x): x is number => accepts.number(x));
      return kinds.number.wrap((v) => get(v.meta));
    }
    case 'boolean': {
      const get = read((x): x is boolean => accepts.boolean(x));
      return kinds.boolean.wrap((v) => get(v.meta));
    }
    case 'text': {
      const get = read((x): x is string => accepts.text(x));
      return kinds.text.wrap((v) => get(v.meta));
    }
    case 'texts': {
      const get = read(isStrings);
      return kinds.texts.wrap((v) => get(v.meta));
    }
    case 'ids': {
      const get = read(isStrings);
      return kinds.ids.wrap((v) => get(v.meta));
    }
  }
}
