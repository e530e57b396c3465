import { editModes, editVerbs, isEditVerb, isSettableField, isSourceWord, settableFields, sourceWords, writesOf, type EditedCollection } from '../language/edit-vocabulary.js';
import type { TrajectoryPart, Type, Visibility } from '../language/types.js';
import { issueCodes } from '../problems/issue-codes.js';
import { maxEditOperations } from '../problems/limits.js';
import type { Span } from '../problems/span.js';
import type { EditBinder, EditDecl, EditOp, Expr, Name } from '../syntax/ast.js';
import { report, type Analysis } from './analysis.js';
import { expectType, type Inference, type Inferred } from './infer.js';
import type { VariableSymbol } from './symbols.js';

// The checker of `edit` declarations: each operation's verb, mode, collection, clauses and
// expressions, the edit's visibility (oracle exactly when one of its expressions reads gold or an
// oracle field: the taint rule of rewards) and its write set.

/** What the checker knows of an edit, a built-in one (the prelude) or one the spec declares. */
export interface EditInfo {
  readonly name: string;
  readonly decl: EditDecl;
  readonly doc: string;
  readonly visibility: Visibility;
  readonly oracleSource?: Span | undefined;
  /** The parts of a trajectory its operations change. */
  readonly writes: ReadonlySet<TrajectoryPart>;
  /** It reads the attack's candidate generators (`with generated`), so an attack of this kind needs `using …`. */
  readonly generated: boolean;
  /** It comes from the prelude (semantics/prelude.ts), not from the spec. */
  readonly builtin: boolean;
}

type Scope = Map<string, VariableSymbol>;

function bad(a: Analysis, span: Span, message: string): void {
  report(a, issueCodes.badEdit, 'error', span, message);
}

const list = (words: Readonly<Record<string, unknown>>): string => Object.keys(words).join(', ');

class EditChecker {
  readonly parts: Inferred[] = [];
  readonly writes = new Set<TrajectoryPart>();
  generated = false;
  private eachOp: EditOp | undefined;

  constructor(private readonly a: Analysis, private readonly inference: Inference) {}

  /** Types `e` in `scope` and reports it when it is not of one of the `accepted` types. */
  typed(e: Expr | undefined, scope: Scope, accepted: readonly Type[], what: string): Inferred | undefined {
    if (e === undefined) return undefined;
    const inferred = this.inference.expr(e, scope);
    this.parts.push(inferred);
    expectType(this.a, inferred, accepted, e.span, what);
    return inferred;
  }

  bind(scope: Scope, name: Name | undefined, type: Type, visibility: Visibility): Scope {
    if (name === undefined) return scope;
    const variable: VariableSymbol = { kind: 'variable', name: name.text, nameSpan: name.span, type, visibility };
    this.a.occurrences.push({ span: name.span, symbol: variable, isDeclaration: true });
    return new Map(scope).set(name.text, variable);
  }

  op(op: EditOp): void {
    const verb = op.verb.text;
    if (!isEditVerb(verb)) {
      bad(this.a, op.verb.span, `unknown edit operation '${verb}' (${list(editVerbs)})`);
      return;
    }
    const rule = editVerbs[verb];
    if (rule.assigns) {
      this.assignment(op);
      return;
    }
    if (op.binder === undefined) {
      bad(this.a, op.span, `'${verb}' is written '${verb} all x in COLLECTION …' or '${verb} each x in COLLECTION …'`);
      return;
    }
    const mode = op.binder.mode?.text;
    if (mode !== undefined && !rule.modes.some((m) => m === mode)) {
      bad(this.a, op.binder.mode!.span, `'${verb}' takes ${rule.modes.map((m) => `'${m}'`).join(' or ')}, not '${mode}' (${rule.modes.map((m) => `${m}: ${editModes[m]}`).join('; ')})`);
    }
    if (mode === 'each') {
      if (this.eachOp !== undefined) bad(this.a, op.span, 'an edit has at most one `each` operation: the variants of two would multiply');
      this.eachOp = op;
    }
    const binder = op.binder;
    const edited = this.collection(verb, rule.collections, binder);
    const elementType: Type = edited === 'steps' ? 'step' : 'id';
    const elements = rule.collections.length === 0 ? this.typed(binder.collection, new Map(), ['ids'], `the ids '${verb}' adds`) : undefined;
    const scope = this.bind(new Map(), binder.variable, elementType, elements?.visibility ?? 'visible');
    this.typed(binder.condition, scope, ['boolean'], `the condition after 'where'`);

    if (rule.takesSource) {
      if (op.source === undefined) bad(this.a, op.span, `'${verb}' needs 'with SOURCE': ${list(sourceWords)}, or 'x in IDS where …'`);
      else this.source(op, scope);
    } else if (op.source !== undefined) {
      bad(this.a, op.source.span, `'${verb}' takes no 'with' clause`);
    }
    if (rule.takesDestination) {
      if (op.destination === undefined) bad(this.a, op.span, `'${verb}' needs 'to citations'`);
      else if (op.destination.text !== 'citations') bad(this.a, op.destination.span, `'${verb}' adds to 'citations', not '${op.destination.text}'`);
    } else if (op.destination !== undefined) {
      bad(this.a, op.destination.span, `'${verb}' takes no 'to' clause`);
    }
    for (const part of writesOf(verb, edited)) this.writes.add(part);
  }

