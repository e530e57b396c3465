import { renderedKeys } from '../importers/registry.js';
import type { TrajectoryPart } from '../language/types.js';
import type { Decl, FieldDecl, Term } from '../syntax/ast.js';
import type { EditInfo } from './check-edit.js';
import { fieldDependsOn } from './field-depends.js';
import type { ReadSets } from './read-set.js';
import type { DeclSymbol } from './symbols.js';

// Frozen fields: a declared logged field whose value the pool cannot recompute after an edit. A
// pool linked `from FORMAT(...)` renders an edited trajectory back into the framework's record
// (importers/render.ts), and the meta keys it writes (`renderedKeys`) follow the edit; every other
// meta value keeps what was logged. When a reward reads such a field and an attack writes a part
// the field depends on, the edit's figure under that reward is about a trajectory no trainer
// would score: the checker warns at the term (check-audit.ts) and the audit marks the figures
// frozen (audit/run-audit.ts, findings/audit-findings.ts).

/** A pool an audit reads, with the meta keys its format renders (empty: none, or not linked from a format). */
export interface PoolRendering {
  readonly name: string;
  readonly rendered: readonly string[];
}

/** A declared logged field that some pool of an audit cannot recompute after an edit. */
export interface FrozenField {
  readonly name: string;
  /** `meta.judge.score`. */
  readonly path: string;
  /** What it depends on: its `depends on` parts, or every part an edit can write when unsaid. */
  readonly dependsOn: readonly TrajectoryPart[];
  /** Whether `depends on` is written. */
  readonly declared: boolean;
  /** The pools that do not render it. */
  readonly pools: readonly string[];
  readonly decl: FieldDecl;
}

/** A reward of an audit and an attack of it whose edit writes a part a frozen field the reward reads depends on. */
export interface FrozenPair {
  readonly reward: string;
  readonly attack: string;
  /** The edit the attack applies (its kind). */
  readonly edit: string;
  /** The parts the edit writes that the fields depend on. */
  readonly writes: readonly TrajectoryPart[];
  readonly fields: readonly FrozenField[];
}

/**
 * The pools among `pools` that do not render the field at `path` (with `meta` first): a field is
 * rendered by a pool when the pool's format renders the field's first key under `meta`.
 */
export function poolsFreezing(path: readonly string[], pools: readonly PoolRendering[]): string[] {
  const key = path[1];
  return pools.filter((p) => key === undefined || !p.rendered.includes(key)).map((p) => p.name);
}

/** The fields among `fields` that some pool of `pools` cannot recompute, with those pools. */
export function frozenFields(fields: Iterable<FieldDecl>, pools: readonly PoolRendering[]): FrozenField[] {
  const frozen: FrozenField[] = [];
  for (const decl of fields) {
    // A command's value is computed again on every edited trajectory: it never keeps a logged value.
    if (decl.name === undefined || decl.command !== undefined) continue;
    const path = decl.path.map((n) => n.text);
    const freezing = poolsFreezing(path, pools);
    if (freezing.length === 0) continue;
    frozen.push({ name: decl.name.text, path: path.join('.'), dependsOn: fieldDependsOn(decl), declared: decl.dependsOn !== undefined, pools: freezing, decl });
  }
  return frozen;
}

/** What the frozen-field rule reads of a checked spec (a SpecModel, or the checker's analysis). */
export interface FrozenScope {
  readonly globals: ReadonlyMap<string, DeclSymbol>;
  readonly edits: ReadonlyMap<string, EditInfo>;
  readonly readSets: ReadSets;
}

/** The names an audit is made of: its rewards (audited and compared), pools and attacks with their kinds. */
export interface FrozenAudit {
  readonly rewards: readonly string[];
  readonly pools: readonly string[];
  readonly attacks: readonly { readonly name: string; readonly kind: string }[];
}

/** Each pool of the audit with the keys its format renders; a name that is not a pool is left out. */
function poolRenderings(scope: FrozenScope, pools: readonly string[]): PoolRendering[] {
  return pools.flatMap((name) => {
    const decl = scope.globals.get(name)?.decl;
    return decl?.kind === 'pool' ? [{ name, rendered: renderedKeys(decl.source?.format?.text) }] : [];
  });
}

/** The fields of `frozen` whose value an edit writing `writes` can change, and the parts that meet. */
function meeting(frozen: readonly FrozenField[], writes: ReadonlySet<TrajectoryPart>): { fields: FrozenField[]; parts: TrajectoryPart[] } {
  const fields = frozen.filter((f) => f.dependsOn.some((part) => writes.has(part)));
  const parts = [...writes].filter((part) => fields.some((f) => f.dependsOn.includes(part)));
  return { fields, parts };
}

/** Every (reward, attack) pair of an audit whose figures are frozen, in reward then attack order. */
export function frozenPairs(scope: FrozenScope, audit: FrozenAudit): FrozenPair[] {
  const pools = poolRenderings(scope, audit.pools);
  const pairs: FrozenPair[] = [];
  for (const reward of audit.rewards) {
    const decl = scope.globals.get(reward)?.decl;
    if (decl?.kind !== 'reward') continue;
    const frozen = frozenFields(scope.readSets.fieldsOfDecl(decl), pools);
    if (frozen.length === 0) continue;
    for (const attack of audit.attacks) {
      const edit = scope.edits.get(attack.kind);
      if (edit === undefined) continue;
      const { fields, parts } = meeting(frozen, edit.writes);
      if (fields.length > 0) pairs.push({ reward, attack: attack.name, edit: edit.name, writes: parts, fields });
    }
  }
  return pairs;
}

/** The terms of a reward, its base's first (following derived rewards down), each with the reward that declares it. */
export function rewardTerms(scope: FrozenScope, reward: string): { readonly term: Term; readonly declaredIn: Decl }[] {
  const terms: { term: Term; declaredIn: Decl }[] = [];
  const seen = new Set<string>();
  for (let name: string | undefined = reward; name !== undefined && !seen.has(name);) {
    seen.add(name);
    const decl: Decl | undefined = scope.globals.get(name)?.decl;
    if (decl?.kind !== 'reward') break;
    const declaredIn = decl;
    terms.unshift(...decl.terms.map((term: Term) => ({ term, declaredIn })));
    name = decl.base?.text;
  }
  return terms;
}
