import type { EvalEnv } from '../language/eval-env.js';
import { EvaluationError } from '../language/eval-error.js';
import { withSteps, type TrajectoryView } from '../language/view.js';
import { rankStep } from '../pool/resolve-ids.js';
import type { TraceStep } from '../pool/types.js';
import type { CompiledEdit, CompiledOp, CompiledSource } from '../reward/compile-edit.js';
import { maxEditAddedCharacters, maxEditAddedElements } from '../problems/limits.js';
import { AuditError } from './audit-error.js';

// Applies a compiled edit (reward/compile-edit.ts) to one trajectory: its variants, in generation
// order. Operations apply in the order written, each to the trajectory the previous ones left; an
// `each` operation (at most one per edit) forks one variant per element (× candidate for replace).
// A variant that leaves the trajectory as it was is no edit and is not built. What a variant adds
// to its original is bounded (problems/limits.ts) and checked before the longer list or text is
// built: operations compound, so a few lines of spec could otherwise ask for gigabytes.

/** An original's steps as their own origins (`Edit.stepOrigin` of a variant that moves no step). */
const ownStepOrigins = (original: TrajectoryView): number[] => original.steps.map((_s, i) => i);

/** One exact edit A(τ) of a trajectory, as the reward sees it. */
export interface Edit {
  /** The element an `each` operation changed: a citation position, or the original index of a step; undefined for `all` operations. */
  readonly position: number | undefined;
  /** The id an `each` operation put in (replace) or added (append). */
  readonly replacement: string | undefined;
  readonly view: TrajectoryView;
  /** The original index of each step of the edited trajectory (the row's own steps, for showing the edited row). */
  readonly stepOrigin: readonly number[];
}

/** What an edit reads besides the trajectory: its row's id, the corpus and the attack's generators. */
export interface EditContext {
  readonly trajectoryId: string;
  readonly env: EvalEnv;
  /** The attack's candidates for one citation position (`with generated`). */
  readonly candidatesAt: (position: number) => readonly string[];
  /** The original's row in the audit's pools, named by the error of an edit past its bounds. */
  readonly row?: number;
}

interface Variant extends Edit {
  readonly changed: boolean;
}

/** An id guaranteed to be outside the corpus, stable for a given trajectory and position. */
export function fakeIdFor(trajectoryId: string, position: number, corpusIds: ReadonlySet<string>): string {
  let id = `fake:${trajectoryId}:${position}`;
  while (corpusIds.has(id)) id = `${id}'`;
  return id;
}

/**
 * Replaces the citation at one position, in the citation list and in the raw final text. The raw
 * text names the id too; it is rewritten only when the id is cited once, so the edit stays exact.
 * Given `swapOf` (the view itself, when it is the original of a one-`replace` edit), the result
 * records the swap (TrajectoryView.swap).
 */
export function replaceCitation(view: TrajectoryView, position: number, replacement: string, swapOf?: TrajectoryView): TrajectoryView {
  return citationReplacer(view, position, swapOf, Infinity)(replacement);
}

/**
 * For an edit that is one `replace` whose new final text names the id it puts in (any source but
 * `other_ranks`, which rewrites a rank marker): its variant at `position` with `replacement`,
 * rebuilt without building the original's other variants or asking the source again. It is the
 * variant the engine built, view for view: the engine's `replace` makes it with `citationReplacer`
 * from the original, whatever the source. What a run kept of an edit (its position and id) is
 * enough to find it again (edits/attack-run.ts, `revisitKeptEdits`). Undefined for an edit of any
 * other shape. Only for edits the engine built: their bound on what an edit adds held then.
 */
export function swapRebuilder(edit: CompiledEdit): ((original: TrajectoryView, position: number, replacement: string) => Edit) | undefined {
  const op = edit.ops.length === 1 ? edit.ops[0]! : undefined;
  if (op?.verb !== 'replace' || op.source.kind === 'other_ranks') return undefined;
  // Per original, as the engine makes them: its step origins, which its variants share, and one
  // replacer per position, which works out once whether the final text is rewritten.
  let last: { original: TrajectoryView; stepOrigin: readonly number[]; replacers: ((replacement: string) => TrajectoryView)[] } | undefined;
  return (original, position, replacement) => {
    if (last?.original !== original) last = { original, stepOrigin: ownStepOrigins(original), replacers: [] };
    const replace = (last.replacers[position] ??= citationReplacer(original, position, original, Infinity));
    return { position, replacement, view: replace(replacement), stepOrigin: last.stepOrigin };
  };
}

