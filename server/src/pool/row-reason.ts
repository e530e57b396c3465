// Turns a zod failure into the one short reason a row issue carries, naming the field path as a
// user would write it (`steps[2].results`) and the kind of what was found there. Zod's own messages
// say "received undefined" for a missing key, which is not how anyone describes a JSONL row.
// Reasons name fields and kinds, never a value: they reach reports and CI artifacts, and a spec
// may link a file that is not data at all (a secrets file shaped like JSON).
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;
type PathKey = PropertyKey;

/** `steps[2].results`; the empty path (the row itself) is `row`. */
export function formatPath(path: readonly PathKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out.length === 0 ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out.length === 0 ? 'row' : out;
}

/** How a JSON value is named in a reason, by its kind only: "a string", "an array", "an integer", "null". */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return value.length === 0 ? 'an empty string' : 'a string';
    case 'number':
      return Number.isInteger(value) ? 'an integer' : 'a fractional number';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

const expectedWords: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  record: 'an object',
};

interface Located {
  readonly found: boolean;
  readonly value: unknown;
}

function valueAt(input: unknown, path: readonly PathKey[]): Located {
  let current: unknown = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, key)) return { found: false, value: undefined };
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return { found: true, value: current };
}

/**
 * Describes one zod issue. `expectations` names what belongs at a field where zod's bare type is
 * too little (`final` is "an object or null"); keys are paths with array indices written `[]`.
 */
function describeIssue(issue: Issue, input: unknown, expectations: Readonly<Record<string, string>>): string {
  const path = issue.path;
  const where = formatPath(path);
  const at = valueAt(input, path);
  if (!at.found || at.value === undefined) return `missing field '${where}'`;

  switch (issue.code) {
    case 'invalid_type': {
      const last = path[path.length - 1];
      // An element of a string list: the list is the field the user wrote, so name it.
      if (typeof last === 'number' && issue.expected === 'string') {
        return `${formatPath(path.slice(0, -1))}: expected an array of strings (item ${last} is ${describeValue(at.value)})`;
      }
      const pattern = formatPath(path.map((k) => (typeof k === 'number' ? -1 : k))).replace(/\[-1\]/g, '[]');
      const expected = expectations[pattern] ?? expectedWords[issue.expected] ?? issue.expected;
      return `${where}: expected ${expected}, got ${describeValue(at.value)}`;
    }
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return `${where}: must not be empty`;
      if (issue.origin === 'number') return `${where}: must be at least ${String(issue.minimum)}`;
      return `${where}: ${issue.message}`;
    case 'invalid_union':
      if (issue.discriminator !== undefined && 'options' in issue && issue.options !== undefined) {
        const options = issue.options.map((o) => JSON.stringify(o)).join(' or ');
        return `${where}: expected ${options}, got ${typeof at.value === 'string' ? 'another string' : describeValue(at.value)}`;
      }
      return unionReason(issue.errors, path, input, at.value, expectations);
    default:
      return `${where}: ${issue.message}`;
  }
}

/** A branch of a union that refused the value's kind outright (a string where an object belongs). */
function refusesKind(branch: readonly Issue[]): boolean {
  return branch.length === 1 && branch[0]!.code === 'invalid_type' && branch[0]!.path.length === 0;
}

/**
 * A value that no form of a union accepts (a result that is an id or an object, a final answer
 * with or without an answer). When no form accepts its kind, the reason names the forms; else it
 * is the first problem of the form that came closest (fewest problems, the first form on a tie).
 */
function unionReason(branches: readonly (readonly Issue[])[], path: readonly PathKey[], input: unknown, value: unknown, expectations: Readonly<Record<string, string>>): string {
  const where = formatPath(path);
  const pattern = formatPath(path.map((k) => (typeof k === 'number' ? -1 : k))).replace(/\[-1\]/g, '[]');
  const closest = branches.filter((b) => !refusesKind(b)).reduce<readonly Issue[] | undefined>((best, b) => (best === undefined || b.length < best.length ? b : best), undefined);
  if (closest === undefined || closest[0] === undefined) {
    const last = path[path.length - 1];
    const expected = expectations[pattern];
    // An element of a list: the list is the field the user wrote, so name it.
    if (typeof last === 'number' && expected !== undefined) return `${formatPath(path.slice(0, -1))}: expected an array of ${expected} (item ${last} is ${describeValue(value)})`;
    return `${where}: expected ${expected ?? 'another kind of value'}, got ${describeValue(value)}`;
  }
  const inner = closest[0];
  return describeIssue({ ...inner, path: [...path, ...inner.path] }, input, expectations);
}

/** One reason for a failed row: the first problem, and how many more there are. */
export function rowReason(error: z.ZodError, input: unknown, expectations: Readonly<Record<string, string>> = {}): string {
  const [first, ...rest] = error.issues;
  if (first === undefined) return 'invalid row';
  const head = describeIssue(first, input, expectations);
  return rest.length === 0 ? head : `${head} (and ${rest.length} more ${rest.length === 1 ? 'problem' : 'problems'})`;
}
