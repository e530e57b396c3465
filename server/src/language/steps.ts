import type { ResultHit, TraceStep } from '../pool/types.js';
import type { ToolArgs } from './values.js';

// What the members of a step (`s.tool`, `s.args.NAME`, `s.titles`…) read from any logged step, and
// the step-derived fields (`calls`, `reasoning`). One rule per member for every step type, so a
// quantifier over `steps` never meets a step a member cannot read: a step without the part reads
// as empty (`""`, no ids, no texts, 0).

const noArgs: ToolArgs = Object.freeze({});

/**
 * The step `first(steps)` and `last(steps)` give when there is none: it reads as nothing (`s.type`
 * and `s.tool` are `""`, no results, `s.step_reward` 0, `s.has_step_reward` and `s.retrieval`
 * false), like every member of a step without the part.
 */
export const noStep: TraceStep = Object.freeze({ type: 'invalid', text: '' });

/** `s.type`: `""` for the step that is none (`noStep`). */
export function typeOf(step: TraceStep): string {
  return step === noStep ? '' : step.type;
}

/** The name `calls` counts: a tool call's tool, `"search"` for a search step, `""` for reasoning and invalid steps. */
export function toolOf(step: TraceStep): string {
  return step.type === 'tool' ? step.tool : step.type === 'search' ? 'search' : '';
}

export function argsOf(step: TraceStep): ToolArgs {
  return step.type === 'tool' ? step.args : noArgs;
}

/**
 * One argument as text: a string as it is; any other JSON value as its compact JSON text
 * (`5`, `true`, `["a","b"]`); `""` when the call has no such argument or logs `null`.
 */
export function argumentText(args: ToolArgs, name: string): string {
  if (!Object.hasOwn(args, name)) return '';
  const value: unknown = args[name];
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function queryOf(step: TraceStep): string {
  return step.type === 'search' ? step.query : '';
}

export function resultsOf(step: TraceStep): readonly string[] {
  return step.type === 'search' || step.type === 'tool' ? step.results : [];
}

/** A reasoning step's or an invalid action's text, a tool call's output; `""` for a search step and a call without output. */
export function textOf(step: TraceStep): string {
  switch (step.type) {
    case 'reasoning':
    case 'invalid':
      return step.text;
    case 'tool':
      return step.output ?? '';
    case 'search':
      return '';
  }
}

function hitsOf(step: TraceStep): readonly ResultHit[] {
  return step.type === 'search' || step.type === 'tool' ? (step.hits ?? []) : [];
}

/** The titles logged with the step's results, in result order; a result logged without one (a bare id) has none. */
export function titlesOf(step: TraceStep): readonly string[] {
  return hitsOf(step).flatMap((h) => (h.title === undefined ? [] : [h.title]));
}

export function urlsOf(step: TraceStep): readonly string[] {
  return hitsOf(step).flatMap((h) => (h.url === undefined ? [] : [h.url]));
}

/** The step's reward as logged; 0 when it logs none (`has_step_reward` tells the two apart). */
export function rewardOf(step: TraceStep): number {
  return step.reward ?? 0;
}

/** The calls of `tool`: the steps whose `s.tool` it is (reasoning and invalid steps, whose `s.tool` is `""`, are no calls). */
export function callCount(steps: readonly TraceStep[], tool: string): number {
  if (tool === '') return 0;
  let n = 0;
  for (const step of steps) if (toolOf(step) === tool) n++;
  return n;
}

export function reasoningTexts(steps: readonly TraceStep[]): string[] {
  return steps.flatMap((s) => (s.type === 'reasoning' ? [s.text] : []));
}

/**
 * A retrieval step: a search, or a tool call that logged results (resolved or not), i.e. every step
 * whose results `retrieved` reads. `s.retrieval`; what the prelude's `same_final` deletes.
 */
export function isRetrieval(step: TraceStep): boolean {
  if (step.type === 'search') return true;
  return step.type === 'tool' && (step.results.length > 0 || (step.hits?.length ?? 0) > 0);
}
