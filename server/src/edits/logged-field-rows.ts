import type { AnalysisInputs } from '../inputs/analysis-inputs.js';
import type { IssueLog } from '../inputs/load-inputs.js';
import { isLoggedType, loggedFieldReason, type LoggedType } from '../language/logged-fields.js';
import type { RowIssue, Trajectory } from '../pool/types.js';
import type { SpecModel } from '../semantics/check.js';
import type { FieldDecl } from '../syntax/ast.js';

// The rows an analysis may evaluate when it reads declared logged fields: a row whose `meta` lacks
// one it reads, or holds a value of another type, is skipped with the reason, like a row the loader
// refuses, and the analysis goes on without it. Each analysis requires only the fields it reads
// (through its rewards, detectors and attacks), so a field one audit reads skips no row of
// another. Applied to the loaded inputs, so the input cache keeps the rows as the file has them.

interface Declared {
  readonly name: string;
  readonly path: readonly string[];
  readonly type: LoggedType;
}

/** What an analysis evaluates (an EditPlan), and the fields it names itself (a comparison's `greedy FIELD`). */
export interface FieldReader {
  readonly rewards: readonly string[];
  readonly detectors: readonly string[];
  readonly attacks: readonly { readonly kind: string; readonly targets: readonly string[] }[];
  readonly fields?: readonly string[];
  /** Names read of the originals only (an audit's `conforms` lines). */
  readonly values?: readonly string[];
}

/** The declared logged fields `reader` reads, in declaration order: through its rewards, detectors, attack targets and the spec's edits it applies. */
export function fieldsReadBy(model: SpecModel, reader: FieldReader): FieldDecl[] {
  const read = new Set<FieldDecl>();
  const through = (name: string): void => {
    const decl = model.globals.get(name)?.decl;
    if (decl !== undefined) for (const f of model.readSets.fieldsOfDecl(decl)) read.add(f);
  };
  for (const name of [...reader.rewards, ...reader.detectors, ...reader.attacks.flatMap((a) => a.targets), ...(reader.fields ?? []), ...(reader.values ?? [])]) through(name);
  for (const attack of reader.attacks) {
    // A built-in edit is declared in the prelude, which has no logged fields.
    const edit = model.edits.get(attack.kind);
    if (edit !== undefined && !edit.builtin) for (const f of model.readSets.fieldsOfDecl(edit.decl)) read.add(f);
  }
  return model.spec.decls.filter((d): d is FieldDecl => d.kind === 'logged' && read.has(d));
}

function declaredFields(fields: readonly FieldDecl[]): Declared[] {
  return fields.flatMap((d) => {
    const type = d.fieldType?.text;
    // A field computed by a command is no value of the row's meta.
    if (d.name === undefined || d.command !== undefined || type === undefined || !isLoggedType(type)) return [];
    return [{ name: d.name.text, path: d.path.slice(1).map((n) => n.text), type }];
  });
}

/** The first field the row cannot give, as a reason (undefined when it gives them all); counts in `missing` each field it cannot give. */
function reasonOf(row: Trajectory, fields: readonly Declared[], missing: number[]): string | undefined {
  let first: string | undefined;
  fields.forEach((f, k) => {
    const reason = loggedFieldReason(row.meta, f.path, f.type, f.name);
    if (reason === undefined) return;
    missing[k]!++;
    first ??= reason;
  });
  return first;
}

/**
 * `inputs` without the rows that lack a logged field `reader` reads; each is an issue of its pool
 * (named as the report names it) and of `log` (as the loader names it), and each pool counts the
 * rows that lack each field (`missingFields`). The same object when the analysis reads none.
 */
export function withLoggedFields(model: SpecModel, inputs: AnalysisInputs, log: IssueLog, reader: FieldReader): AnalysisInputs {
  const fields = declaredFields(fieldsReadBy(model, reader));
  if (fields.length === 0) return inputs;
  // Two analyses of one pool skip the same rows: the log lists each once.
  const logged = new Set(log.issues.map((i) => `${i.file}\u0000${i.line}\u0000${i.reason}`));
  const pools = inputs.pools.map((pool) => {
    const rows: Trajectory[] = [];
    const issues: RowIssue[] = [...pool.issues];
    const missing = fields.map(() => 0);
    for (const row of pool.rows) {
      const reason = reasonOf(row, fields, missing);
      if (reason === undefined) {
        rows.push(row);
        continue;
      }
      issues.push({ file: pool.file, line: row.source.line, reason });
      const key = `${row.source.file}\u0000${row.source.line}\u0000${reason}`;
      if (!logged.has(key)) log.issues.push({ file: row.source.file, line: row.source.line, reason });
      logged.add(key);
    }
    const missingFields = fields.flatMap((f, k) => (missing[k]! > 0 ? [{ field: f.name, path: ['meta', ...f.path].join('.'), rows: missing[k]! }] : []));
    return { ...pool, rows, issues, ...(missingFields.length === 0 ? {} : { missingFields }) };
  });
  return { ...inputs, pools };
}
