// An edit of a row read through a log format, as the framework would have logged it: the format's
// renderer (importers/render.ts) writes the edited trajectory back, and the view's `meta` holds the
// rendered fields (the response transcript, the observation blocks, the messages) in place of the
// logged ones, so a reward that reads the logged text reads the edited rollout's. Every other logged
// value stays as logged: the checker names it frozen. The rendering is done when a term first reads
// a rendered field: an edit the format cannot write matters only to a reward that reads one.
import { importerFor } from '../importers/registry.js';
import type { RenderOutcome } from '../importers/render.js';
import type { TrajectoryView } from '../language/view.js';
import type { Trajectory } from '../pool/types.js';
import type { Edit } from './edit-program.js';

/** Thrown when a term reads a rendered field of an edit its row's format cannot write back: the edit is not counted. */
export class UnrenderedEdit extends Error {
  constructor(readonly reason: string) {
    super(`the log's format cannot write this edit back: ${reason}`);
  }
}

/**
 * The edit's view with its rendered fields, written when first read (a read of an edit the format
 * cannot write throws `UnrenderedEdit`); the edit's view as it is for a row no format renders.
 */
export function renderedView(row: Trajectory, edit: Edit): TrajectoryView {
  const renderer = row.format === undefined ? undefined : importerFor(row.format)?.renderer;
  if (renderer === undefined) return edit.view;
  const { view } = edit;
  let out: RenderOutcome | undefined;
  const written = (): Readonly<Record<string, unknown>> => {
    out ??= renderer.render(row, { stepOrigin: edit.stepOrigin, answer: view.answer, finalText: view.finalText, citations: view.citations });
    if (!out.ok) throw new UnrenderedEdit(out.reason);
    return out.meta;
  };
  const meta: Record<string, unknown> = { ...row.meta };
  for (const key of renderer.renders) {
    if (Object.hasOwn(meta, key)) Object.defineProperty(meta, key, { enumerable: true, get: () => written()[key] });
  }
  return { ...view, meta };
}
