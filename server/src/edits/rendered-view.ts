// An edit of a row read through a log format, as the framework would have logged it: the format's
// renderer (importers/render.ts) writes the edited trajectory back, and the view's `meta` gets the
// rendered fields (the response transcript, the observation blocks, the messages), so a reward that
// reads the logged text reads the edited rollout's. Every other logged value stays as logged: the
// checker names it frozen (semantics/check-frozen.ts).
import { importerFor } from '../importers/registry.js';
import type { TrajectoryView } from '../language/view.js';
import type { Trajectory } from '../pool/types.js';
import type { Edit } from './edit-program.js';

/** The edit's view with its rendered fields; its view as it is for a row no format renders; or why the format cannot write this edit. */
export function renderedView(row: Trajectory, edit: Edit): TrajectoryView | { readonly unrendered: string } {
  const renderer = row.format === undefined ? undefined : importerFor(row.format)?.renderer;
  if (renderer === undefined) return edit.view;
  const { view } = edit;
  const out = renderer.render(row, { stepOrigin: edit.stepOrigin, answer: view.answer, finalText: view.finalText, citations: view.citations });
  return out.ok ? { ...view, meta: { ...row.meta, ...out.meta } } : { unrendered: out.reason };
}
