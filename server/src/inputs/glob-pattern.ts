// A glob link's pattern, matched in time at most the pattern's length times the name's: only the four
// forms docs/language.md names (`*`, `?`, `**`, `{a,b}`). A regular-expression matcher
// (picomatch) backtracked exponentially on `*a*a*a*a*b.jsonl` against a long name (24.8 s per
// name with four stars), freezing `check` and the language server. Here the `{a,b}` lists are
// multiplied out first (at most `maxGlobAlternatives`), then each alternative is matched one path
// segment at a time: a segment by the greedy two-pointer wildcard match, which backs up only to
// the last `*`, and the segments by one pass over the positions `**` may reach. The comparisons
// are counted, and a walk stops past `maxGlobWork` of them.
import { maxGlobAlternatives } from '../problems/limits.js';

/** One character of a segment pattern: a literal character, `?` (any one) or `*` (any run). */
type Token = { readonly kind: 'char'; readonly char: string } | { readonly kind: '?' } | { readonly kind: '*' };

/** A folder or file name's pattern: `**` (any folders, including none) or its tokens. */
type Segment = { readonly kind: '**' } | { readonly kind: 'name'; readonly tokens: readonly Token[]; readonly fixed: number };

/** Character comparisons made so far, shared by one glob's matches: the walk stops past `maxGlobWork`. */
interface Work {
  steps: number;
}

export type GlobPattern =
  | { readonly ok: true; readonly matches: (relative: string) => boolean; readonly depth: number; readonly steps: () => number }
  | { readonly ok: false; readonly reason: string };

/** Where each `{` closes and its top-level commas, found in one pass (a `\\` escapes the next character). */
function scanBraces(pattern: string): { readonly close: Map<number, number>; readonly commas: Map<number, number[]> } {
  const open: number[] = [];
  const close = new Map<number, number>();
  const commas = new Map<number, number[]>();
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '{') {
      open.push(i);
      commas.set(i, []);
    } else if (c === '}' && open.length > 0) close.set(open.pop()!, i);
    else if (c === ',' && open.length > 0) commas.get(open[open.length - 1]!)!.push(i);
  }
  return { close, commas };
}

/**
 * Every alternative of the `{a,b}` lists in `pattern`, or a number past `limit` when there are
 * more: counted as they are made, and each list adds at least one alternative, so neither the
 * recursion nor the count can pass the limit (`{a,b}` forty times over stops at the ninth).
 * A `{a}` without a comma, or a `{` that never closes, is a name, as picomatch and the shells read it.
 */
function expandBraces(pattern: string, limit: number): string[] | number {
  const { close, commas } = scanBraces(pattern);
  const expand = (from: number, to: number, depth: number): string[] | number => {
    for (let i = from; i < to; i++) {
      if (pattern[i] === '\\') {
        i++;
        continue;
      }
      const end = close.get(i);
      const cuts = commas.get(i);
      if (pattern[i] !== '{' || end === undefined || cuts === undefined || cuts.length === 0) continue;
      if (depth >= limit) return limit + 1;
      const head = pattern.slice(from, i);
      const tails = expand(end + 1, to, depth + 1);
      if (typeof tails === 'number') return tails;
      const out: string[] = [];
      const bounds = [i, ...cuts, end];
      for (let k = 0; k + 1 < bounds.length; k++) {
        const inner = expand(bounds[k]! + 1, bounds[k + 1]!, depth + 1);
        if (typeof inner === 'number' || out.length + inner.length * tails.length > limit) return limit + 1;
        for (const middle of inner) for (const tail of tails) out.push(`${head}${middle}${tail}`);
      }
      return out;
    }
    return [pattern.slice(from, to)];
  };
  return expand(0, pattern.length, 0);
}

function segmentOf(text: string): Segment {
  if (text === '**') return { kind: '**' };
  const tokens: Token[] = [];
  let fixed = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '*') {
      if (tokens[tokens.length - 1]?.kind !== '*') tokens.push({ kind: '*' });
    } else if (c === '?') {
      tokens.push({ kind: '?' });
      fixed++;
    } else {
      tokens.push({ kind: 'char', char: c === '\\' && i + 1 < text.length ? text[++i]! : c });
      fixed++;
    }
  }
  return { kind: 'name', tokens, fixed };
}