/**
 * `replaceCitation` for each candidate of one position in turn: whether the final text is rewritten
 * (`textFrom` written there, the citation cited once) is worked out once, not per candidate. `room`:
 * the characters the rewrite may add (each place `textFrom` is written grows by the difference).
 */
function citationReplacer(view: TrajectoryView, position: number, swapOf: TrajectoryView | undefined, room: number, textFrom = view.citations[position]!): (replacement: string, textTo?: string) => TrajectoryView {
  const previous = view.citations[position]!;
  let cited = 0;
  for (const id of view.citations) if (id === previous) cited++;
  const pieces = cited === 1 && textFrom !== '' ? view.finalText.split(textFrom) : [];
  const swap = swapOf === undefined ? undefined : { original: swapOf, position };
  return (replacement, textTo = replacement) => {
    const added = (pieces.length - 1) * (textTo.length - textFrom.length);
    if (added > room) throw charactersPast(room, added);
    const citations = view.citations.slice();
    citations[position] = replacement;
    return { ...view, citations, finalText: pieces.length > 1 ? pieces.join(textTo) : view.finalText, swap };
  };
}

function occurrences(text: string, part: string): number {
  return part === '' ? 0 : text.split(part).length - 1;
}

/**
 * The variants of `edit` on `original`, built one at a time as they are read. A variant past the
 * bounds on what an edit adds, or an expression past the engine's bounds (a `matches` on too long a
 * text), stops the analysis: an AuditError naming the edit and `ctx.row`.
 */
export function* editVariants(edit: CompiledEdit, original: TrajectoryView, ctx: EditContext): Generator<Edit> {
  try {
    if (edit.guard !== undefined && !edit.guard(original, ctx.env)) return;
    const only = edit.ops.length === 1 ? edit.ops[0]! : undefined;
    if (only?.verb === 'replace') {
      yield* swapVariants(only, original, ctx);
      return;
    }
    // Any other edit: its views carry no `swap` (only a one-`replace` edit's do, `swapVariants`).
    const start: Variant = { position: undefined, replacement: undefined, view: original, stepOrigin: ownStepOrigins(original), changed: false };
    const opCtx: OpContext = { ...ctx, original };
    for (const variant of applyFrom(edit.ops, 0, start, opCtx)) {
      if (variant.changed) yield { position: variant.position, replacement: variant.replacement, view: variant.view, stepOrigin: variant.stepOrigin };
    }
  } catch (error) {
    if (!(error instanceof EvaluationError)) throw error;
    throw new AuditError(`edit '${edit.name}': ${error.message}`, ctx.row);
  }
}

/**
 * The variants of an edit that is one `replace`, as `applyOp` and `replacements` build them from the
 * original (the same views, ids and positions in the same order, the same errors at the same
 * variant), without a generator and two objects per variant between them: a laundering attack builds
 * dozens of these per row.
 */
function* swapVariants(op: Extract<CompiledOp, { verb: 'replace' }>, original: TrajectoryView, ctx: EditContext): Generator<Edit> {
  const { env } = ctx;
  const { source } = op;
  const stepOrigin = ownStepOrigins(original);
  const room = characterRoom(original, original);
  for (let position = 0; position < original.citations.length; position++) {
    const current = original.citations[position]!;
    if (!op.test(current, original, env)) continue;
    if (source.kind === 'other_ranks') {
      for (const [replacement, view] of otherRanks(original, position, original, room)) {
        if (replacement !== current) yield { position, replacement, view, stepOrigin };
      }
      continue;
    }
    if (source.kind === 'fake_id') {
      const id = fakeIdFor(ctx.trajectoryId, position, env.corpusIds);
      if (id !== current) yield { position, replacement: id, view: citationReplacer(original, position, original, room)(id), stepOrigin };
      continue;
    }
    const replace = citationReplacer(original, position, original, room);
    // A candidate equal to the citation is no edit; replacing it would add nothing, so no bound is passed either.
    if (source.kind === 'each') {
      for (const id of source.candidates(current, original, env)) {
        if (source.test(current, id, original, env) && id !== current) yield { position, replacement: id, view: replace(id), stepOrigin };
      }
      continue;
    }
    for (const id of ctx.candidatesAt(position)) if (id !== current) yield { position, replacement: id, view: replace(id), stepOrigin };
  }
}

interface OpContext extends EditContext {
  readonly original: TrajectoryView;
}

