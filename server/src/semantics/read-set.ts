import { builtinFieldsByName, builtinFunctionsByName } from '../language/builtins.js';
import type { TrajectoryPart } from '../language/types.js';
import type { Decl, Expr } from '../syntax/ast.js';
import type { DeclSymbol } from './symbols.js';

// Which parts of a trajectory an expression reads, through the signals and detectors it names:
// the checker's read sets. An edit that changes none of the parts a detector reads cannot change
// that detector (semantics/check-edit.ts warns about attacks whose targets can never flip).

/** The read sets of declarations, worked out once per check; a declaration that uses itself reads nothing more. */
export class ReadSets {
  private readonly known = new Map<Decl, ReadonlySet<TrajectoryPart>>();

  constructor(private readonly globals: ReadonlyMap<string, DeclSymbol>) {}

  /** The parts `expr` reads; `bound` are the names of the variables in scope (a quantifier's reads are its collection's). */
  of(expr: Expr | undefined, bound: ReadonlySet<string> = new Set()): Set<TrajectoryPart> {
    const parts = new Set<TrajectoryPart>();
    this.walk(expr, bound, parts);
    return parts;
  }

  /** The parts a signal's or detector's body reads. */
  ofDecl(decl: Decl): ReadonlySet<TrajectoryPart> {
    const known = this.known.get(decl);
    if (known !== undefined) return known;
    this.known.set(decl, new Set());
    // A logged value may have been computed from any part an edit writes: an edit re-reads it (the
    // rendered text of the edited rollout, or the logged value, then named frozen).
    const parts = decl.kind === 'signal' || decl.kind === 'detector' ? this.of(decl.body) : new Set<TrajectoryPart>(decl.kind === 'logged' ? ['meta', 'steps', 'citations', 'answer', 'final_text'] : []);
    this.known.set(decl, parts);
    return parts;
  }

  private walk(e: Expr | undefined, bound: ReadonlySet<string>, parts: Set<TrajectoryPart>): void {
    if (e === undefined) return;
    switch (e.kind) {
      case 'number':
      case 'string':
      case 'bool':
        return;
      case 'name': {
        if (bound.has(e.name.text)) return;
        const declared = this.globals.get(e.name.text);
        if (declared !== undefined) {
          for (const part of this.ofDecl(declared.decl)) parts.add(part);
          return;
        }
        const field = builtinFieldsByName.get(e.name.text);
        if (field !== undefined) parts.add(field.reads);
        return;
      }
      case 'member':
        return this.walk(e.object, bound, parts);
      case 'call': {
        const implicit = builtinFunctionsByName.get(e.callee.text)?.implicitReads;
        if (implicit !== undefined) parts.add(implicit);
        for (const arg of e.args) this.walk(arg, bound, parts);
        return;
      }
      case 'unary':
        return this.walk(e.operand, bound, parts);
      case 'binary':
        this.walk(e.left, bound, parts);
        return this.walk(e.right, bound, parts);
      case 'if':
        this.walk(e.condition, bound, parts);
        this.walk(e.whenTrue, bound, parts);
        return this.walk(e.whenFalse, bound, parts);
      case 'quantifier': {
        this.walk(e.collection, bound, parts);
        const inner = e.variable === undefined ? bound : new Set([...bound, e.variable.text]);
        return this.walk(e.body, inner, parts);
      }
    }
  }
}
