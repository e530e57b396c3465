import { resolveLink } from '../inputs/paths.js';
import { auditIssueCodes } from '../problems/issue-codes.js';
import type { Problem, RowLocation } from '../problems/problem.js';
import type { Span } from '../problems/span.js';
import { detectorSet, frozenCause, frozenEdit, margin, percent, plural, rateWithBound, shortNumber } from '../report/format-numbers.js';
import type { AuditReport, WorkedPair } from '../report/schema.js';
import type { SpecModel } from '../semantics/check.js';
import type { AuditDecl, Term } from '../syntax/ast.js';
import { observedExpect } from './observed-expect.js';
import { smallSampleClusters, smallSampleSentence } from './small-sample.js';
import { repairFormula, rewardThatIsRepair, type RepairTerm } from './repair-reward.js';
import { attackOutcomeSentence, certificateSentence, editText, marginChain } from './wording.js';
import { pairFile } from '../report/pair-file.js';
import { certifiedLambda } from '../audit/certificate.js';
import { certifiedAgainst } from './generator-wording.js';
import { cannotFireReason, constantTermReason, noEditReason } from './data-reasons.js';


/** Finds the term named `name` that a reward uses, following derived rewards to their base. */
function findTerm(model: SpecModel, rewardName: string, name: string, seen = new Set<string>()): Term | undefined {
  const decl = model.globals.get(rewardName)?.decl;
  if (decl?.kind !== 'reward' || seen.has(rewardName)) return undefined;
  seen.add(rewardName);
  const own = decl.terms.find((t) => t.name.text === name);
  return own ?? (decl.base === undefined ? undefined : findTerm(model, decl.base.text, name, seen));
}

const folded = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** What every finding of one audit needs: the report, the audit block it came from, and where its files are. */
interface AuditContext {
  readonly report: AuditReport;
  readonly decl: AuditDecl;
  readonly model: SpecModel;
  readonly text: string;
  readonly specDir: string;
  /** The audit's name: where a finding goes when its own item is gone. */
  readonly anchor: Span;
}

/** The trajectory of a worked pair, as a row of its pool file, with the edit that makes the pair. */
function pairRow(ctx: AuditContext, pair: WorkedPair, message: string): RowLocation {
  const file = pairFile(ctx.report, pair);
  const { trajectory, pool, attack, position, replacement, change } = pair;
  return { file: resolveLink(ctx.specDir, file), line: pair.line, message, pair: { audit: ctx.report.name, trajectory, pool, attack, position, replacement, ...(change === undefined ? {} : { change }) } };
}

function pairText(ctx: AuditContext, pair: WorkedPair): string {
  return `${pair.trajectory} (${pairFile(ctx.report, pair)}:${pair.line}, ${editText(pair)})`;
}

/** Expect lines that do not hold: matched by their text, so they stay put while the spec is edited around them. */
function expectationFindings(ctx: AuditContext): Problem[] {
  const expects = ctx.decl.items.filter((i) => i.kind === 'expect-metric' || i.kind === 'expect-minimal');
  const seen = new Map<string, number>();
  return ctx.report.expectations.flatMap((expectation): Problem[] => {
    const occurrence = seen.get(expectation.text) ?? 0;
    seen.set(expectation.text, occurrence + 1);
    if (expectation.passed) return [];
    const item = expects.filter((e) => folded(ctx.text.slice(e.span.start, e.span.end)) === folded(expectation.text))[occurrence];
    const observed = item === undefined ? undefined : observedExpect(item, ctx.report, ctx.text);
    return [{
      code: auditIssueCodes.expectFailed, severity: 'error', span: item?.span ?? ctx.anchor,
      message: `expectation fails in audit ${ctx.report.name}: \`${folded(expectation.text)}\`: ${expectation.actual}`,
      data: { audit: ctx.report.name, ...(observed === undefined ? {} : { observed: observed.observed, expect: observed.expect }) },
      key: [ctx.report.name, folded(expectation.text), String(occurrence)],
    }];
  });
}