/** The error of a variant that adds `over` characters more than the room left: say how many it adds in all. */
const charactersPast = (room: number, over: number): EvaluationError =>
  new EvaluationError(`a variant would add ${(maxEditAddedCharacters - room + over).toLocaleString('en-US')} characters to the answer and final text, more than the ${maxEditAddedCharacters.toLocaleString('en-US')} an edit may add (Limits in docs/language.md)`);

/** Throws before a list of `steps` steps and `citations` citations is built past what an edit may add to `original`. */
function boundElements(original: TrajectoryView, steps: number, citations: number): void {
  const added = steps - original.steps.length + citations - original.citations.length;
  if (added > maxEditAddedElements) {
    throw new EvaluationError(`a variant would add ${added.toLocaleString('en-US')} steps and citations, more than the ${maxEditAddedElements.toLocaleString('en-US')} an edit may add (Limits in docs/language.md)`);
  }
}

/** The characters a variant of `view` may still add to its original's answer and final text. */
function characterRoom(original: TrajectoryView, view: TrajectoryView): number {
  return maxEditAddedCharacters - (view.answer.length - original.answer.length + view.finalText.length - original.finalText.length);
}

function* applyFrom(ops: readonly CompiledOp[], at: number, state: Variant, ctx: OpContext): Generator<Variant> {
  if (at === ops.length) {
    yield state;
    return;
  }
  // The last operation's variants are the edit's: yielded as they come, not each through a generator of its own.
  if (at === ops.length - 1) {
    yield* applyOp(ops[at]!, state, ctx);
    return;
  }
  for (const next of applyOp(ops[at]!, state, ctx)) yield* applyFrom(ops, at + 1, next, ctx);
}

function withStepList(state: Variant, steps: readonly TraceStep[], origin: readonly number[], position?: number): Variant {
  return { ...state, view: withSteps(state.view, steps), stepOrigin: origin, changed: true, ...(position === undefined ? {} : { position }) };
}

function* applyOp(op: CompiledOp, state: Variant, ctx: OpContext): Generator<Variant> {
  const { view } = state;
  const env = ctx.env;
  switch (op.verb) {
    case 'set': {
      const value = op.value(view, env);
      const current = op.field === 'answer' ? view.answer : view.finalText;
      const room = characterRoom(ctx.original, view);
      if (value.length - current.length > room) throw charactersPast(room, value.length - current.length);
      if (value === current) yield state;
      else yield { ...state, changed: true, view: op.field === 'answer' ? { ...view, answer: value } : { ...view, finalText: value } };
      return;
    }
    case 'delete':
    case 'duplicate': {
      if (op.collection === 'citations') {
        yield* deleteCitations(op.mode, op.test, state, env);
        return;
      }
      const matches: number[] = [];
      view.steps.forEach((step, i) => {
        if (op.test(step, view, env)) matches.push(i);
      });
      if (matches.length === 0) {
        yield state;
        return;
      }
      if (op.verb === 'duplicate') boundElements(ctx.original, view.steps.length + (op.mode === 'all' ? matches.length : 1), view.citations.length);
      const rebuild = (chosen: ReadonlySet<number>, position?: number): Variant => {
        const steps: TraceStep[] = [];
        const origin: number[] = [];
        view.steps.forEach((step, i) => {
          if (op.verb === 'delete' && chosen.has(i)) return;
          steps.push(step);
          origin.push(state.stepOrigin[i]!);
          if (op.verb === 'duplicate' && chosen.has(i)) {
            steps.push(step);
            origin.push(state.stepOrigin[i]!);
          }
        });
        return withStepList(state, steps, origin, position);
      };
      if (op.mode === 'all') yield rebuild(new Set(matches));
      else for (const i of matches) yield rebuild(new Set([i]), state.stepOrigin[i]);
      return;
    }
    case 'replace':
      for (let position = 0; position < view.citations.length; position++) {
        const current = view.citations[position]!;
        if (!op.test(current, view, env)) continue;
        for (const [replacement, next] of replacements(op.source, view, position, ctx)) {
          if (replacement === current) continue;
          yield { ...state, position, replacement, view: next, changed: true };
        }
      }
      return;
    case 'append': {
      const ids: string[] = [];
      for (const id of op.elements(view, env)) if (op.test(id, view, env)) ids.push(id);
      if (ids.length > 0) boundElements(ctx.original, view.steps.length, view.citations.length + (op.mode === 'all' ? ids.length : 1));
      if (ids.length === 0) yield state;
      else if (op.mode === 'all') yield { ...state, changed: true, view: { ...view, citations: [...view.citations, ...ids] } };
      else for (const id of ids) yield { ...state, replacement: id, changed: true, view: { ...view, citations: [...view.citations, id] } };
      return;
    }
  }
}

