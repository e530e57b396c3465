import { cell, check, heading, paragraph, rateBar, text, type Block, type Cell } from './format-blocks.js';
import { detectorSet, frozenCause, frozenEdit, frozenSentence, margin, minus, percent, plural, rateWithBound, rateWithUpper, shortLabel, shortNumber, vacuousLattice } from '../report/format-numbers.js';
import { perPoolBlocks, retentionBlocks, sweepBlocks, utilityBlocks } from './format-side-stats.js';
import { describeSignal } from './format-training.js';
import { describeComparison } from './format-comparison.js';
import type { AttackReport, AuditReport, Report, WorkedPair } from '../report/schema.js';
import { cancellationSentence, certificateSentence, editText, labelExplanations, marginChain, visibilityExplanation } from '../findings/wording.js';
import { rateCell, smallSampleFootnote } from './small-sample-cells.js';
import { readFileFields } from './read-file-lines.js';
import { pairFile } from '../report/pair-file.js';
import { robustnessBlocks, selectionBlocks } from './format-selection.js';
import { commandBlocks, generatorBlocks } from './format-generators.js';
import { profileBlocks } from './format-profile.js';

// What an audit summary says, section by section, as blocks that the text table and the HTML page
// both render (see format-blocks.ts).

export interface ReportDocument {
  readonly title: string;
  readonly summary: readonly Cell[];
  readonly audits: readonly { readonly name: string; readonly blocks: readonly Block[] }[];
}

// Past these counts a pivot table would not fit a 120-column terminal: switch to one row per entry.
const maxPivotAttacks = 4;
const maxIssuesShown = 5;

export function describeReport(report: Report): ReportDocument {
  const failed = report.audits.reduce((n, a) => n + a.expectations.filter((e) => !e.passed).length, 0);
  const expected = report.audits.reduce((n, a) => n + a.expectations.length, 0);
  const signals = report.signals ?? [];
  const comparisons = report.comparisons ?? [];
  const extra = [
    ...(signals.length > 0 ? [plural(signals.length, 'training-signal audit')] : []),
    ...(comparisons.length > 0 ? [plural(comparisons.length, 'policy comparison')] : []),
  ];
  const expectationRuns = report.audits.length === 0 && extra.length > 0
    ? []
    : [
        text(`${plural(report.audits.length, 'audit')} · ${plural(expected, 'expectation')}: `),
        cell(`${expected - failed} passed`, failed === 0 ? 'good' : undefined),
        text(', '),
        cell(`${failed} failed`, failed > 0 ? 'bad' : undefined),
      ];
  return {
    title: `HERALD audit report: ${report.spec}`,
    summary: [text(`spec ${report.spec}${extra.map((e) => ` · ${e}`).join('')}${expectationRuns.length > 0 ? ' · ' : ''}`), ...expectationRuns],
    audits: [
      ...report.audits.map((audit) => ({ name: audit.name, blocks: describeAudit(audit) })),
      ...signals.map((signal) => ({ name: signal.name, blocks: describeSignal(signal) })),
      ...comparisons.map((comparison) => ({ name: comparison.name, blocks: describeComparison(comparison) })),
    ],
  };
}

export function describeAudit(audit: AuditReport): Block[] {
  return [
    heading(`audit ${audit.name}`, 1),
    ...header(audit),
    ...profileBlocks(audit),
    ...conformanceBlocks(audit),
    ...selectionBlocks(audit),
    ...audit.attacks.flatMap((attack) => attackBlocks(audit, attack)),
    ...robustnessBlocks(audit),
    ...latticeBlocks(audit),
    ...detectorEffectBlocks(audit),
    ...cancellationBlocks(audit),
    ...certificateBlocks(audit),
    ...generatorBlocks(audit),
    ...sweepBlocks(audit),
    ...retentionBlocks(audit),
    ...utilityBlocks(audit),
    ...perPoolBlocks(audit),
    ...expectationBlocks(audit),
  ];
}

