// The command-term protocol (docs/reward-commands.md): what a field or reward computed by a user's
// program is sent for each trajectory, and how its answers are read. Pure: edits/command-terms.ts
// runs the programs, this file decides what a request holds and what an answer means.
//
// A request is the trajectory as the trainer's reward would see it: the framework's own arguments
// (verl's `compute_score`, TRL's prompt and completion, the chat messages), written from the view's
// `meta`, which holds the rendered text of an edit (edits/rendered-view.ts), and the row as the pool
// holds it. A visible field is sent no gold: its request is built from a fixed list of visible parts.
import { createHash } from 'node:crypto';
import { renderedKeys } from '../importers/registry.js';
import type { CommandTerms, CommandTermType } from '../language/command-terms.js';
import { EvaluationError } from '../language/eval-error.js';
import type { TrajectoryView } from '../language/view.js';

/** A field or reward computed by a program, as an analysis runs it. */
export interface CommandTermSpec {
  /** The field's or reward's name. */
  readonly name: string;
  /** The program, as written: run by `/bin/sh -c` in the spec's folder. */
  readonly command: string;
  readonly type: CommandTermType;
  /** An oracle field or a reward: its requests carry the gold answers. */
  readonly oracle: boolean;
}

const has = (meta: Readonly<Record<string, unknown>>, key: string): boolean => Object.hasOwn(meta, key);
const orNull = (meta: Readonly<Record<string, unknown>>, key: string): unknown => (has(meta, key) ? meta[key] : null);

/**
 * The meta a request carries: all of it for an oracle term; for a visible one only the rollout's
 * text (the keys its format renders, and the prompt), since a log's meta may hold gold or a score.
 * Reading a rendered key writes the edit back, and an edit the format cannot write throws
 * UnrenderedEdit: the request is never sent, and the edit is not counted (edits/attack-run.ts).
 */
function requestMeta(view: TrajectoryView, oracle: boolean): Record<string, unknown> {
  const meta = view.meta;
  if (oracle) return Object.fromEntries(Object.keys(meta).map((key) => [key, meta[key]]));
  const keys = [...renderedKeys(view.row?.format), 'prompt'].filter((key) => has(meta, key));
  return Object.fromEntries(keys.map((key) => [key, meta[key]]));
}

/** The request of one trajectory, without its number: the bytes its answer is cached by. */
export function requestContent(view: TrajectoryView, oracle: boolean): string {
  const meta = requestMeta(view, oracle);
  const format = view.row?.format;
  const rendered = renderedKeys(format);
  const groundTruth = oracle ? orNull(view.meta, 'ground_truth') : null;
  const framework: Record<string, unknown> = {};
  if (rendered.includes('transcript')) {
    framework['verl'] = {
      data_source: orNull(view.meta, 'data_source'), solution_str: meta['transcript'], ground_truth: groundTruth,
      extra_info: oracle ? orNull(view.meta, 'extra_info') : null, prompt_str: orNull(meta, 'prompt'),
    };
  }
  if (rendered.includes('completion')) framework['trl'] = { prompt: orNull(meta, 'prompt'), completion: meta['completion'] };
  if (rendered.includes('messages')) framework['messages'] = meta['messages'];
  const row = {
    id: view.row?.id ?? null, question_id: view.row?.questionId ?? null, question: view.question,
    steps: view.steps,
    final: view.hasFinal ? { answer: view.answer, citations: view.citations, text: view.finalText, ...(view.finalStatus === '' ? {} : { status: view.finalStatus }) } : null,
    ...(oracle ? { gold: view.gold } : {}),
    meta,
  };
  return JSON.stringify({ trajectory_id: view.row?.id ?? null, format: format ?? null, ...framework, row });
}

/** The line written to the program: the request's number, then its content. */
export function requestLine(request: number, content: string): string {
  return `{"request":${request},${content.slice(1)}\n`;
}

/** What a request's answer is kept and looked up by. */
export function contentKey(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('base64');
}

/**
 * The first pass of an analysis that reads command terms: every trajectory it would evaluate a
 * term on is recorded (the request's content, once per distinct content) and the term reads a
 * stand-in. Nothing computed in this pass is kept.
 */
