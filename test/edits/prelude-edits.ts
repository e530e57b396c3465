// The prelude's three edits applied to one view, as an audit applies them (edits/edit-program.ts):
// what the edit tests read instead of hand-written operators.
import { editVariants, type Edit } from '../../server/src/edits/edit-program.js';
import { corpusEnv, type EvalEnv } from '../../server/src/language/eval-env.js';
import type { TrajectoryView } from '../../server/src/language/view.js';
import { compileEdit, type CompiledEdit } from '../../server/src/reward/compile-edit.js';
import { prelude } from '../../server/src/semantics/prelude.js';

export function preludeEdit(name: string): CompiledEdit {
  return compileEdit(prelude.model, prelude.edits.get(name)!);
}

/** An environment whose corpus ids are `ids` (a set the test may count lookups of). */
export function envWithIds(ids: ReadonlySet<string>): EvalEnv {
  return { ...corpusEnv({ file: 'c.jsonl', passages: new Map() }), corpusIds: ids };
}

const noCandidates = (): readonly string[] => [];

export function sameFinalEdit(view: TrajectoryView): Edit | undefined {
  return editVariants(preludeEdit('same_final'), view, { trajectoryId: 't', env: envWithIds(new Set()), candidatesAt: noCandidates }).next().value ?? undefined;
}

export function fakeIdEdits(trajectoryId: string, view: TrajectoryView, corpusIds: ReadonlySet<string>): Iterable<Edit> {
  return editVariants(preludeEdit('fake_id'), view, { trajectoryId, env: envWithIds(corpusIds), candidatesAt: noCandidates });
}

export function launderEdits(view: TrajectoryView, candidatesAt: (position: number) => readonly string[]): Iterable<Edit> {
  return editVariants(preludeEdit('launder'), view, { trajectoryId: 't', env: envWithIds(new Set()), candidatesAt });
}