/** Where the repair already is a reward: `: R_L, compared here, already is R0 − 1.2·L`. */
function repairNote(ctx: AuditContext, repair: readonly RepairTerm[]): string {
  if (repair.length === 0) return '';
  const base = ctx.report.reward.name;
  const existing = rewardThatIsRepair(ctx.model, base, repair);
  const formula = repairFormula(base, repair);
  if (existing === undefined) return ` (${formula})`;
  const compared = ctx.report.compared.some((r) => r.name === existing);
  return `: ${existing}${compared ? ', compared here,' : ''} already is ${formula}`;
}

/** The oracle-worst results above zero under one reward, one per attack; frozen figures are not the reward's, so never among them. */
function winningAttacks(report: AuditReport, reward: string) {
  return report.attacks.flatMap((a) => a.results.filter((r) => r.reward === reward && r.selection === 'oracle_worst' && r.frozen === undefined && (r.estimate.asr ?? 0) > 0).map((r) => ({ attack: a.name, r })));
}

/**
 * Figures that are frozen (the reward reads a logged field the pools cannot recompute after the
 * edit): one finding per reward, where its attack-succeeds finding would be, naming each field and
 * edit and the rate as logged, which is not counted. A warning when some such rate is above zero
 * (the edit would have been said to beat the reward), else information.
 */
function frozenFindings(ctx: AuditContext): Problem[] {
  const { report, decl } = ctx;
  const rewardItem = decl.items.find((i) => i.kind === 'audit-reward');
  const compareNames = decl.items.flatMap((i) => (i.kind === 'audit-compare' ? i.rewards : []));
  return [report.reward, ...report.compared].flatMap((reward): Problem[] => {
    const frozen = report.attacks.flatMap((a) => a.results.filter((r) => r.reward === reward.name && r.selection === 'oracle_worst' && r.frozen !== undefined).map((r) => ({ attack: a.name, r, frozen: r.frozen! })));
    if (frozen.length === 0) return [];
    const span = reward.name === report.reward.name ? rewardItem?.span : compareNames.find((n) => n.text === reward.name)?.span;
    return [{
      code: auditIssueCodes.frozenFigures, severity: frozen.some((f) => (f.r.estimate.asr ?? 0) > 0) ? 'warning' : 'information', span: span ?? ctx.anchor,
      message: `in audit ${report.name}, the figures of ${reward.name} under ${frozen.map((f) => f.attack).join(', ')} are frozen: ` +
        `${reward.name} reads ${[...new Set(frozen.map((f) => frozenCause(f.frozen)))].join('; ')}; ` +
        frozen.map((f) => `${frozenEdit(f.attack, f.frozen)} (as logged, oracle-worst ${percent(f.r.estimate.asr)})`).join('; ') +
        `. They are not counted as ${reward.name}'s figures${reward.name === report.reward.name ? ', and no repair is worked out from them' : ''}`,
      data: { audit: report.name, reward: reward.name, attacks: frozen.map((f) => f.attack), fields: [...new Set(frozen.flatMap((f) => f.frozen.fields.map((x) => x.name)))] },
      key: [report.name, reward.name, 'frozen'],
    }];
  });
}

/**
 * A winning edit of each attack that beats `reward`, where the report has one. Under the audited
 * reward: a certificate example of this attack, which is its edit of largest margin (every edit of
 * an attack triggers its targets, and the example is the largest gain among the edits that trigger
 * the detector). Under a compared reward: the worked pair of a cancellation it wins by.
 */
