import type { FileStatus } from '../inputs/file-probe.js';
import { builtinNamed } from '../language/builtins.js';
import { checkImportClause } from './check-import.js';
import { checkCommandWord, checkLoggedField } from './check-logged-field.js';
import { specInputs } from '../inputs/spec-inputs.js';
import type { Decl, DetectorDecl, RewardDecl, Spec, Term } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';
import { issueCodes } from '../problems/issue-codes.js';
import type { Problem } from '../problems/problem.js';
import { analysisOf, report, type Analysis } from './analysis.js';
import { checkAudit } from './check-audit.js';
import { checkEdit, type EditInfo } from './check-edit.js';
import { prelude } from './prelude.js';
import type { ReadSets } from './read-set.js';
import { checkComparison, checkTraining } from './check-blocks.js';
import { Inference } from './infer.js';
import { weightMass } from './weights.js';
import { declKindNames, isDeclSymbol, type DeclInfo, type DeclSymbol, type Occurrence } from './symbols.js';

export interface CheckOptions {
  /** The spec's path: linked paths are relative to its folder; without it (an unsaved spec) links are not checked. */
  readonly specFile?: string | undefined;
  /** Says whether a linked file can be read. Injected so the checker itself does no I/O. */
  readonly probeFile?: ((absolutePath: string) => FileStatus) | undefined;
  readonly reportUnused?: boolean | undefined;
}

/** Everything later stages and the editor need to know about a checked spec. */
export interface SpecModel {
  readonly spec: Spec;
  readonly globals: ReadonlyMap<string, DeclSymbol>;
  readonly occurrences: readonly Occurrence[];
  readonly declInfo: ReadonlyMap<Decl, DeclInfo>;
  readonly termInfo: ReadonlyMap<Term, DeclInfo>;
  readonly problems: readonly Problem[];
  /** Every edit an attack may name: the prelude's (builtin) and the spec's. */
  readonly edits: ReadonlyMap<string, EditInfo>;
  /** What each expression and declaration reads of a trajectory (the engine skips what an edit cannot change). */
  readonly readSets: ReadSets;
  /** The prelude's model, where the built-in edits in `edits` are declared and compile; undefined in the prelude's own. */
  readonly preludeModel: SpecModel | undefined;
}

function collectDeclarations(a: Analysis): void {
  for (const decl of a.spec.decls) {
    if (decl.name === undefined) continue;
    const symbol: DeclSymbol = { kind: decl.kind, name: decl.name.text, decl, nameSpan: decl.name.span };
    a.occurrences.push({ span: decl.name.span, symbol, isDeclaration: true });
    const builtin = builtinNamed(decl.name.text);
    const previous = a.globals.get(decl.name.text);
    if (builtin !== undefined) {
      // Left out of the names, so every use still means the built-in and the one error is here.
      report(a, issueCodes.duplicateName, 'error', decl.name.span,
        `'${decl.name.text}' is a built-in ${builtin.what} (docs/language.md): ${declKindNames[decl.kind]} of that name would hide it from every expression; give it another name`,
        { data: { builtin: builtin.what } });
    } else if (previous === undefined) {
      a.globals.set(decl.name.text, symbol);
    } else {
      report(a, issueCodes.duplicateName, 'error', decl.name.span, `'${decl.name.text}' is already declared`, {
        related: [{ span: previous.nameSpan, message: 'first declared here' }],
      });
    }
  }
}

function checkDetector(a: Analysis, detector: DetectorDecl, info: DeclInfo): void {
  if (detector.name === undefined) return;
  if (info.visibility === 'oracle') {
    report(a, issueCodes.oracleDetector, 'error', info.oracleSource ?? detector.name.span,
      `detector '${detector.name.text}' reads gold labels; a detector must use only visible fields (the trajectory and the corpus). Use a signal for oracle checks`);
  }
  if (detector.doc === undefined) {
    report(a, issueCodes.missingDescription, 'warning', detector.name.span, `detector '${detector.name.text}' has no description: say what violation it flags`);
  }
}

function checkRewardTerms(a: Analysis, reward: RewardDecl): void {
  const seen = new Map<string, Span>();
  for (const term of reward.terms) {
    const previous = seen.get(term.name.text);
    // Derived terms are named after what they weigh, so a repeat there is a repeated penalty.
    if (previous !== undefined) {
      report(a, issueCodes.duplicateName, term.derived ? 'warning' : 'error', term.name.span,
        term.derived ? `'${term.name.text}' is weighed twice in this reward` : `this reward already has a term '${term.name.text}'`,
        { related: [{ span: previous, message: 'the other term' }] });
    } else {
      seen.set(term.name.text, term.name.span);
    }
    if (term.body?.kind !== 'name' || term.weight === undefined || term.weight <= 0) continue;
    const target = a.globals.get(term.body.name.text);
    if (target?.kind === 'detector') {
      report(a, issueCodes.penaltySign, 'warning', term.weightSpan ?? term.span,
        `this adds reward when detector '${target.name}' fires; a detector flags a violation, so its weight should be negative`,
        { data: { weight: term.weight } });
    }
  }
}

function checkWeightsFinite(a: Analysis, reward: RewardDecl): void {
  if (reward.name === undefined || Number.isFinite(weightMass(a, reward))) return;
  report(a, issueCodes.nonFiniteWeight, 'error', reward.name.span,
    `the weights of '${reward.name.text}' add up to more than a double holds: its values and margins would be Infinity or NaN`);
}

