import { planAttack, type AttackPlan, type EditPlan, type Selection } from '../edits/attack-plan.js';
import { defaultSweep } from '../semantics/builtins.js';
import { defaultConformanceTolerance } from '../semantics/check-conformance.js';
import { resampling } from '../semantics/block-options.js';
import { numberOption, poolSelectionOf, type PoolSelection } from '../semantics/audit-options.js';
import { defaultCommandTimeoutSeconds } from '../inputs/command-runner.js';
import type { AuditDecl, ComparisonOp, ExpectMetricItem } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';

export interface LatticeDetector {
  readonly name: string;
  readonly lambda: number;
}

export type ExpectPlan =
  | {
      readonly kind: 'metric';
      readonly metric: 'asr' | 'upper' | 'mean_margin' | 'worst_margin';
      readonly reward: string;
      readonly attack: string;
      readonly selection: Selection;
      readonly op: ComparisonOp;
      /** A rate as a fraction (5% → 0.05); a margin as written. */
      readonly value: number;
      readonly text: string;
      readonly span: Span;
    }
  | { readonly kind: 'minimal'; readonly detectors: readonly string[]; readonly text: string; readonly span: Span };

/** `conforms A to B within TOL`: A must reproduce B on every original row. */
export interface ConformancePlan {
  readonly subject: string;
  readonly reference: string;
  readonly tolerance: number;
  readonly text: string;
  readonly span: Span;
}

export interface AuditPlan {
  readonly name: string;
  readonly span: Span;
  readonly reward: string;
  readonly compare: readonly string[];
  readonly corpus: string;
  readonly pools: readonly string[];
  readonly attacks: readonly AttackPlan[];
  readonly lattice: readonly LatticeDetector[];
  readonly expects: readonly ExpectPlan[];
  readonly conformance: readonly ConformancePlan[];
  readonly seed: number;
  readonly bootstrap: number;
  readonly sweep: readonly number[];
  /** Which samples of each question the attacks use (`select`; default all). */
  readonly select: PoolSelection;
  /** The selections of the robustness table (`robustness`); empty: no table. */
  readonly robustness: readonly PoolSelection[];
  /** `clusters common`: every attack's figures over the clusters isolated-eligible for all of them. */
  readonly commonClusters: boolean;
  /** Seconds a command generator may run (`timeout`). */
  readonly commandTimeout: number;
  /** `certify by_generator`: the certificate per attack and generator. */
  readonly byGenerator: boolean;
  /** `holdout SHARE`: the share of clusters held out; undefined: no held-out certification. */
  readonly holdout: number | undefined;
}

/** An `expect METRIC(REWARD, ATTACK, SELECTION) OP VALUE` line as data; undefined when it is incomplete. */
export function metricExpectPlan(item: ExpectMetricItem, text: string): Extract<ExpectPlan, { kind: 'metric' }> | undefined {
  const [r, a, s] = item.args;
  if (r === undefined || a === undefined || s === undefined || item.op === undefined || item.value === undefined) return undefined;
  const isRate = item.metric.text === 'asr' || item.metric.text === 'upper';
  return {
    kind: 'metric', metric: item.metric.text as 'asr' | 'upper' | 'mean_margin' | 'worst_margin', reward: r.text, attack: a.text,
    selection: s.text as Selection, op: item.op, value: isRate && item.percent ? item.value.value / 100 : item.value.value,
    text: text.slice(item.span.start, item.span.end), span: item.span,
  };
}

/**
 * Reads a checked audit block into plain data. The checker has already reported every problem,
 * so this only runs on error-free specs; it returns undefined for an audit that is incomplete.
 */
export function planAudit(audit: AuditDecl, text: string): AuditPlan | undefined {
  let reward: string | undefined;
  let corpus: string | undefined;
  const compare: string[] = [];
  const pools: string[] = [];
  const attacks: AttackPlan[] = [];
  const lattice: LatticeDetector[] = [];
  const expects: ExpectPlan[] = [];
  const conformance: ConformancePlan[] = [];
  let sweep = defaultSweep;
  for (const item of audit.items) {
    switch (item.kind) {
      case 'audit-reward':
        reward = item.reward?.text;
        break;
      case 'audit-compare':
        for (const r of item.rewards) compare.push(r.text);
        break;
      case 'audit-corpus':
        corpus = item.corpus?.text;
        break;
      case 'audit-pools':
        for (const p of item.pools) pools.push(p.text);
        break;
      case 'attack': {
        const attack = planAttack(item);
        if (attack === undefined) return undefined;
        attacks.push(attack);
        break;
      }
      case 'lattice':
        for (const entry of item.entries) lattice.push({ name: entry.detector.text, lambda: entry.lambda?.value ?? 0 });
        break;
      case 'expect-metric': {
        const expect = metricExpectPlan(item, text);
        if (expect === undefined) return undefined;
        expects.push(expect);
        break;
      }
      case 'expect-minimal':
        expects.push({ kind: 'minimal', detectors: item.detectors.map((d) => d.text), text: text.slice(item.span.start, item.span.end), span: item.span });
        break;
      case 'setting':
        if (item.key === 'sweep') sweep = item.values.map((v) => v.value);
        break;
      case 'conforms':
        if (item.subject === undefined || item.reference === undefined) return undefined;
        conformance.push({
          subject: item.subject.text, reference: item.reference.text, tolerance: item.tolerance?.value ?? defaultConformanceTolerance,
          text: text.slice(item.span.start, item.span.end), span: item.span,
        });
        break;
    }
  }
  if (reward === undefined || corpus === undefined || audit.name === undefined) return undefined;
  const { seed, bootstrap } = resampling(audit.items);
  const selections = (key: string): PoolSelection[] =>
    audit.options.filter((o) => o.key.text === key).flatMap((o) => o.values.flatMap((v) => poolSelectionOf(v) ?? []));
  return {
    name: audit.name.text, span: audit.name.span, reward, compare, corpus, pools, attacks, lattice, expects, conformance, seed, bootstrap, sweep,
    select: selections('select')[0] ?? { rule: 'all' }, robustness: selections('robustness'),
    commonClusters: audit.options.some((o) => o.key.text === 'clusters' && o.values.some((v) => v.kind === 'name' && v.name.text === 'common')),
    commandTimeout: numberOption(audit, 'timeout') ?? defaultCommandTimeoutSeconds,
    byGenerator: audit.options.some((o) => o.key.text === 'certify'),
    holdout: numberOption(audit, 'holdout'),
  };
}

/** The audit's edit plan: its rewards scored, its lattice detectors kept isolated. */
export function auditEditPlan(plan: AuditPlan): EditPlan {
  const values = [...new Set(plan.conformance.flatMap((c) => [c.subject, c.reference]))];
  return { rewards: [plan.reward, ...plan.compare], detectors: plan.lattice.map((l) => l.name), attacks: plan.attacks, ...(values.length === 0 ? {} : { values }) };
}