/** Splits on `/` that no backslash escapes. */
function segmentsOf(alternative: string): Segment[] {
  const segments: Segment[] = [];
  let from = 0;
  for (let i = 0; i < alternative.length; i++) {
    if (alternative[i] === '\\') i++;
    else if (alternative[i] === '/') {
      segments.push(segmentOf(alternative.slice(from, i)));
      from = i + 1;
    }
  }
  segments.push(segmentOf(alternative.slice(from)));
  return segments;
}

/**
 * Whether a name matches a segment's tokens. A name that starts with `.` matches only a pattern
 * that writes the dot. Greedy: a `*` first takes nothing, and on a mismatch the last `*` takes one
 * more character; earlier stars never need to (the part between two stars is matched at its
 * leftmost place, which leaves the most room after it), so the work is at most name × tokens.
 */
function nameMatches(segment: Segment & { kind: 'name' }, name: string, work: Work): boolean {
  const { tokens } = segment;
  // Literal tokens past the name's length cannot match: a pattern of a million characters costs nothing here.
  if (segment.fixed > name.length) return false;
  if (name.startsWith('.') && (tokens[0]?.kind !== 'char' || tokens[0].char !== '.')) return false;
  let t = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    work.steps++;
    const token = tokens[t];
    if (token !== undefined && token.kind === '*') {
      star = t++;
      resume = n;
    } else if (token !== undefined && (token.kind === '?' || token.char === name[n])) {
      t++;
      n++;
    } else if (star >= 0) {
      t = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (tokens[t]?.kind === '*') t++;
  return t === tokens.length;
}

/**
 * Whether the path's names match the segments: the positions in `names` each prefix of the
 * pattern can reach, one segment at a time; `**` reaches on over any names that are not hidden.
 * A `**` at the end takes at least one name: `runs/x/**` names the files inside the folder
 * `runs/x`, never a file named `runs/x` (the `/` asks for a folder).
 */
function pathMatches(segments: readonly Segment[], names: readonly string[], work: Work): boolean {
  let reach = new Uint8Array(names.length + 1);
  reach[0] = 1;
  segments.forEach((segment, s) => {
    const next = new Uint8Array(names.length + 1);
    const last = s === segments.length - 1;
    for (let i = 0; i <= names.length; i++) {
      if (segment.kind === '**') {
        const stays = reach[i] === 1 && !last;
        if (stays || (i > 0 && (next[i - 1] === 1 || reach[i - 1] === 1) && !names[i - 1]!.startsWith('.'))) next[i] = 1;
      } else if (i > 0 && reach[i - 1] === 1 && nameMatches(segment, names[i - 1]!, work)) {
        next[i] = 1;
      }
    }
    reach = next;
  });
  return reach[names.length] === 1;
}

/**
 * The matcher of a glob relative to its walk's root (`/` between names), how many folders deep its
 * walk must go (`Infinity` with `**`) and the comparisons its matches have made (a name against a
 * segment costs at most their lengths multiplied, so a walk bounds the total: `maxGlobWork`); a
 * reason when its `{a,b}` lists multiply out to more than `maxGlobAlternatives` patterns.
 */
export function globPattern(glob: string): GlobPattern {
  const alternatives = expandBraces(glob, maxGlobAlternatives);
  if (typeof alternatives === 'number') {
    return { ok: false, reason: `the glob's {a,b} lists make more than ${maxGlobAlternatives.toLocaleString('en-US')} patterns (see Limits in docs/language.md): narrow it` };
  }
  const patterns = alternatives.map(segmentsOf);
  const depth = patterns.reduce((most, segments) => Math.max(most, segments.some((s) => s.kind === '**') ? Infinity : segments.length), 0);
  const work: Work = { steps: 0 };
  return { ok: true, depth, steps: () => work.steps, matches: (relative) => {
    const names = relative.split('/');
    work.steps += patterns.length;
    return patterns.some((segments) => pathMatches(segments, names, work));
  } };
}

/** The folders before a glob's first pattern character, where its walk starts (`/` between names). */
export function globBase(pattern: string): { readonly base: string; readonly glob: string } {
  const names = pattern.split('/');
  const first = names.findIndex((name) => /[*?{\\]/.test(name));
  const fixed = first < 0 ? names.length : first;
  return { base: names.slice(0, fixed).join('/'), glob: names.slice(fixed).join('/') };
}