export class CollectingTerms implements CommandTerms {
  /** Per term: the distinct contents, in the order first met. */
  readonly requests = new Map<string, Map<string, string>>();

  constructor(private readonly specs: ReadonlyMap<string, CommandTermSpec>) {}

  value(term: string, view: TrajectoryView): number | boolean {
    this.record(term, view);
    return this.specs.get(term)?.type === 'boolean' ? false : 0;
  }

  record(term: string, view: TrajectoryView): void {
    const spec = this.specs.get(term);
    if (spec === undefined) return;
    const content = requestContent(view, spec.oracle);
    let requests = this.requests.get(term);
    if (requests === undefined) this.requests.set(term, (requests = new Map()));
    const key = contentKey(content);
    if (!requests.has(key)) requests.set(key, content);
  }
}

/** A term's answers: a value per request content (its `contentKey`). */
export type TermAnswers = ReadonlyMap<string, number | boolean>;

/** The second pass: each term reads its program's answer for the trajectory's request. */
export class AnsweredTerms implements CommandTerms {
  /**
   * `unanswered` says why a trajectory has no answer: in an audit, the first pass sent every
   * trajectory the second evaluates, so a miss is a request built differently twice.
   */
  constructor(
    readonly specs: ReadonlyMap<string, CommandTermSpec>,
    readonly answers: ReadonlyMap<string, TermAnswers>,
    private readonly unanswered = 'no answer of its command for this trajectory (its request was not sent)',
  ) {}

  value(term: string, view: TrajectoryView): number | boolean {
    const spec = this.specs.get(term);
    const value = spec === undefined ? undefined : this.answers.get(term)?.get(contentKey(requestContent(view, spec.oracle)));
    if (value === undefined) throw new EvaluationError(`'${term}': ${this.unanswered}`);
    return value;
  }
}

export type ParsedTermAnswers = { readonly ok: true; readonly values: (number | boolean)[] } | { readonly ok: false; readonly error: string; readonly request?: number };

const shown = (text: string): string => (text.length > 80 ? `${text.slice(0, 77)}…` : text);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a program's stdout: one JSON line per request, `{"request": N, "value": V}` (V a finite
 * number, or a boolean for a boolean field) or `{"request": N, "error": "why"}`, in any order;
 * blank lines are skipped. Every request must be answered exactly once. The first fault is the
 * error, naming the output line, or the request an `error` answer is about.
 */
export function parseTermAnswers(output: string, requests: number, type: CommandTermType): ParsedTermAnswers {
  const values: (number | boolean | undefined)[] = new Array<number | boolean | undefined>(requests).fill(undefined);
  let answered = 0;
  const lines = output.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!.trim();
    if (text.length === 0) continue;
    const at = `output line ${i + 1}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { ok: false, error: `${at}: not JSON: ${JSON.stringify(shown(text))}` };
    }
    if (!isObject(parsed)) return { ok: false, error: `${at}: expected an object {"request": N, "value": V}` };
    const n = parsed['request'];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n >= requests) {
      return { ok: false, error: `${at}: "request" must be a request number from 0 to ${requests - 1}, not ${JSON.stringify(n) ?? 'missing'}` };
    }
    if (values[n] !== undefined) return { ok: false, error: `${at}: request ${n} is answered twice` };
    const error = parsed['error'];
    if (error !== undefined && error !== null) return { ok: false, error: `the program failed on it: ${shown(String(error))}`, request: n };
    const value = parsed['value'];
    const typed = type === 'boolean' ? (typeof value === 'boolean' ? value : undefined) : typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    if (typed === undefined) {
      // JSON has no Infinity or NaN: a program that prints one writes a line JSON.parse refuses above.
      return { ok: false, error: `${at}: "value" must be ${type === 'boolean' ? 'true or false' : 'a finite number'}, not ${JSON.stringify(value) ?? 'missing'}`, request: n };
    }
    values[n] = typed;
    answered++;
  }
  if (answered < requests) {
    const missing = values.findIndex((v) => v === undefined);
    return { ok: false, error: `no line answers request ${missing}; ${requests - answered} of ${requests} unanswered`, request: missing };
  }
  return { ok: true, values: values as (number | boolean)[] };
}