  /** The collection a delete, duplicate or replace changes, which must be written as its field's name. */
  private collection(verb: string, allowed: readonly EditedCollection[], binder: EditBinder): EditedCollection | undefined {
    if (allowed.length === 0) return undefined;
    const written = binder.collection;
    const name = written?.kind === 'name' ? written.name.text : undefined;
    const found = allowed.find((c) => c === name);
    if (found === undefined && written !== undefined) bad(this.a, written.span, `'${verb}' changes ${allowed.map((c) => `'${c}'`).join(' or ')}, written as that field's name`);
    return found;
  }

  private source(op: EditOp, scope: Scope): void {
    const source = op.source!;
    if (source.kind === 'source-word') {
      if (!isSourceWord(source.word.text)) bad(this.a, source.word.span, `unknown source '${source.word.text}' (${list(sourceWords)}, or 'x in IDS where …')`);
      if (source.word.text === 'generated') this.generated = true;
      return;
    }
    const candidates = this.typed(source.collection, scope, ['ids'], 'the candidates after \'with\'');
    const inner = this.bind(scope, source.variable, 'id', candidates?.visibility ?? 'visible');
    this.typed(source.condition, inner, ['boolean'], "the condition after 'where'");
  }

  private assignment(op: EditOp): void {
    const field = op.field?.text;
    if (field === undefined) return;
    if (!isSettableField(field)) {
      bad(this.a, op.field!.span, `'set' changes ${list(settableFields)}, not '${field}'`);
      return;
    }
    this.typed(op.value, new Map(), ['text'], `the new ${field}`);
    for (const part of writesOf('set', field)) this.writes.add(part);
  }
}

/** Checks one edit; `builtin` for the prelude's. */
export function checkEdit(a: Analysis, inference: Inference, decl: EditDecl, builtin: boolean): EditInfo {
  const checker = new EditChecker(a, inference);
  checker.typed(decl.guard, new Map(), ['boolean'], "the condition after 'when'");
  for (const op of decl.ops) checker.op(op);
  // Each operation applies to what the ones before it left: a long chain of doublings is an edit
  // no audit can build, so the length itself is bounded (the engine bounds what an edit adds).
  const extra = decl.ops[maxEditOperations];
  if (extra !== undefined) bad(a, extra.span, `an edit has at most ${maxEditOperations} operations; this one has ${decl.ops.length}`);
  const oracle = checker.parts.find((p) => p.visibility === 'oracle');
  if (decl.doc === undefined && decl.name !== undefined) {
    report(a, issueCodes.missingDescription, 'warning', decl.name.span, `edit '${decl.name.text}' has no description: say what loophole it tries`);
  }
  return {
    name: decl.name?.text ?? '',
    decl,
    doc: decl.doc?.value ?? '',
    visibility: oracle === undefined ? 'visible' : 'oracle',
    oracleSource: oracle?.oracleSource,
    writes: checker.writes,
    generated: checker.generated,
    builtin,
  };
}
