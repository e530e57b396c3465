// Resolving the ids a log does not give, against the corpus (docs/pools.md, "Resolving ids"). A
// result object without an id is matched by url, exact text or normalised title, and only when
// exactly one passage matches; a citation marker by its id, its url or the result rank it points
// at. What does not resolve is never used as a corpus id: an unresolved result is left out of its
// step's ids (counted, and noted once per row by file:line), and a row with an unresolved citation
// is skipped (its position would otherwise cite nothing or the wrong passage). Pure: called once
// per pool and corpus by inputs/load-inputs.ts, the one place the two meet.
import { engineSteps } from './logged-parts.js';
import type { CitationRef, Corpus, ResultHit, RowIssue, TraceStep, Trajectory } from './types.js';

// Both keys are computed for every logged result and every corpus passage (hundreds of thousands
// in a real run), and most texts are already in key form: these tests find the texts that are not
// without building a copy. `\s` is the same Unicode set with or without the `u` flag.
const notCollapsed = /[^\S ]| {2}|^ | $/;
const notAscii = /[^\p{ASCII}]/u;

/** Texts match exactly, but for surrounding whitespace and runs of whitespace (log writers rewrap). */
export function textKey(text: string): string {
  return notCollapsed.test(text) ? text.replace(/\s+/g, ' ').trim() : text;
}

/** Titles match case-folded and whitespace-collapsed, after Unicode NFKC (`Ｔｈｅ  Who` is `the who`). */
export function titleKey(title: string): string {
  // NFKC leaves ASCII as it is.
  return textKey((notAscii.test(title) ? title.normalize('NFKC') : title).toLowerCase());
}

/** The corpus's passages by url, text key and title key (each key → ids, file order). */
export interface CorpusIndex {
  readonly byUrl: ReadonlyMap<string, readonly string[]>;
  readonly byText: ReadonlyMap<string, readonly string[]>;
  readonly byTitle: ReadonlyMap<string, readonly string[]>;
  readonly titleOf: ReadonlyMap<string, string>;
}

function push(map: Map<string, string[]>, key: string, id: string): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [id]);
  else list.push(id);
}

export function corpusIndex(corpus: Corpus): CorpusIndex {
  const byUrl = new Map<string, string[]>();
  const byText = new Map<string, string[]>();
  const byTitle = new Map<string, string[]>();
  const titleOf = new Map<string, string>();
  for (const p of corpus.passages.values()) {
    if (p.url !== undefined) push(byUrl, p.url, p.id);
    push(byText, textKey(p.text), p.id);
    const title = titleKey(p.title);
    push(byTitle, title, p.id);
    titleOf.set(p.id, title);
  }
  return { byUrl, byText, byTitle, titleOf };
}

export type ResultHow = 'logged' | 'url' | 'text' | 'title';
export type CitationHow = 'logged' | 'url' | 'rank';

/** How many results and citations of a pool were given as ids, resolved each way, or not resolved. */
export interface ResolutionCounts {
  readonly results: Record<ResultHow | 'unresolved', number>;
  readonly citations: Record<CitationHow | 'unresolved', number>;
}

/** A pool's resolution: the counts, and one note per row with unresolved results (not skipped). */
export interface PoolResolution {
  readonly counts: ResolutionCounts;
  readonly unresolved: readonly RowIssue[];
}

export interface ResolvedPool {
  /** The same array as given when no row needed resolving. */
  readonly rows: readonly Trajectory[];
  /** Rows skipped: a citation that cannot be resolved. */
  readonly issues: readonly RowIssue[];
  /** Absent when no row logged a result object or a citation marker. */
  readonly resolution?: PoolResolution;
}

type Resolved<H> = { readonly id: string; readonly how: H } | { readonly reason: string };

function unique(ids: readonly string[] | undefined, what: string): { readonly id: string } | { readonly reason: string } | undefined {
  if (ids === undefined || ids.length === 0) return undefined;
  if (ids.length === 1) return { id: ids[0]! };
  return { reason: `${ids.length} passages have this ${what}` };
}

