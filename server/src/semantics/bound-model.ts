import type { CheckedSpec } from './analyze.js';
import type { SpecModel } from './check.js';
import { ReadSets } from './read-set.js';

/**
 * A checked model in the form that crosses threads (a structured clone): what the analyses and the
 * compilers read. It leaves out the editor's occurrences (an occurrence of a built-in holds its
 * implementation, which cannot be cloned) and the read sets, a class that `modelOfBound` makes
 * again from the globals. So the analysis worker and the preparation workers neither parse nor
 * check the spec again, and a preparation worker never loads the parser.
 */
export interface BoundModel {
  readonly spec: SpecModel['spec'];
  readonly globals: SpecModel['globals'];
  readonly declInfo: SpecModel['declInfo'];
  readonly termInfo: SpecModel['termInfo'];
  readonly edits: SpecModel['edits'];
  readonly problems: SpecModel['problems'];
  readonly preludeModel: BoundModel | undefined;
}

export function bindModel(model: SpecModel): BoundModel {
  const { spec, globals, declInfo, termInfo, edits, problems } = model;
  return { spec, globals, declInfo, termInfo, edits, problems, preludeModel: model.preludeModel === undefined ? undefined : bindModel(model.preludeModel) };
}

/** The model as the checker made it but for the occurrences, which no analysis reads. */
export function modelOfBound(bound: BoundModel): SpecModel {
  return { ...bound, occurrences: [], readSets: new ReadSets(bound.globals), preludeModel: bound.preludeModel === undefined ? undefined : modelOfBound(bound.preludeModel) };
}

/** A checked spec as the server thread hands it to the analysis worker. */
export interface BoundSpec {
  readonly text: string;
  readonly specFile: string;
  readonly model: BoundModel;
  readonly problems: CheckedSpec['problems'];
  readonly hashes: CheckedSpec['hashes'];
}

export function bindSpec(checked: CheckedSpec): BoundSpec {
  return { text: checked.text, specFile: checked.specFile, model: bindModel(checked.model), problems: checked.problems, hashes: checked.hashes };
}

export function checkedOfBound(bound: BoundSpec): CheckedSpec {
  return { text: bound.text, specFile: bound.specFile, model: modelOfBound(bound.model), problems: bound.problems, hashes: bound.hashes };
}