function header(audit: AuditReport): Block[] {
  const visibility = (v: 'visible' | 'oracle'): string => (v === 'oracle' ? 'oracle: reads gold' : 'visible');
  const fields: { name: string; value: Cell[] }[] = [
    { name: 'audited reward', value: [cell(`${audit.reward.name} (${visibility(audit.reward.visibility)})`, undefined, undefined, visibilityExplanation(audit.reward.name, audit.reward.visibility))] },
    {
      name: 'compared',
      value: [text(audit.compared.length === 0 ? 'none' : audit.compared.map((r) => `${r.name} (${visibility(r.visibility)})`).join(', '))],
    },
    {
      name: 'corpus',
      value: [
        text(`${audit.corpus.name}: ${audit.corpus.file}, ${plural(audit.corpus.passages, 'passage')}, `),
        cell(`${plural(audit.corpus.skipped, 'skipped row')}`, audit.corpus.skipped > 0 ? 'warn' : undefined),
      ],
    },
    ...audit.pools.map((p, i) => ({
      name: i === 0 ? (audit.pools.length === 1 ? 'pool' : 'pools') : '',
      value: [
        text(`${p.name}: ${p.file}, ${plural(p.rows, 'row')}, ${plural(p.questions, 'question')}, `),
        cell(plural(p.skipped, 'skipped row'), p.skipped > 0 ? 'warn' : undefined),
      ],
    })),
    ...readFileFields(audit.pools),
    { name: 'clusters', value: [text(`${audit.clusters} distinct question ids across the pools`)] },
    // Why a reward that reads gold has label-free rows: said once, where the labels first appear.
    { name: 'labels', value: [cell(`${labelExplanations['label-free']}; ${shortLabel('oracle upper bound')} = ${labelExplanations['oracle upper bound']}`, 'muted')] },
    {
      name: 'detectors',
      value: [text(audit.detectors.map((d) => `${d.name} (λ ${d.lambda === null ? '—' : shortNumber(d.lambda)}, fires on ${plural(d.firesOnOriginals, 'original')})`).join(', ') || 'none')],
    },
    {
      name: 'settings',
      value: [text(`seed ${audit.settings.seed}, ${audit.settings.bootstrap} bootstrap resamples, sweep ${audit.settings.sweep.map((s) => `×${shortNumber(s)}`).join(' ')}`)],
    },
  ];
  const issues = [...audit.corpus.issues, ...audit.pools.flatMap((p) => p.issues)];
  const skipped = audit.corpus.skipped + audit.pools.reduce((n, p) => n + p.skipped, 0);
  const blocks: Block[] = [{ kind: 'fields', fields }];
  if (skipped > 0) {
    blocks.push(paragraph([cell(`${plural(skipped, 'row')} skipped:`, 'warn')]));
    for (const issue of issues.slice(0, maxIssuesShown)) blocks.push(paragraph([text(`${issue.file}:${issue.line}: ${issue.reason}`)], 2));
    if (skipped > maxIssuesShown) blocks.push(paragraph([cell(`… and ${skipped - maxIssuesShown} more`, 'muted')], 2));
  }
  return blocks;
}

/** Edits the format could not write back: said under the counts, since no figure below counts them. */
function unrenderedBlocks(attack: AttackReport): Block[] {
  const u = attack.unrendered;
  if (u === undefined) return [];
  const where = `${u.first.file ?? u.first.pool}:${u.first.line} (${u.first.trajectory})`;
  return [paragraph([cell(`${u.edits} edit${u.edits === 1 ? '' : 's'} the log's format cannot write back ${u.edits === 1 ? 'is' : 'are'} not counted in any figure below; the first, ${where}: ${u.first.reason}`, 'warn')])];
}

const strictExplanation = 'the share of isolated-eligible clusters where the reward strictly prefers the edit (margin > 0); the ASR counts a tie as a success, so ASR − strict is the share of ties';