function* deleteCitations(mode: 'all' | 'each', test: (id: string, view: TrajectoryView, env: EvalEnv) => boolean, state: Variant, env: EvalEnv): Generator<Variant> {
  const { view } = state;
  const matches: number[] = [];
  view.citations.forEach((id, i) => {
    if (test(id, view, env)) matches.push(i);
  });
  if (matches.length === 0) {
    yield state;
    return;
  }
  if (mode === 'all') {
    const gone = new Set(matches);
    yield { ...state, changed: true, view: { ...view, citations: view.citations.filter((_id, i) => !gone.has(i)) } };
    return;
  }
  for (const i of matches) yield { ...state, position: i, changed: true, view: { ...view, citations: view.citations.filter((_id, j) => j !== i) } };
}

/**
 * The candidates of one position with the trajectory each makes, built as they are read: a `replace`
 * among other operations, so its views are not one swap of the original and carry no `swap`.
 */
function* replacements(source: CompiledSource, view: TrajectoryView, position: number, ctx: OpContext): Generator<[string, TrajectoryView]> {
  const current = view.citations[position]!;
  const room = characterRoom(ctx.original, view);
  switch (source.kind) {
    case 'fake_id': {
      const id = fakeIdFor(ctx.trajectoryId, position, ctx.env.corpusIds);
      yield [id, citationReplacer(view, position, undefined, room)(id)];
      return;
    }
    case 'generated': {
      const replace = citationReplacer(view, position, undefined, room);
      for (const id of ctx.candidatesAt(position)) yield [id, replace(id)];
      return;
    }
    case 'other_ranks':
      yield* otherRanks(view, position, undefined, room);
      return;
    case 'each': {
      const replace = citationReplacer(view, position, undefined, room);
      for (const id of source.candidates(current, view, ctx.env)) {
        if (source.test(current, id, view, ctx.env)) yield [id, replace(id)];
      }
      return;
    }
  }
}

/**
 * A citation logged as a rank marker (`[3]` → rank 3 of a result list) pointed at another rank of
 * the same list: the id at that rank, and the marker in the final text rewritten (`[3]` → `[5]`)
 * when it is written there once. Citations logged as ids have no such variant.
 */
function* otherRanks(view: TrajectoryView, position: number, swapOf: TrajectoryView | undefined, room: number): Generator<[string, TrajectoryView]> {
  const ref = view.citationRefs?.[position];
  if (ref === undefined || typeof ref === 'string' || ref.rank === undefined) return;
  const at = rankStep(view.steps, ref.step);
  const step = at === undefined ? undefined : view.steps[at];
  if (step === undefined || (step.type !== 'search' && step.type !== 'tool')) return;
  const ranked = step.hits === undefined ? step.results.map((id, i) => ({ id, rank: i + 1 })) : step.hits;
  // The rank as a whole number in the marker: in `[12, 2]`, rank 2 is the second item, not the 2 of 12.
  const item = new RegExp(`(?<![0-9])${ref.rank}(?![0-9])`, 'u');
  const once = occurrences(view.finalText, ref.marker) === 1;
  const replace = citationReplacer(view, position, swapOf, room, once ? ref.marker : '');
  for (const hit of ranked) {
    if (hit.rank === ref.rank || hit.id === undefined) continue;
    const marker = ref.marker.replace(item, String(hit.rank));
    yield [hit.id, replace(hit.id, marker)];
  }
}

/**
 * What one variant of an edit did, in words, from the edit's `each` operation and the variant's
 * position and id: `step 2 deleted`, `citation 0 → w:9`, `w:9 appended to the citations`, or
 * `NAME edit` for an edit of one variant per trajectory.
 */
export function variantText(edit: CompiledEdit, position: number | undefined, replacement: string | undefined): string {
  const forking = edit.ops.find((op) => op.verb === 'replace' || ('mode' in op && op.mode === 'each'));
  switch (forking?.verb) {
    case 'replace':
      return `citation ${position} → ${replacement}`;
    case 'delete':
      return forking.collection === 'steps' ? `step ${position} deleted` : `citation ${position} deleted`;
    case 'duplicate':
      return `step ${position} duplicated`;
    case 'append':
      return `${replacement} appended to the citations`;
    default:
      return `${edit.name} edit`;
  }
}
