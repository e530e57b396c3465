import { builtinFieldsByName, builtinFunctionsByName } from '../language/builtins.js';
import type { TrajectoryPart } from '../language/types.js';
import type { Decl, Expr, FieldDecl, RewardDecl } from '../syntax/ast.js';
import { writableParts } from '../language/edit-vocabulary.js';
import { fieldDependsOn } from './field-depends.js';
import type { DeclSymbol } from './symbols.js';

// Which parts of a trajectory an expression reads, through the signals and detectors it names:
// the checker's read sets. An edit that changes none of the parts a detector reads cannot change
// that detector (semantics/check-edit.ts warns about attacks whose targets can never flip). A
// declared logged field reads `meta` and the parts its value depends on (`depends on`; unsaid:
// every part an edit can write), so the engine re-evaluates it after an edit that writes one of
// them. The declared logged fields an expression reads, through the same names, are kept beside
// its parts (semantics/frozen-fields.ts).

/** A declaration whose value a program of the user's computes (`= command "…"`). */
export type CommandDecl = FieldDecl | RewardDecl;

/**
 * What an expression or a declaration reads: parts of the trajectory, the declared fields among
 * them (logged and computed by a command alike), and the declarations computed by a command.
 */
interface Reads {
  readonly parts: Set<TrajectoryPart>;
  readonly fields: Set<FieldDecl>;
  readonly commands: Set<CommandDecl>;
}

const noReads = (): Reads => ({ parts: new Set(), fields: new Set(), commands: new Set() });

const commandNames = (commands: ReadonlySet<CommandDecl>): string[] => [...commands].flatMap((c) => (c.name === undefined ? [] : [c.name.text]));

/** The read sets of declarations, worked out once per check; a declaration that uses itself reads nothing more. */
export class ReadSets {
  private readonly known = new Map<Decl, Reads>();

  constructor(private readonly globals: ReadonlyMap<string, DeclSymbol>) {}

  /** The parts `expr` reads; `bound` are the names of the variables in scope (a quantifier's reads are its collection's, its filter's, its body's and its fallback's). */
  of(expr: Expr | undefined, bound: ReadonlySet<string> = new Set()): Set<TrajectoryPart> {
    const reads = noReads();
    this.walk(expr, bound, reads);
    return reads.parts;
  }

  /** The names of the fields and rewards computed by a command that `expr` reads, directly or through the declarations it names. */
  commandsOf(expr: Expr | undefined): string[] {
    const reads = noReads();
    this.walk(expr, new Set(), reads);
    return commandNames(reads.commands);
  }

  /** `commandsOf` a declaration, itself included when a command computes it. */
  commandNamesOfDecl(decl: Decl): string[] {
    return commandNames(this.readsOf(decl).commands);
  }

  /** The declared logged fields `expr` reads, directly or through the signals, detectors and rewards it names. */
  fieldsOf(expr: Expr | undefined): ReadonlySet<FieldDecl> {
    const reads = noReads();
    this.walk(expr, new Set(), reads);
    return reads.fields;
  }

  /** The declarations computed by a command that a declaration reads, itself included: what an analysis of it must run. */
  commandsOfDecl(decl: Decl): ReadonlySet<CommandDecl> {
    return this.readsOf(decl).commands;
  }

  /** The parts a signal's, detector's or logged field's value reads. */
  ofDecl(decl: Decl): ReadonlySet<TrajectoryPart> {
    return this.readsOf(decl).parts;
  }

  /** The declared logged fields a declaration reads: a reward through its terms and its base, an edit through its expressions. */
  fieldsOfDecl(decl: Decl): ReadonlySet<FieldDecl> {
    return this.readsOf(decl).fields;
  }

  private readsOf(decl: Decl): Reads {
    const known = this.known.get(decl);
    if (known !== undefined) return known;
    this.known.set(decl, noReads());
    const reads = noReads();
    switch (decl.kind) {
      case 'signal':
      case 'detector':
        this.walk(decl.body, new Set(), reads);
        break;
      case 'logged':
        reads.parts.add('meta');
        for (const part of fieldDependsOn(decl)) reads.parts.add(part);
        reads.fields.add(decl);
        if (decl.command !== undefined) reads.commands.add(decl);
        break;
      case 'edit':
        // What its guard, values and binders read (a guard may test a logged field); a bound name is no field.
        this.walk(decl.guard, new Set(), reads);
        for (const op of decl.ops) {
          this.walk(op.value, new Set(), reads);
          const binder = op.binder;
          this.walk(binder?.collection, new Set(), reads);
          this.walk(binder?.condition, new Set(binder?.variable === undefined ? [] : [binder.variable.text]), reads);
          const source = op.source?.kind === 'source-each' ? op.source : undefined;
          this.walk(source?.collection, new Set(), reads);
          this.walk(source?.condition, new Set(source === undefined ? [] : [source.variable.text]), reads);
        }
        break;
      case 'reward': {
        // A reward computed by a program is sent the whole trajectory, as logged and rendered.
        if (decl.command !== undefined) {
          reads.parts.add('meta');
          for (const part of writableParts) reads.parts.add(part);
          reads.commands.add(decl);
        }
        for (const term of decl.terms) this.walk(term.body, new Set(), reads);
        const base = decl.base === undefined ? undefined : this.globals.get(decl.base.text)?.decl;
        if (base !== undefined) this.add(reads, this.readsOf(base));
        break;
      }
      default:
        break;
    }
    this.known.set(decl, reads);
    return reads;
  }

  private add(into: Reads, from: Reads): void {
    for (const part of from.parts) into.parts.add(part);
    for (const field of from.fields) into.fields.add(field);
    for (const command of from.commands) into.commands.add(command);
  }

  private walk(e: Expr | undefined, bound: ReadonlySet<string>, reads: Reads): void {
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
          this.add(reads, this.readsOf(declared.decl));
          return;
        }
        const field = builtinFieldsByName.get(e.name.text);
        if (field !== undefined) reads.parts.add(field.reads);
        return;
      }
      case 'member':
        return this.walk(e.object, bound, reads);
      case 'call': {
        const implicit = builtinFunctionsByName.get(e.callee.text)?.implicitReads;
        if (implicit !== undefined) reads.parts.add(implicit);
        for (const arg of e.args) this.walk(arg, bound, reads);
        return;
      }
      case 'unary':
        return this.walk(e.operand, bound, reads);
      case 'binary':
        this.walk(e.left, bound, reads);
        return this.walk(e.right, bound, reads);
      case 'if':
        this.walk(e.condition, bound, reads);
        this.walk(e.whenTrue, bound, reads);
        return this.walk(e.whenFalse, bound, reads);
      case 'quantifier': {
        // The collection's reads, the filter's and the body's (the variable is no part), and the
        // fallback's: `max a in gold.answers: … else 0` reads what the body and the collection read.
        this.walk(e.collection, bound, reads);
        const inner = e.variable === undefined ? bound : new Set([...bound, e.variable.text]);
        this.walk(e.filter, inner, reads);
        this.walk(e.body, inner, reads);
        return this.walk(e.fallback, bound, reads);
      }
    }
  }
}
