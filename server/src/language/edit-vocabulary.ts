import type { TrajectoryPart } from './types.js';

// The words of the edit algebra (`edit NAME = VERB …`), each with what it does and the parts of
// the trajectory it changes (its write set). The checker reads the rules from here, the edit engine
// (edits/edit-program.ts) implements them, completion and hover show the docs.

export type EditVerb = 'delete' | 'duplicate' | 'replace' | 'append' | 'set';
export type EditMode = 'all' | 'each';
/** The collections an edit changes in place. */
export type EditedCollection = 'steps' | 'citations';
export type SourceWord = 'generated' | 'fake_id' | 'other_ranks';
export type SettableField = 'answer' | 'final_text';

export interface VerbRule {
  readonly doc: string;
  /** `set FIELD = EXPR` (true) or `VERB MODE x in COLL [where P]`. */
  readonly assigns: boolean;
  /** The collections the binder may name; empty: any id set (append's elements). */
  readonly collections: readonly EditedCollection[];
  readonly modes: readonly EditMode[];
  /** `with SOURCE` is required (replace) or not allowed. */
  readonly takesSource: boolean;
  /** `to citations` is required (append) or not allowed. */
  readonly takesDestination: boolean;
}

export const editVerbs: Readonly<Record<EditVerb, VerbRule>> = {
  delete: {
    doc: '`delete all s in steps where P` removes every step (or citation) where P holds, as one variant; `delete each …` removes one at a time, one variant per element.',
    assigns: false, collections: ['steps', 'citations'], modes: ['all', 'each'], takesSource: false, takesDestination: false,
  },
  duplicate: {
    doc: '`duplicate each s in steps where P` inserts a copy of one matching step right after it, one variant per step; `duplicate all …` copies every matching step at once.',
    assigns: false, collections: ['steps'], modes: ['all', 'each'], takesSource: false, takesDestination: false,
  },
  replace: {
    doc: '`replace each c in citations where P with SOURCE` puts each candidate of SOURCE in one citation position at a time: one variant per position × candidate. The final text names the id too and is rewritten when the id is cited once.',
    assigns: false, collections: ['citations'], modes: ['each'], takesSource: true, takesDestination: false,
  },
  append: {
    doc: '`append all x in IDS where P to citations` adds every such id to the end of the citations, as one variant; `append each …` adds one id, one variant per id.',
    assigns: false, collections: [], modes: ['all', 'each'], takesSource: false, takesDestination: true,
  },
  set: {
    doc: '`set answer = TEXT` (or `final_text`) replaces the field with the text the expression gives on the trajectory as the edit found it.',
    assigns: true, collections: [], modes: [], takesSource: false, takesDestination: false,
  },
};

export const editModes: Readonly<Record<EditMode, string>> = {
  all: 'one variant: the operation applies to every matching element at once',
  each: 'one variant per matching element (and, for replace, per candidate)',
};

export const sourceWords: Readonly<Record<SourceWord, string>> = {
  generated: "the attack's generators (`using lexical(8), bm25(16), candidates \"file\"`): real corpus ids neither retrieved nor cited, in the order the generators rank them",
  fake_id: 'one id outside the corpus per position: `fake:TRAJECTORY:POSITION`, with `\'` appended while the corpus has that id',
  other_ranks: 'for a citation logged as a rank marker (`[3]`), the id at each other rank of the same result list, in rank order, with the marker in the final text rewritten (`[3]` → `[5]`); no variant for a citation logged as an id',
};

export const settableFields: Readonly<Record<SettableField, string>> = {
  answer: 'the final answer',
  final_text: 'the raw final output',
};

/** The parts of a trajectory one operation changes. */
export function writesOf(verb: EditVerb, target: EditedCollection | SettableField | undefined): TrajectoryPart[] {
  switch (verb) {
    case 'set':
      return target === 'final_text' ? ['final_text'] : ['answer'];
    case 'replace':
      return ['citations', 'final_text'];
    case 'append':
      return ['citations'];
    case 'delete':
    case 'duplicate':
      return [target === 'citations' ? 'citations' : 'steps'];
  }
}

const editedCollections: readonly EditedCollection[] = ['steps', 'citations'];

/** Every part some operation of the algebra writes: what a logged field's `depends on` may name (the order of docs/language.md). */
export const writableParts: readonly TrajectoryPart[] = (['answer', 'final_text', 'citations', 'steps'] as const)
  .filter((part) => (Object.keys(editVerbs) as EditVerb[]).some((verb) => [...editedCollections, ...(Object.keys(settableFields) as SettableField[])].some((target) => writesOf(verb, target).includes(part))));

export function isWritablePart(word: string): word is TrajectoryPart {
  return (writableParts as readonly string[]).includes(word);
}

export function isEditVerb(word: string): word is EditVerb {
  return Object.hasOwn(editVerbs, word);
}

export function isSourceWord(word: string): word is SourceWord {
  return Object.hasOwn(sourceWords, word);
}

export function isSettableField(word: string): word is SettableField {
  return Object.hasOwn(settableFields, word);
}
