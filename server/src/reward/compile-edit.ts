import { isSettableField, isSourceWord, type EditMode, type SettableField, type SourceWord } from '../language/edit-vocabulary.js';
import type { EvalEnv } from '../language/eval-env.js';
import type { TrajectoryPart, Visibility } from '../language/types.js';
import { kinds, type Eval, type TypedEval } from '../language/values.js';
import type { TrajectoryView } from '../language/view.js';
import type { TraceStep } from '../pool/types.js';
import type { EditOp, Expr, Name } from '../syntax/ast.js';
import { RewardCompiler, UncompilableSpec, type Scope } from './compile.js';
import type { SpecModel } from '../semantics/check.js';
import type { EditInfo } from '../semantics/check-edit.js';

// An edit declaration compiled into plain operations with evaluators; edits/edit-program.ts applies
// them to trajectories. Each condition and value is evaluated on the trajectory as the operation
// finds it (after the operations before it in the edit).

/** `x` bound to the element being tested: the element is passed in, the evaluator reads it from a cell. */
export type ElementTest<T> = (element: T, view: TrajectoryView, env: EvalEnv) => boolean;
/** A test of a candidate `x` for the element `c` it would replace. */
export type CandidateTest = (current: string, candidate: string, view: TrajectoryView, env: EvalEnv) => boolean;

export type CompiledSource =
  | { readonly kind: SourceWord }
  | { readonly kind: 'each'; readonly candidates: (current: string, view: TrajectoryView, env: EvalEnv) => Iterable<string>; readonly test: CandidateTest };

export type CompiledOp =
  | { readonly verb: 'set'; readonly field: SettableField; readonly value: Eval<string> }
  | { readonly verb: 'delete' | 'duplicate'; readonly mode: EditMode; readonly collection: 'steps'; readonly test: ElementTest<TraceStep> }
  | { readonly verb: 'delete'; readonly mode: EditMode; readonly collection: 'citations'; readonly test: ElementTest<string> }
  | { readonly verb: 'replace'; readonly test: ElementTest<string>; readonly source: CompiledSource }
  | { readonly verb: 'append'; readonly mode: EditMode; readonly elements: Eval<Iterable<string>>; readonly test: ElementTest<string> };

export interface CompiledEdit {
  readonly name: string;
  /** Oracle when one of its expressions reads gold or an oracle field (the checker's taint): its figures are oracle upper bounds. */
  readonly visibility: Visibility;
  /** The parts of a trajectory its operations change (the checker's write set). */
  readonly writes: ReadonlySet<TrajectoryPart>;
  readonly guard: Eval<boolean> | undefined;
  readonly ops: readonly CompiledOp[];
}

const always = (): boolean => true;

class EditCompiler {
  constructor(private readonly compiler: RewardCompiler) {}

  private value(e: Expr | undefined, scope: Scope): TypedEval {
    if (e === undefined) throw new UncompilableSpec('incomplete edit');
    return this.compiler.expression(e, scope);
  }

  /** A condition over one bound element; no condition holds for every element. */
  private test<T>(condition: Expr | undefined, variable: Name | undefined, wrap: (read: Eval<T>) => TypedEval): ElementTest<T> {
    if (condition === undefined) return always;
    let current: T | undefined;
    const scope: Scope = variable === undefined ? new Map() : new Map([[variable.text, wrap(() => current!)]]);
    const run = kinds.boolean.read(this.value(condition, scope));
    if (run === undefined) throw new UncompilableSpec('an edit condition is not boolean');
    return (element, view, env) => {
      current = element;
      return run(view, env);
    };
  }

  private ids(e: Expr | undefined, scope: Scope): Eval<Iterable<string>> {
    const run = kinds.ids.read(this.value(e, scope));
    if (run === undefined) throw new UncompilableSpec('edit elements are not ids');
    return run;
  }

  op(op: EditOp): CompiledOp {
    const verb = op.verb.text;
    if (verb === 'set') {
      const field = op.field?.text ?? '';
      const value = kinds.text.read(this.value(op.value, new Map()));
      if (!isSettableField(field) || value === undefined) throw new UncompilableSpec('a set operation that does not check');
      return { verb, field, value };
    }
    const binder = op.binder;
    if (binder === undefined) throw new UncompilableSpec('incomplete edit');
    const mode: EditMode = binder.mode?.text === 'each' ? 'each' : 'all';
    const collection = binder.collection?.kind === 'name' ? binder.collection.name.text : undefined;
    switch (verb) {
      case 'delete':
      case 'duplicate':
        if (collection === 'steps') return { verb, mode, collection, test: this.test(binder.condition, binder.variable, kinds.step.wrap) };
        if (verb === 'delete' && collection === 'citations') return { verb, mode, collection, test: this.test(binder.condition, binder.variable, kinds.id.wrap) };
        break;
      case 'replace':
        return { verb, test: this.test(binder.condition, binder.variable, kinds.id.wrap), source: this.source(op, binder.variable) };
      case 'append':
        return { verb, mode, elements: this.ids(binder.collection, new Map()), test: this.test(binder.condition, binder.variable, kinds.id.wrap) };
    }
    throw new UncompilableSpec(`an edit operation that does not check: ${verb}`);
  }

  private source(op: EditOp, element: Name | undefined): CompiledSource {
    const source = op.source;
    if (source === undefined) throw new UncompilableSpec('replace without a source');
    if (source.kind === 'source-word') {
      if (!isSourceWord(source.word.text)) throw new UncompilableSpec(`unknown source '${source.word.text}'`);
      return { kind: source.word.text };
    }
    // The candidates' expression and condition may read the element being replaced (`c`).
    let current: string | undefined;
    let candidate: string | undefined;
    const outer: Scope = element === undefined ? new Map() : new Map([[element.text, kinds.id.wrap(() => current!)]]);
    const candidates = this.ids(source.collection, outer);
    const condition = source.condition === undefined ? undefined : kinds.boolean.read(this.value(source.condition, new Map(outer).set(source.variable.text, kinds.id.wrap(() => candidate!))));
    if (source.condition !== undefined && condition === undefined) throw new UncompilableSpec('a candidate condition is not boolean');
    return {
      kind: 'each',
      candidates: (c, view, env) => {
        current = c;
        return candidates(view, env);
      },
      test: (c, x, view, env) => {
        current = c;
        candidate = x;
        return condition === undefined || condition(view, env);
      },
    };
  }
}

/** Compiles an edit of a checked spec (or of the prelude, against the prelude's model). */
export function compileEdit(model: SpecModel, info: EditInfo): CompiledEdit {
  const { decl, visibility, writes } = info;
  const compiler = new EditCompiler(new RewardCompiler(model));
  const guard = decl.guard === undefined ? undefined : kinds.boolean.read(new RewardCompiler(model).expression(decl.guard, new Map()));
  if (decl.guard !== undefined && guard === undefined) throw new UncompilableSpec("an edit's guard is not boolean");
  return { name: decl.name?.text ?? '', visibility, writes, guard, ops: decl.ops.map((op) => compiler.op(op)) };
}
