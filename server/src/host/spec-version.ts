import * as path from 'node:path';
import { auditChecked, type AuditOutcome, type AuditSpecOptions } from '../audit/audit-spec.js';
import { compareChecked, type CompareOutcome, type CompareRequest } from '../compare/compare-spec.js';
import { specFindings, type FindingsInput } from '../findings/spec-findings.js';
import type { Problem } from '../problems/problem.js';
import { analyze, checkedOf, type Analyzed, type CheckedSpec } from '../semantics/analyze.js';
import { bindSpec, checkedOfBound, type BoundSpec } from '../semantics/bound-model.js';
import type { CheckOptions } from '../semantics/check.js';
import { signalChecked, type SignalOutcome, type SignalRequest } from '../signal/signal-spec.js';

/**
 * One version of a spec and the phases that analyse it, each run once and in order: parse and check;
 * bind (the checked model in the form that crosses threads); the analyses (audit, training signal,
 * comparison), each of which prepares what it reads and computes its report; the findings. The
 * language server's thread, its analysis worker and the CLI all go through this object, so a version
 * is parsed and checked once: the server thread checks it for the keystroke diagnostics and hands the
 * worker the bound model (`bound`), from which the worker's version (`ofBound`) starts, and the CLI's
 * one version serves the names it checks, the files it refuses to overwrite and the analysis.
 */
export class SpecVersion {
  private checkedSpec: CheckedSpec | undefined;
  private boundSpec: BoundSpec | undefined;

  private constructor(
    readonly text: string,
    /** The spec's path, against whose folder its links resolve; undefined for an unsaved spec, which no analysis runs on. */
    readonly specFile: string | undefined,
    private readonly analyzedOnce: (() => Analyzed) | undefined,
    bound: BoundSpec | undefined,
  ) {
    this.boundSpec = bound;
  }

  /** A version to parse and check (lazily, once) under `options`. */
  static ofText(text: string, specFile: string | undefined, options: Omit<CheckOptions, 'specFile'> = {}): SpecVersion {
    let analyzed: Analyzed | undefined;
    return new SpecVersion(text, specFile, () => (analyzed ??= analyze(text, { ...options, specFile })), undefined);
  }

  /** The version another thread checked and bound: it is never parsed here. */
  static ofBound(bound: BoundSpec): SpecVersion {
    return new SpecVersion(bound.text, bound.specFile, undefined, bound);
  }

  /** Parse and check: the syntax tree, the tokens and the model the editor's features read. Only a version made from text has them. */
  get analyzed(): Analyzed {
    if (this.analyzedOnce === undefined) throw new Error('a bound spec version has no syntax tree: its thread was handed the checked model');
    return this.analyzedOnce();
  }

  /** The checked spec every analysis reads. */
  get checked(): CheckedSpec {
    if (this.checkedSpec !== undefined) return this.checkedSpec;
    if (this.specFile === undefined) throw new Error('an unsaved spec is not analysed: its links resolve against no folder');
    if (this.boundSpec !== undefined) return (this.checkedSpec = checkedOfBound(this.boundSpec));
    return (this.checkedSpec = checkedOf(this.text, this.specFile, this.analyzed));
  }

  /** Bind: the checked spec as it is sent to the analysis worker. */
  get bound(): BoundSpec {
    return (this.boundSpec ??= bindSpec(this.checked));
  }

  audit(options: AuditSpecOptions = {}): Promise<AuditOutcome> {
    return auditChecked(this.checked, options);
  }

  signal(request: SignalRequest = {}): Promise<SignalOutcome> {
    return signalChecked(this.checked, request);
  }

  compare(request: CompareRequest = {}): Promise<CompareOutcome> {
    return compareChecked(this.checked, request);
  }

  /** The findings of an audit's results on this version: every figure and data issue as a problem at its place. */
  findings(results: Omit<FindingsInput, 'model' | 'text' | 'specDir'>): Problem[] {
    const { model, text, specFile } = this.checked;
    return specFindings({ ...results, model, text, specDir: path.dirname(specFile) });
  }
}
