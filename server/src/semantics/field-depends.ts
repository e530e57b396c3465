import { writableParts } from '../language/edit-vocabulary.js';
import type { TrajectoryPart } from '../language/types.js';
import type { FieldDecl } from '../syntax/ast.js';

// What a logged field's value depends on, apart from its checks (check-logged-field.ts), so the read
// sets can ask without importing the checker.

/**
 * The parts of a trajectory the field's logged value is computed from: those its `depends on`
 * names (the ones an edit can write; a misspelt one is an error of the check), or, unsaid, every
 * part an edit can write.
 */
export function fieldDependsOn(decl: FieldDecl): readonly TrajectoryPart[] {
  if (decl.dependsOn === undefined) return writableParts;
  return dependableParts.filter((part) => decl.dependsOn!.parts.some((n) => n.text === part));
}

/**
 * What a `depends on` may name: the parts an edit can write, and the question, which no edit writes
 * (a per-question label, such as augmented gold answers, depends on it alone and is never frozen).
 */
export const dependableParts: readonly TrajectoryPart[] = [...writableParts, 'question'];