function resolveHit(hit: ResultHit, index: CorpusIndex): Resolved<ResultHow> {
  if (hit.id !== undefined) return { id: hit.id, how: 'logged' };
  if (hit.url !== undefined) {
    const byUrl = unique(index.byUrl.get(hit.url), 'url');
    if (byUrl !== undefined) return 'id' in byUrl ? { id: byUrl.id, how: 'url' } : byUrl;
  }
  // Most results resolve by text alone; the title's key is made only when it is read.
  let titleRead: string | undefined;
  const title = (): string | undefined => (hit.title === undefined ? undefined : (titleRead ??= titleKey(hit.title)));
  if (hit.text !== undefined) {
    // A text that is a key is its own key (keys are collapsed), so the copy textKey makes is needed only on a miss.
    const same = index.byText.get(hit.text) ?? index.byText.get(textKey(hit.text)) ?? [];
    // Passages may share a text (boilerplate): the title, when logged, tells them apart.
    const key = same.length < 2 ? undefined : title();
    const byText = unique(key === undefined ? same : same.filter((id) => index.titleOf.get(id) === key), 'text');
    if (byText !== undefined) return 'id' in byText ? { id: byText.id, how: 'text' } : byText;
  }
  const titled = title();
  if (titled !== undefined) {
    const byTitle = unique(index.byTitle.get(titled), 'title');
    if (byTitle !== undefined) return 'id' in byTitle ? { id: byTitle.id, how: 'title' } : byTitle;
  }
  const had = [hit.url === undefined ? '' : 'url', hit.text === undefined ? '' : 'text', hit.title === undefined ? '' : 'title'].filter((w) => w !== '');
  return { reason: had.length === 0 ? 'it has no id, url, text or title' : `no passage has its ${had.join(' or ')}` };
}

interface Tally {
  readonly counts: { results: Record<ResultHow | 'unresolved', number>; citations: Record<CitationHow | 'unresolved', number> };
}

/**
 * The hit with its resolved id. Built key by key, not by spreading: a pool may hold hundreds of
 * thousands of hits and V8 copies a spread object of optional keys several times slower.
 */
function resolvedHit(hit: ResultHit, id: string, how: Exclude<ResultHow, 'logged'>): ResultHit {
  const resolved: { -readonly [K in keyof ResultHit]: ResultHit[K] } = { rank: hit.rank };
  if (hit.title !== undefined) resolved.title = hit.title;
  if (hit.url !== undefined) resolved.url = hit.url;
  if (hit.text !== undefined) resolved.text = hit.text;
  resolved.id = id;
  resolved.resolvedBy = how;
  return resolved;
}

/** A step's results with resolved ids: the hits (each with its id once resolved) and the ids in order. */
function resolveStep(step: TraceStep, at: number, index: CorpusIndex, tally: Tally, missed: string[]): TraceStep {
  if ((step.type !== 'search' && step.type !== 'tool') || step.hits === undefined) {
    if (step.type === 'search' || step.type === 'tool') tally.counts.results.logged += step.results.length;
    return step;
  }
  const hits: ResultHit[] = [];
  const ids: string[] = [];
  for (let i = 0; i < step.hits.length; i++) {
    const hit = step.hits[i]!;
    const r = resolveHit(hit, index);
    if ('id' in r) {
      tally.counts.results[r.how]++;
      ids.push(r.id);
      hits.push(r.how === 'logged' ? hit : resolvedHit(hit, r.id, r.how));
    } else {
      tally.counts.results.unresolved++;
      missed.push(`steps[${at}].results[${i}] (rank ${hit.rank}): ${r.reason}`);
      hits.push(hit);
    }
  }
  return { ...step, results: ids, hits };
}

/** The step a rank marker counts in: the one it names, else the last step with results. */
export function rankStep(trace: readonly TraceStep[], named: number | undefined): number | undefined {
  if (named !== undefined) return named;
  for (let i = trace.length - 1; i >= 0; i--) {
    const s = trace[i]!;
    if ((s.type === 'search' || s.type === 'tool') && (s.hits !== undefined || s.results.length > 0)) return i;
  }
  return undefined;
}

