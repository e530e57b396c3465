import type { AnalysisInputs } from '../inputs/analysis-inputs.js';
import type { IssueLog } from '../inputs/load-inputs.js';
import { isLoggedType, loggedFieldReason, type LoggedType } from '../language/logged-fields.js';
import type { RowIssue, Trajectory } from '../pool/types.js';
import type { SpecModel } from '../semantics/check.js';

// The rows an analysis may evaluate when the spec declares logged fields: a row whose `meta` lacks
// one, or holds a value of another type, is skipped with the reason, like a row the loader refuses,
// and the analysis goes on without it. Applied to the loaded inputs, so the input cache keeps the
// rows as the file has them whatever the spec declares.

interface Declared {
  readonly name: string;
  readonly path: readonly string[];
  readonly type: LoggedType;
}

function declaredFields(model: SpecModel): Declared[] {
  return model.spec.decls.flatMap((d) => {
    const type = d.kind === 'logged' ? d.fieldType?.text : undefined;
    if (d.kind !== 'logged' || d.name === undefined || type === undefined || !isLoggedType(type)) return [];
    return [{ name: d.name.text, path: d.path.slice(1).map((n) => n.text), type }];
  });
}

/** The first declared field the row cannot give, as a reason; undefined when it gives them all. */
function reasonOf(row: Trajectory, fields: readonly Declared[]): string | undefined {
  for (const f of fields) {
    const reason = loggedFieldReason(row.meta, f.path, f.type, f.name);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/**
 * `inputs` without the rows that lack a declared logged field; each is an issue of its pool (named
 * as the report names it) and of `log` (as the loader names it). The same object when none is declared.
 */
export function withLoggedFields(model: SpecModel, inputs: AnalysisInputs, log: IssueLog): AnalysisInputs {
  const fields = declaredFields(model);
  if (fields.length === 0) return inputs;
  // Two analyses of one pool skip the same rows: the log lists each once.
  const logged = new Set(log.issues.map((i) => `${i.file}\u0000${i.line}\u0000${i.reason}`));
  const pools = inputs.pools.map((pool) => {
    const rows: Trajectory[] = [];
    const issues: RowIssue[] = [...pool.issues];
    for (const row of pool.rows) {
      const reason = reasonOf(row, fields);
      if (reason === undefined) {
        rows.push(row);
        continue;
      }
      issues.push({ file: pool.file, line: row.source.line, reason });
      const key = `${row.source.file}\u0000${row.source.line}\u0000${reason}`;
      if (!logged.has(key)) log.issues.push({ file: row.source.file, line: row.source.line, reason });
      logged.add(key);
    }
    return { ...pool, rows, issues };
  });
  return { ...inputs, pools };
}
