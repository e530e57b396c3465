import { parse } from '../syntax/parse.js';
import { analysisOf } from './analysis.js';
import { checkEdit, type EditInfo } from './check-edit.js';
import type { SpecModel } from './check.js';
import { Inference } from './infer.js';

// The built-in edits, written in the edit algebra itself: the paper's three attack kinds. An audit's
// `attack same_final targets U, L` means the edit below, exactly as if the spec had declared it;
// docs/language.md shows this text.

export const preludeText = `edit same_final "Delete every search and every tool call that logged results (resolved or not), so that nothing is retrieved; keep the question, the answer, the ordered citations, the raw final and every other step. Needs a final and one such step. The paper targets {U, L}."
  when has_final
  = delete all s in steps where s.retrieval

edit fake_id "Replace one citation with an id that is not in the corpus, one position at a time. The paper targets {F}."
  = replace each c in citations with fake_id

edit launder "Replace one citation with a real corpus id the agent never retrieved (candidates from the attack's generators), one position and candidate at a time. The paper targets {L}."
  = replace each c in citations with generated
`;

export interface Prelude {
  /** The prelude checked as a spec of its own: the model its edits compile against. */
  readonly model: SpecModel;
  readonly edits: ReadonlyMap<string, EditInfo>;
}

function checkPrelude(): Prelude {
  const parsed = parse(preludeText);
  const a = analysisOf(parsed.spec);
  const inference = new Inference(a);
  const edits = new Map<string, EditInfo>();
  for (const decl of parsed.spec.decls) {
    if (decl.kind === 'edit' && decl.name !== undefined) edits.set(decl.name.text, checkEdit(a, inference, decl, true));
  }
  const problems = [...parsed.problems, ...a.problems];
  if (problems.length > 0) throw new Error(`the prelude does not check: ${problems.map((p) => p.message).join('; ')}`);
  return { model: { spec: parsed.spec, globals: a.globals, occurrences: a.occurrences, declInfo: a.declInfo, termInfo: a.termInfo, problems: [], edits, readSets: a.readSets, preludeModel: undefined }, edits };
}

/** The one prelude, checked when the checker is first loaded (a constant: the same text every time). */
export const prelude: Prelude = checkPrelude();