function winningRows(ctx: AuditContext, reward: string, attacks: readonly string[]): RowLocation[] {
  const { report } = ctx;
  return attacks.flatMap((attack): RowLocation[] => {
    if (reward === report.reward.name) {
      const largest = report.certificate.find((c) => c.example?.attack === attack && (c.example.margins[reward] ?? -1) >= 0)?.example;
      return largest === null || largest === undefined ? [] : [pairRow(ctx, largest, `the ${attack} edit of largest margin under ${reward}: ${marginChain(largest)}`)];
    }
    const cancelled = report.cancellation.find((f) => f.larger === reward && f.attack === attack && (f.example.margins[reward] ?? -1) >= 0);
    return cancelled === undefined ? [] : [pairRow(ctx, cancelled.example, `a ${attack} edit that wins under ${reward} (its penalty cancellation's worked pair): ${marginChain(cancelled.example)}`)];
  });
}

/** Rows as a finding carries them: undefined when there are none. */
const someRows = (rows: readonly RowLocation[]): { rows?: readonly RowLocation[] } => (rows.length === 0 ? {} : { rows });

/**
 * Attacks that beat the audited reward, on the audit's `reward` line with the minimal repair as data
 * for the quick fix (each detector with a λ that the finite-set certificate backs); attacks that beat
 * a compared reward, on its name in the `compare` line.
 */
function attackFindings(ctx: AuditContext): Problem[] {
  const { report, decl } = ctx;
  const problems: Problem[] = [];
  const rewardItem = decl.items.find((i) => i.kind === 'audit-reward');
  const winning = winningAttacks(report, report.reward.name);
  if (winning.length > 0) {
    const repair = report.lattice.minimal[0];
    const terms = (repair ?? []).map((detector) => {
      const certificate = report.certificate.find((c) => c.detector === detector);
      const lambda = report.lattice.detectors.find((d) => d.name === detector)?.lambda ?? 1;
      return { detector, lambda: certifiedLambda(lambda, certificate?.maxGain ?? null), maxGain: certificate?.maxGain ?? null, generators: certifiedAgainst(report, detector) };
    });
    problems.push({
      code: auditIssueCodes.attackSucceeds, severity: 'warning', span: rewardItem?.span ?? ctx.anchor,
      message: `in audit ${report.name}, ${winning.map((w) => attackOutcomeSentence(w.attack, report.reward.name, w.r.estimate, w.r.label)).join('; ')}` +
        (repair === undefined ? '; no subset of the lattice stops every attack' : `; observed minimal repair {${repair.join(', ')}}${repairNote(ctx, terms)}`) +
        notConformingNote(report, report.reward.name),
      data: { audit: report.name, reward: report.reward.name, repair: terms },
      ...someRows(winningRows(ctx, report.reward.name, winning.map((w) => w.attack))),
      key: [report.name, report.reward.name],
    });
  }
  const compareNames = decl.items.flatMap((i) => (i.kind === 'audit-compare' ? i.rewards : []));
  for (const compared of report.compared) {
    const beaten = winningAttacks(report, compared.name);
    if (beaten.length === 0) continue;
    problems.push({
      code: auditIssueCodes.attackSucceeds, severity: 'warning', span: compareNames.find((n) => n.text === compared.name)?.span ?? ctx.anchor,
      message: `in audit ${report.name}, ${beaten.map((w) => attackOutcomeSentence(w.attack, compared.name, w.r.estimate, w.r.label)).join('; ')}${notConformingNote(report, compared.name)}`,
      ...someRows(winningRows(ctx, compared.name, beaten.map((w) => w.attack))),
      key: [report.name, compared.name],
    });
  }
  return problems;
}

/** What a finding about a reward's figures adds when a `conforms` line about it fails: they are not the logged reward's. */
function notConformingNote(report: AuditReport, reward: string): string {
  const failing = (report.conformance ?? []).filter((c) => c.marks.includes(reward)).map((c) => `\`${c.text}\``);
  return failing.length === 0 ? '' : ` (not the logged reward: ${failing.join(', ')} fails, see not-conforming)`;
}

/** A value as the conformance message shows it: enough digits to see a difference of the tolerance's size. */
const conformanceValue = (value: number): string => String(Number(value.toPrecision(12)));

/**
 * `conforms` lines that do not hold: an error on the line, with how many rows differ, the largest
 * difference and the first rows (linked in the editor, `file:line` on the command line).
 */