function attackBlocks(audit: AuditReport, attack: AttackReport): Block[] {
  const generators = attack.generators.length === 0 ? '' : `; generators ${attack.generators.join(', ')}`;
  const c = attack.counts;
  const countRow = (name: string, k: typeof c.rows): Cell[] => [text(name), text(String(k.constructible)), text(String(k.eligible)), text(String(k.isolatedEligible))];
  const blocks: Block[] = [
    heading(`attack ${attack.name} (${attack.kind}, targets ${detectorSet(attack.targets)}${generators})`),
    {
      kind: 'table',
      columns: [{ title: '' }, { title: 'constructible', align: 'right' }, { title: 'eligible', align: 'right' }, { title: 'isolated-eligible', align: 'right' }],
      rows: [countRow('rows', c.rows), countRow('clusters', c.clusters), countRow('edits', c.edits)],
    },
    ...attack.candidateNotes.map((note) => paragraph([cell(`note: ${note}`, 'muted')])),
    ...unrenderedBlocks(attack),
    ...commandBlocks(attack),
  ];
  if (attack.results.length === 0) return [...blocks, paragraph([cell('no reward was scored for this attack', 'muted')])];
  blocks.push({
    kind: 'table',
    columns: [
      { title: 'reward', shrink: true }, { title: 'selection' }, { title: 'ASR (95%)', align: 'right' }, { title: 'strict ASR', align: 'right' }, { title: 'mean margin', align: 'right' },
      { title: 'worst margin', align: 'right' }, { title: 'clusters', align: 'right' }, { title: 'rows', align: 'right' }, { title: 'label' },
    ],
    rows: attack.results.map((r) => {
      const e = r.estimate;
      return [
        cell(r.reward, r.reward === audit.reward.name ? 'accent' : undefined),
        text(r.selection),
        // A frozen rate is shown as what it is, never as the reward's figure (and never as a bar).
        r.frozen !== undefined
          ? cell(`frozen (${percent(e.asr)} as logged)`, 'warn', undefined, frozenSentence(r.reward, attack.name, r.frozen))
          // The figure of a reward that fails its `conforms` line is shown, and said not to be the logged reward's.
          : r.notConforming !== undefined
            ? cell(`${rateWithBound(e)} not the logged reward`, 'warn', undefined, `${r.notConforming.map((t) => `\`${t}\``).join(', ')} fails`)
            : rateCell(rateWithBound(e), e.asr, e.clusters, rateBar(e.asr, e.interval.low, e.interval.high)),
        // The strict rate (margin > 0) beside the paper's, where a tie counts: their gap is the ties.
        // Its interval is in the JSON (`strictInterval`); here the rate alone keeps the table to the terminal's width.
        r.frozen === undefined ? cell(percent(e.strictAsr), undefined, undefined, strictExplanation) : cell('frozen', 'warn'),
        text(margin(e.meanMargin)),
        text(margin(e.worstMargin)),
        text(String(e.clusters)),
        text(String(e.rows)),
        cell(shortLabel(r.label), r.label === 'oracle upper bound' ? 'muted' : undefined, undefined, labelExplanations[r.label]),
      ];
    }),
  });
  return [...blocks, ...frozenFootnote(attack), ...smallSampleFootnote(attack.results.map((r) => r.estimate.clusters))];
}

/** Why an attack's frozen rows are frozen: one line per cause, naming its rewards. */
function frozenFootnote(attack: AttackReport): Block[] {
  const byCause = new Map<string, string[]>();
  for (const r of attack.results) {
    if (r.selection !== 'oracle_worst' || r.frozen === undefined) continue;
    const cause = `${frozenCause(r.frozen)}, and ${frozenEdit(attack.name, r.frozen)}`;
    byCause.set(cause, [...(byCause.get(cause) ?? []), r.reward]);
  }
  return [...byCause].map(([cause, rewards]) => paragraph([cell(`frozen: ${rewards.join(', ')} ${rewards.length === 1 ? 'reads' : 'read'} ${cause}. These rows are not the rewards' figures: no finding counts them and no repair is worked out from them.`, 'warn')]));
}

function latticeReward(audit: AuditReport, detectors: readonly string[]): string {
  const lambda = new Map(audit.lattice.detectors.map((d) => [d.name, d.lambda]));
  return [audit.reward.name, ...detectors.map((d) => `${minus} ${shortNumber(lambda.get(d) ?? Number.NaN)}·${d}`)].join(' ');
}

function latticeBlocks(audit: AuditReport): Block[] {
  const { lattice } = audit;
  if (lattice.detectors.length === 0) return [];
  const attacks = [...new Set(lattice.subsets.flatMap((s) => s.results.map((r) => r.attack)))];
  const label = shortLabel(lattice.subsets[0]?.results.find((r) => r.selection === 'oracle_worst')?.label ?? 'label-free');
  const blocks: Block[] = [
    heading('detector lattice'),
    paragraph([
      text(`R_S = ${audit.reward.name} − Σ_{j∈S} λ_j·f_j over ${lattice.detectors.map((d) => `${d.name} (λ ${shortNumber(d.lambda)})`).join(', ')}. `),
      text(`A subset is sufficient when every attack's oracle-worst ASR (${label}) is zero on isolated-eligible clusters.`),
    ]),
  ];
  const worst = (subset: (typeof lattice.subsets)[number], attack: string): Cell => {
    const r = subset.results.find((x) => x.attack === attack && x.selection === 'oracle_worst');
    if (r === undefined) return cell('n/a', 'muted');
    return rateCell(rateWithUpper(r.asr, r.upper), r.asr, r.clusters, rateBar(r.asr, undefined, r.upper));
  };
  const mark = (minimal: boolean): Cell => (minimal ? cell('◀ minimal repair', 'accent') : text(''));
  const sufficient = (ok: boolean): Cell => (ok ? cell('✓', 'good') : cell('—', 'muted'));
  if (attacks.length <= maxPivotAttacks) {
    blocks.push({
      kind: 'table',
      columns: [{ title: 'subset' }, { title: 'reward', shrink: true }, ...attacks.map((a) => ({ title: a, align: 'right' as const, shrink: true })), { title: 'sufficient' }, { title: '' }],
      rows: lattice.subsets.map((s) => [
        text(detectorSet(s.detectors)), text(latticeReward(audit, s.detectors)), ...attacks.map((a) => worst(s, a)), sufficient(s.sufficient), mark(s.minimal),
      ]),
    });
  } else {
    blocks.push({
      kind: 'table',
      columns: [{ title: 'subset' }, { title: 'attack', shrink: true }, { title: 'oracle-worst ASR', align: 'right' }, { title: 'sufficient' }, { title: '' }],
      rows: lattice.subsets.flatMap((s) =>
        attacks.map((a, i) => [text(i === 0 ? detectorSet(s.detectors) : ''), text(a), worst(s, a), i === 0 ? sufficient(s.sufficient) : text(''), i === 0 ? mark(s.minimal) : text('')]),
      ),
    });
  }
  blocks.push(...smallSampleFootnote(lattice.subsets.flatMap((s) => s.results.filter((r) => r.selection === 'oracle_worst').map((r) => r.clusters))));
  if (lattice.frozen !== undefined) {
    blocks.push(paragraph([cell(`Left out: ${lattice.frozen.join(', ')}, whose figures under ${audit.reward.name} are frozen; the lattice, the certificate and the sweep read the other attacks only.`, 'warn')]));
  }
  if (lattice.vacuous) {
    blocks.push(paragraph([cell(`${vacuousLattice[0]!.toUpperCase()}${vacuousLattice.slice(1)}. No subset is sufficient or minimal: the attacks had nothing to score.`, 'warn')]));
  } else if (lattice.minimal.length === 0) {
    blocks.push(paragraph([cell('No subset is sufficient: every subset leaves an attack with a positive oracle-worst ASR.', 'warn')]));
  } else {
    const used = new Set(lattice.minimal.flat());
    const redundant = lattice.detectors.map((d) => d.name).filter((d) => !used.has(d));
    blocks.push(paragraph([
      text('Observed inclusion-minimal repair: '),
      cell(lattice.minimal.map(detectorSet).join(', '), 'accent'),
      text(redundant.length === 0 ? '.' : `; ${redundant.join(', ')} ${redundant.length === 1 ? 'is' : 'are'} in no minimal repair.`),
    ]));
  }
  return blocks;
}

/** Each lattice detector's part in each attack's margins: the table a detector's hover sums up. */
function detectorEffectBlocks(audit: AuditReport): Block[] {
  const rows = audit.attacks.flatMap((a) => a.detectorEffects.map((e): Cell[] => [
    text(e.detector), text(a.name), text(shortNumber(e.lambda)), text(percent(e.firesOnEdits)), text(margin(e.meanContribution)), text(margin(e.worstContribution)),
  ]));
  if (rows.length === 0) return [];
  return [
    heading('detector effects on the attacks\' edits'),
    paragraph([cell('−λ·d with d = f(A(τ)) − f(τ): what a lattice penalty adds to each isolated-eligible edit\'s paired margin (negative: it works against the attack)', 'muted')]),
    {
      kind: 'table',
      columns: [
        { title: 'detector' }, { title: 'attack', shrink: true }, { title: 'λ', align: 'right' }, { title: 'fires on edits', align: 'right' },
        { title: 'mean −λ·d', align: 'right' }, { title: 'worst −λ·d', align: 'right' },
      ],
      rows,
    },
  ];
}



function pairLine(audit: AuditReport, pair: WorkedPair): string {
  return `${pair.trajectory} (${pairFile(audit, pair)}:${pair.line}, ${editText(pair)}): ${marginChain(pair)}`;
}


function cancellationBlocks(audit: AuditReport): Block[] {
  const blocks: Block[] = [heading('penalty cancellation')];
  if (audit.cancellation.length === 0) return [...blocks, paragraph([cell('none found: no larger reward lets an edit win by switching off a penalty that was active on the original', 'muted')])];
  for (const f of audit.cancellation) {
    const s = f.strata;
    blocks.push(
      paragraph([cell('▲ ', 'warn'), text(cancellationSentence(f))]),
      paragraph([text(`worked pair ${pairLine(audit, f.example)}`)], 2),
      paragraph([text(
        `strata under ${f.larger}: ${f.term} active ${rateWithBound(s.active)} over ${plural(s.active.clusters, 'cluster')}; ` +
        `inactive ${rateWithBound(s.inactive)} over ${plural(s.inactive.clusters, 'cluster')}`,
      )], 2),
    );
  }
  return blocks;
}


function certificateBlocks(audit: AuditReport): Block[] {
  if (audit.certificate.length === 0) return [];
  const generators = [...new Set(audit.attacks.flatMap((a) => a.generators))];
  const blocks: Block[] = [
    heading('finite-set certificate'),
    paragraph([cell(
      `R_{d} rejects every audited edit that triggers d when λ_d > max base gain ${audit.reward.name}(A(τ)) − ${audit.reward.name}(τ) over those edits; ` +
      `it covers only the edits that were run${generators.length === 0 ? '' : ` (generators ${generators.join(', ')})`}.`,
      'muted',
    )]),
  ];
  for (const c of audit.certificate) {
    const runs: Cell[] = [text(`${certificateSentence(c)} `), check(c.certified)];
    if (c.maxGain !== null) {
      const example = c.example === null ? '' : `; largest gain: ${c.example.trajectory}, ${pairFile(audit, c.example)}:${c.example.line}, ${editText(c.example)}`;
      runs.push(text(` (${plural(c.edits, 'edit')} trigger${c.edits === 1 ? 's' : ''} ${c.detector}${example})`));
    }
    blocks.push(paragraph(runs, 2));
  }
  return blocks;
}

/** The `conforms` lines, before any figure: a failing one says which rewards' figures are not the logged reward's. */
function conformanceBlocks(audit: AuditReport): Block[] {
  const lines = audit.conformance ?? [];
  const terms = audit.commandTerms ?? [];
  const blocks: Block[] = [];
  if (terms.length > 0) {
    blocks.push(paragraph(terms.map((t) => cell(`computed by a command: ${t.term} (${JSON.stringify(t.command)}) over ${plural(t.requests, 'trajectory', 'trajectories')}, ${t.ran === 0 ? 'all from the cache' : `${t.ran} run now`}`)), 2));
  }
  if (lines.length === 0) return blocks;
  const failed = lines.filter((c) => !c.holds).length;
  blocks.push(heading(`conformance: ${lines.length - failed} ${lines.length - failed === 1 ? 'holds' : 'hold'}, ${failed} ${failed === 1 ? 'fails' : 'fail'}`), {
    kind: 'table',
    columns: [{ title: '' }, { title: 'line', align: 'right' }, { title: 'conforms', shrink: true }, { title: 'rows differing', align: 'right' }, { title: 'largest difference', shrink: true }],
    rows: lines.map((c) => [
      check(c.holds), text(String(c.range.start.line + 1)), cell(c.text, c.holds ? undefined : 'bad'), text(`${c.differing} of ${c.rows}`),
      text(c.largest === null ? 'none above the tolerance' : `${Number(c.largest.difference.toPrecision(6))} (${c.largest.file}:${c.largest.line})`),
    ]),
  });
  for (const c of lines) {
    if (c.holds) continue;
    blocks.push(paragraph([cell(`${c.text}: first rows ${c.first.map((r) => `${r.file}:${r.line} (${Number(r.subject.toPrecision(12))} vs ${Number(r.reference.toPrecision(12))})`).join(', ')}` +
      (c.marks.length === 0 ? '' : `; every figure of ${c.marks.join(', ')} below is not the logged reward's`), 'warn')]));
  }
  return blocks;
}

function expectationBlocks(audit: AuditReport): Block[] {
  if (audit.expectations.length === 0) return [];
  const failed = audit.expectations.filter((e) => !e.passed).length;
  return [
    heading(`expectations: ${audit.expectations.length - failed} passed, ${failed} failed`),
    {
      kind: 'table',
      columns: [{ title: '' }, { title: 'line', align: 'right' }, { title: 'expect', shrink: true }, { title: 'actual', shrink: true }],
      rows: audit.expectations.map((e) => [check(e.passed), text(String(e.range.start.line + 1)), cell(e.text, e.passed ? undefined : 'bad'), text(e.actual)]),
    },
  ];
}