function checkLinkedFiles(a: Analysis, specFile: string, probeFile: (absolutePath: string) => FileStatus): void {
  for (const input of specInputs(a.spec, specFile)) {
    const link = input.link;
    if (link === undefined) continue;
    const status = probeFile(input.path);
    const resolved = input.path;
    if (status === 'missing') {
      // A glob carries no path: the quick fix that creates the missing file has no file to create.
      if (input.glob === undefined) report(a, issueCodes.missingFile, 'error', link.span, `cannot find '${link.value}' (looked for ${resolved})`, { data: { path: resolved } });
      else report(a, issueCodes.missingFile, 'error', link.span, `no file matches '${link.value}' (looked for ${resolved})`);
    } else if (status === 'unreadable') {
      report(a, issueCodes.unreadableFile, 'error', link.span, input.glob === undefined
        ? `cannot read '${link.value}' at ${resolved}: it is not a regular file (a folder, FIFO, device or socket) or it is not readable`
        : `cannot list the files of '${link.value}': its folders hold too many entries (see Limits in docs/language.md)`, { data: { path: resolved } });
    }
    else if (status === 'untrusted') {
      report(a, issueCodes.untrustedFile, 'warning', link.span,
        `not read: '${link.value}' (${resolved}) is outside this untrusted workspace; trust the workspace to check and audit it`, { data: { path: resolved } });
    }
  }
}

const kindsThatMustBeUsed = new Set<Decl['kind']>(['corpus', 'pool', 'signal', 'detector']);

function checkUnused(a: Analysis): void {
  const used = new Set<DeclSymbol>();
  for (const occurrence of a.occurrences) {
    if (!occurrence.isDeclaration && isDeclSymbol(occurrence.symbol)) used.add(occurrence.symbol);
  }
  for (const symbol of a.globals.values()) {
    if (!kindsThatMustBeUsed.has(symbol.kind) || used.has(symbol)) continue;
    report(a, issueCodes.unusedDeclaration, 'warning', symbol.nameSpan, `${symbol.kind} '${symbol.name}' is never used`, { unnecessary: true });
  }
}

/** The prelude's edits and the spec's, before any audit names one. A spec's edit may not take a built-in edit's name. */
function checkEdits(a: Analysis, inference: Inference): void {
  for (const [name, info] of prelude.edits) a.edits.set(name, info);
  for (const decl of a.spec.decls) {
    if (decl.kind !== 'edit') continue;
    const info = checkEdit(a, inference, decl, false);
    if (decl.name === undefined) continue;
    if (prelude.edits.has(decl.name.text)) {
      report(a, issueCodes.duplicateName, 'error', decl.name.span, `'${decl.name.text}' is a built-in edit (the prelude in docs/language.md): give this edit another name`);
    } else if (a.globals.get(decl.name.text)?.decl === decl) {
      a.edits.set(decl.name.text, info);
    }
  }
}

/** An edit is built before any program runs over the edited trajectories: it cannot read what one answers. */
function checkEditsReadNoCommand(a: Analysis): void {
  for (const decl of a.spec.decls) {
    if (decl.kind !== 'edit' || decl.name === undefined) continue;
    const commands = [...a.readSets.commandsOfDecl(decl)].flatMap((c) => (c.name === undefined ? [] : [c.name.text]));
    if (commands.length === 0) continue;
    report(a, issueCodes.commandInEdit, 'error', decl.name.span,
      `edit '${decl.name.text}' reads ${commands.map((n) => `'${n}'`).join(', ')}, computed by a command: the edits are built before the program runs over them, so an edit cannot read its answers`);
  }
}

/** Names, types, visibility and audit checks over a parsed spec. Pure except for `probeFile`. */
export function check(spec: Spec, options: CheckOptions = {}): SpecModel {
  const a = analysisOf(spec);
  collectDeclarations(a);
  const inference = new Inference(a);
  checkEdits(a, inference);
  for (const decl of spec.decls) {
    if (decl.kind === 'signal' || decl.kind === 'detector' || decl.kind === 'reward') {
      const info = inference.declaration(decl);
      if (decl.kind === 'detector') checkDetector(a, decl, info);
      if (decl.kind === 'reward') {
        if (decl.command !== undefined) checkCommandWord(a, decl.command);
        checkRewardTerms(a, decl);
        checkWeightsFinite(a, decl);
      }
    } else if (decl.kind === 'pool' && decl.source !== undefined) {
      checkImportClause(a, decl.source);
    } else if (decl.kind === 'logged') {
      a.declInfo.set(decl, checkLoggedField(a, decl));
    } else if (decl.kind === 'audit') {
      checkAudit(a, decl);
    } else if (decl.kind === 'training') {
      checkTraining(a, decl);
    } else if (decl.kind === 'comparison') {
      checkComparison(a, decl);
    }
  }
  checkEditsReadNoCommand(a);
  if (options.specFile !== undefined && options.probeFile !== undefined) checkLinkedFiles(a, options.specFile, options.probeFile);
  if (options.reportUnused ?? true) checkUnused(a);
  return { spec, globals: a.globals, occurrences: a.occurrences, declInfo: a.declInfo, termInfo: a.termInfo, problems: a.problems, edits: a.edits, readSets: a.readSets, preludeModel: prelude.model };
}