function conformanceFindings(ctx: AuditContext): Problem[] {
  const { report } = ctx;
  const items = ctx.decl.items.filter((i) => i.kind === 'conforms');
  const seen = new Map<string, number>();
  return (report.conformance ?? []).flatMap((c): Problem[] => {
    const occurrence = seen.get(c.text) ?? 0;
    seen.set(c.text, occurrence + 1);
    if (c.holds) return [];
    const item = items.filter((i) => folded(ctx.text.slice(i.span.start, i.span.end)) === folded(c.text))[occurrence];
    const largest = c.largest === null ? '' : `; the largest difference is ${conformanceValue(c.largest.difference)} (${c.largest.trajectory}, ${c.largest.file}:${c.largest.line})`;
    const first = c.first.map((r) => `${r.file}:${r.line} ${c.subject} ${conformanceValue(r.subject)} vs ${c.reference} ${conformanceValue(r.reference)}`).join('; ');
    const marks = c.marks.length === 0 ? '' : `. Every figure of ${c.marks.join(', ')} is marked not the logged reward until it holds`;
    return [{
      code: auditIssueCodes.notConforming, severity: 'error', span: item?.span ?? ctx.anchor,
      message: `in audit ${report.name}, \`${folded(c.text)}\` does not hold: ${c.subject} differs from ${c.reference} by more than ${c.tolerance} on ` +
        `${plural(c.differing, 'row')} of ${c.rows}${largest}; first: ${first}${marks}`,
      data: { audit: report.name, subject: c.subject, reference: c.reference, differing: c.differing },
      rows: c.first.map((r) => ({ file: resolveLink(ctx.specDir, r.file), line: r.line, message: `${c.subject} ${conformanceValue(r.subject)} vs ${c.reference} ${conformanceValue(r.reference)} (${r.trajectory})` })),
      ...(c.differing > c.first.length ? { moreRows: c.differing - c.first.length } : {}),
      key: [report.name, folded(c.text), String(occurrence)],
    }];
  });
}

/** Cancellation, on the larger reward's term whose active penalty the attack switches off: one per term and attack. */
function cancellationFindings(ctx: AuditContext): Problem[] {
  const { report, model } = ctx;
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const finding of report.cancellation) {
    const id = [finding.larger, finding.term, finding.attack];
    if (seen.has(id.join('\u0000'))) continue;
    seen.add(id.join('\u0000'));
    const both = report.cancellation.filter((f) => f.larger === finding.larger && f.term === finding.term && f.attack === finding.attack);
    const term = findTerm(model, finding.larger, finding.term);
    const rewardName = model.globals.get(finding.larger)?.decl.name?.span;
    const pair = finding.example;
    const strata = both.map((f) => `${f.selection}: ${percent(f.strata.active.asr)} with ${f.term} active vs ${percent(f.strata.inactive.asr)} without`).join('; ');
    problems.push({
      code: auditIssueCodes.penaltyCancellation, severity: 'warning', span: term?.span ?? rewardName ?? ctx.anchor,
      message:
        `penalty cancellation in audit ${report.name}: ${plural(finding.count, `${finding.attack} edit`)} in ${plural(finding.clusters, 'cluster')} ` +
        `lose under ${finding.smaller} but win under ${finding.larger}, because the edit switches off '${finding.term}' (${finding.termWeight}), ` +
        `already active on the original. ${strata}. Worked pair ${pairText(ctx, pair)}: ${marginChain(pair)}`,
      data: { larger: finding.larger, smaller: finding.smaller, term: finding.term, attack: finding.attack },
      rows: [pairRow(ctx, pair, `worked pair: ${marginChain(pair)}`)],
      key: [report.name, ...id],
    });
  }
  return problems;
}