function resolveCitation(ref: CitationRef, trace: readonly TraceStep[], index: CorpusIndex): Resolved<CitationHow> {
  if (typeof ref === 'string') return { id: ref, how: 'logged' };
  if (ref.id !== undefined) return { id: ref.id, how: 'logged' };
  if (ref.url !== undefined) {
    const byUrl = unique(index.byUrl.get(ref.url), 'url');
    if (byUrl !== undefined) return 'id' in byUrl ? { id: byUrl.id, how: 'url' } : byUrl;
    for (const s of trace) {
      const hit = s.type === 'search' || s.type === 'tool' ? s.hits?.find((h) => h.url === ref.url && h.id !== undefined) : undefined;
      if (hit?.id !== undefined) return { id: hit.id, how: 'url' };
    }
    if (ref.rank === undefined) return { reason: 'no passage or result has its url' };
  }
  const at = rankStep(trace, ref.step);
  const step = at === undefined ? undefined : trace[at];
  if (step === undefined || (step.type !== 'search' && step.type !== 'tool')) return { reason: `its rank ${ref.rank ?? ''} points at no step with results` };
  const bare = ref.rank === undefined ? undefined : step.results[ref.rank - 1];
  // Bare ids are ranked by position from 1, as a result object list would number them.
  const hit = step.hits === undefined ? (bare === undefined ? undefined : { id: bare, rank: ref.rank }) : step.hits.find((h) => h.rank === ref.rank);
  if (hit === undefined || hit.id === undefined) {
    return { reason: hit === undefined ? `step ${at} has no result at rank ${ref.rank}` : `the result at rank ${ref.rank} of step ${at} is not resolved to a passage` };
  }
  return { id: hit.id, how: 'rank' };
}

function needsResolving(row: Trajectory): boolean {
  return row.trace !== undefined || row.citationRefs !== undefined;
}

function resolveRow(row: Trajectory, index: CorpusIndex, tally: Tally): { row: Trajectory; missed: string[] } | { reason: string } {
  const missed: string[] = [];
  const trace = row.trace === undefined ? undefined : row.trace.map((s, i) => resolveStep(s, i, index, tally, missed));
  if (row.trace === undefined) for (const s of row.steps) if (s.type === 'search') tally.counts.results.logged += s.results.length;
  let final = row.final;
  if (final !== null && row.citationRefs !== undefined) {
    const citations: string[] = [];
    for (const [i, ref] of row.citationRefs.entries()) {
      const r = resolveCitation(ref, trace ?? row.steps, index);
      if (!('id' in r)) {
        tally.counts.citations.unresolved++;
        return { reason: `final.citations[${i}]: citation marker not resolved: ${r.reason}` };
      }
      tally.counts.citations[r.how]++;
      citations.push(r.id);
    }
    final = { ...final, citations };
  } else if (final !== null) {
    tally.counts.citations.logged += final.citations.length;
  }
  return { row: { ...row, ...(trace === undefined ? {} : { steps: engineSteps(trace), trace }), final }, missed };
}

/**
 * Resolves every row of a pool against a corpus. The index is built only when a row needs it, so
 * a v1 pool costs one pass over its rows and comes back as the same array; `indexOf` lets the
 * pools of one analysis share one index.
 */
export function resolvePool(rows: readonly Trajectory[], corpus: Corpus, indexOf: () => CorpusIndex = () => corpusIndex(corpus)): ResolvedPool {
  if (!rows.some(needsResolving)) return { rows, issues: [] };
  const index = indexOf();
  const tally: Tally = { counts: { results: { logged: 0, url: 0, text: 0, title: 0, unresolved: 0 }, citations: { logged: 0, url: 0, rank: 0, unresolved: 0 } } };
  const kept: Trajectory[] = [];
  const issues: RowIssue[] = [];
  const unresolved: RowIssue[] = [];
  for (const row of rows) {
    const r = resolveRow(row, index, tally);
    const { file, line } = row.source;
    if ('reason' in r) {
      issues.push({ file, line, reason: r.reason });
      continue;
    }
    kept.push(r.row);
    if (r.missed.length > 0) {
      const more = r.missed.length - 1;
      unresolved.push({ file, line, reason: `${r.missed.length} ${r.missed.length === 1 ? 'result' : 'results'} not resolved to a corpus passage, so not used as ids: ${r.missed[0]}${more > 0 ? ` (and ${more} more)` : ''}` });
    }
  }
  return { rows: kept, issues, resolution: { counts: tally.counts, unresolved } };
}