/** The lattice entry of a detector, or the audit's name. */
function latticeEntrySpan(ctx: AuditContext, detector: string): Span {
  const entries = ctx.decl.items.flatMap((i) => (i.kind === 'lattice' ? i.entries : []));
  return entries.find((e) => e.detector.text === detector)?.span ?? ctx.anchor;
}

/** Redundant lattice detectors: faded, as an editor fades unused code. */
function redundantFindings(ctx: AuditContext): Problem[] {
  const { lattice } = ctx.report;
  if (lattice.minimal.length === 0) return [];
  const needed = new Set(lattice.minimal.flat());
  return lattice.detectors.filter((d) => !needed.has(d.name)).map((d): Problem => ({
    code: auditIssueCodes.redundantDetector, severity: 'information', span: latticeEntrySpan(ctx, d.name), unnecessary: true,
    message: `in audit ${ctx.report.name}, ${d.name} is in no observed minimal repair (${lattice.minimal.map(detectorSet).join(', ')}): its penalty is not needed against the attacks this audit runs` +
      (lattice.frozen === undefined ? '' : ` whose figures under ${ctx.report.reward.name} are not frozen (${lattice.frozen.join(', ')} left out)`),
    key: [ctx.report.name, d.name],
  }));
}

/** Lattice penalties that do not reject every audited edit that triggers their detector. */
function certificateFindings(ctx: AuditContext): Problem[] {
  return ctx.report.certificate.filter((c) => !c.certified).map((c): Problem => ({
    code: auditIssueCodes.certificateFails, severity: 'warning', span: latticeEntrySpan(ctx, c.detector),
    message: `certificate fails in audit ${ctx.report.name}: ${certificateSentence(c)} over ${plural(c.edits, 'audited edit')} that trigger ${c.detector}, so ` +
      `${ctx.report.reward.name} − ${shortNumber(c.lambda)}·${c.detector} does not reject every one of them` +
      (c.example === null ? '' : `; largest gain ${pairText(ctx, c.example)}`) +
      (c.maxGain === null ? '' : `. A penalty above ${margin(c.maxGain)} (e.g. ${shortNumber(certifiedLambda(c.lambda, c.maxGain))}) would`),
    rows: c.example === null ? undefined : [pairRow(ctx, c.example, `largest gain under ${ctx.report.reward.name}: ${marginChain(c.example)}`)],
    data: { detector: c.detector, lambda: c.lambda, maxGain: c.maxGain },
    key: [ctx.report.name, c.detector],
  }));
}

/**
 * Attacks whose isolated-eligible set is too small for their rates to mean much: a zero bounds
 * little, and a nonzero rate's bootstrap interval over a handful of clusters is far too narrow.
 */
function smallSampleFindings(ctx: AuditContext): Problem[] {
  const attackItems = ctx.decl.items.filter((i) => i.kind === 'attack');
  return ctx.report.attacks.flatMap((attack): Problem[] => {
    const clusters = attack.counts.clusters.isolatedEligible;
    if (clusters >= smallSampleClusters) return [];
    const item = attackItems.find((i) => i.kind === 'attack' && i.name?.text === attack.name);
    const nonzero = attack.results.filter((r) => r.selection === 'oracle_worst' && (r.estimate.asr ?? 0) > 0);
    return [{
      code: auditIssueCodes.smallSample, severity: 'warning', span: item?.span ?? ctx.anchor,
      message: clusters === 0
        ? `in audit ${ctx.report.name}, no trajectory admits an isolated-eligible ${attack.name} edit: ${noEditReason(ctx.report, ctx.model, attack)}; this attack tests nothing on these pools`
        : `in audit ${ctx.report.name}, ${attack.name} has ${smallSampleSentence(clusters)}` +
          (nonzero.length === 0 ? '' : ` (${nonzero.map((r) => `${r.reward} oracle-worst ${rateWithBound(r.estimate)}`).join(', ')})`),
      data: { audit: ctx.report.name, attack: attack.name, clusters },
      key: [ctx.report.name, attack.name],
    }];
  });
}

/** Attacks with edits the pools' format cannot write back: not counted, so the figures are over fewer edits than were built. */
function unrenderedFindings(ctx: AuditContext): Problem[] {
  const attackItems = ctx.decl.items.filter((i) => i.kind === 'attack');
  return ctx.report.attacks.flatMap((attack): Problem[] => {
    const u = attack.unrendered;
    if (u === undefined) return [];
    const item = attackItems.find((i) => i.kind === 'attack' && i.name?.text === attack.name);
    return [{
      code: auditIssueCodes.unrenderedEdits, severity: 'warning', span: item?.span ?? ctx.anchor,
      message: `in audit ${ctx.report.name}, ${u.edits} ${attack.name} edit${u.edits === 1 ? '' : 's'} cannot be written back in the log's format and ${u.edits === 1 ? 'is' : 'are'} not counted: ` +
        `a term reads the rendered text; the first, ${u.first.file ?? u.first.pool}:${u.first.line} (${u.first.trajectory}): ${u.first.reason}`,
      data: { audit: ctx.report.name, attack: attack.name, edits: u.edits },
      key: [ctx.report.name, attack.name],
    }];
  });
}

/**
 * What reads a part no row of the audit's pools holds, said where it is declared: a detector that
 * is 0 on every original (it cannot fire: no attack can flip it, its penalty changes nothing), and
 * a term of a scored reward that is the same on every row (it cannot tell one row from another).
 */
function emptyPartFindings(ctx: AuditContext): Problem[] {
  const { report, model } = ctx;
  const detectors = report.detectors.flatMap((d): Problem[] => {
    if (d.firesOnOriginals !== 0) return [];
    const reason = cannotFireReason(report, model, d.name);
    const span = model.globals.get(d.name)?.decl.name?.span;
    if (reason === undefined) return [];
    return [{
      code: auditIssueCodes.emptyPart, severity: 'information', span: span ?? ctx.anchor,
      message: `in audit ${report.name}, ${d.name} cannot fire on any row: ${reason}; it is 0 on every row, so a penalty on it changes no row's reward`,
      data: { audit: report.name, detector: d.name },
      key: [report.name, 'detector', d.name],
    }];
  });
  const terms = report.terms.flatMap((t): Problem[] => {
    if (t.min === null || t.min !== t.max) return [];
    const term = findTerm(model, t.reward, t.term);
    if (term === undefined) return [];
    // A penalty on an audit detector (`R0 - 0.5 * L`): the detector's own finding says it.
    const body = term.body;
    if (body?.kind === 'name' && report.detectors.some((d) => d.name === body.name.text)) return [];
    const reason = constantTermReason(report, model.readSets.of(term.body));
    if (reason === undefined) return [];
    return [{
      code: auditIssueCodes.emptyPart, severity: 'information', span: term.span,
      message: `in audit ${report.name}, term ${t.term} of ${t.reward} is ${shortNumber(t.min)} on every row: ${reason}, which it reads, so it adds the same to every row's reward and cannot tell one row from another`,
      data: { audit: report.name, reward: t.reward, term: t.term },
      key: [report.name, 'term', t.reward, t.term],
    }];
  });
  return [...detectors, ...terms];
}

/** Everything one audit found, anchored by name (audit, expect text, reward, term, lattice entry, attack). */
export function auditFindings(report: AuditReport, model: SpecModel, text: string, specDir: string): Problem[] {
  const decl = model.globals.get(report.name)?.decl;
  if (decl?.kind !== 'audit') return [];
  const ctx: AuditContext = { report, decl, model, text, specDir, anchor: decl.name?.span ?? decl.span };
  return [
    ...conformanceFindings(ctx), ...expectationFindings(ctx), ...attackFindings(ctx), ...frozenFindings(ctx), ...cancellationFindings(ctx),
    ...redundantFindings(ctx), ...certificateFindings(ctx), ...smallSampleFindings(ctx), ...unrenderedFindings(ctx), ...emptyPartFindings(ctx),
  ];
}

