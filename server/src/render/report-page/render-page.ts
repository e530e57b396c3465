import { describeReport } from '../format-document.js';
import { detectorSet, percent, plural, shortNumber } from '../../report/format-numbers.js';
import type { AttackReport, AuditReport, Report } from '../../report/schema.js';
import type { SignalReport } from '../../report/training-schema.js';
import type { ComparisonReport } from '../../report/training-schema.js';
import { normalizationIdentity } from '../format-training.js';
import { differenceConvention, labelExplanations, points, visibilityExplanation } from '../../findings/wording.js';
import { isSmallSample, smallSampleMark, smallSampleSentence } from '../../findings/small-sample.js';
import { exposureView, forestRows } from './training-chart-data.js';
import { asrSteps } from './asr-scale.js';
import { marginView, seriesSummary, strataGroups, sweepLines } from './chart-data.js';
import { contentSecurityPolicy } from './csp.js';
import { hasseLayout, hasseSvg, maxDrawnDetectors } from './hasse.js';
import { fragment, h, render, trusted, type Child, type Html } from './html.js';
import { subsetReward } from './lattice-figures.js';
import { embedJson, latticeDetailClass, reportDataId, type ChartKind } from './page-contract.js';
import { pageStyle } from './page-style.js';
import { skippedRowsCard } from './skipped-rows.js';
import { readFilesCard } from './read-files-card.js';
import { blockHtml, runsHtml } from './tables-html.js';
import { workedPairsCard } from './worked-pairs.js';

// The report as pictures: per audit the detector lattice (server-drawn SVG), the margin
// distributions, the penalty-scale sweep and the cancellation strata (drawn in the browser by
// dist/report-view.js from the embedded JSON), then every figure as tables. One renderer for the
// VS Code webview (script from the extension's dist/, `cspSource` set) and the CLI's standalone
// page (script inlined); both run only nonce'd code and load nothing remote.

export interface ReportPageOptions {
  /** A fresh random nonce per rendering (22+ base64 characters). */
  readonly nonce: string;
  /** The webview's resource origin (`webview.cspSource`); absent for the standalone page. */
  readonly cspSource?: string | undefined;
  /** The view script's webview URI; or */
  readonly scriptUri?: string | undefined;
  /** the view script's text, inlined (the standalone page). Without either the page is static. */
  readonly inlineScript?: string | undefined;
  /** One line under the title, e.g. which document version the audit ran on. */
  readonly note?: string | undefined;
}

export function renderReportPage(report: Report, options: ReportPageOptions): string {
  const doc = describeReport(report);
  // The tables repeat the audit's heading, which its section already has.
  const tables = (i: number): Html[] => (doc.audits[i]?.blocks ?? []).filter((b) => !(b.kind === 'heading' && b.level === 1)).map(blockHtml);
  const sections = [
    ...report.audits.map((audit, i) => auditSection(audit, i, tables(i))),
    ...(report.signals ?? []).map((signal, i) => signalSection(signal, i, tables(report.audits.length + i))),
    ...(report.comparisons ?? []).map((comparison, i) => comparisonSection(comparison, i, tables(report.audits.length + (report.signals?.length ?? 0) + i))),
  ];
  return page(doc.title, options, [
    h('header', {},
      h('h1', {}, 'HERALD audit report'),
      h('p', {}, runsHtml(doc.summary)),
      h('p', { class: 'muted' }, `${report.tool.name} ${report.tool.version} · report version ${report.version}`, options.note === undefined ? '' : ` · ${options.note}`)),
    h('main', {}, sections),
    h('footer', {}, `${labelExplanations['label-free']}; ${labelExplanations['oracle upper bound']}. Success is a margin ≥ 0.`),
    h('script', { type: 'application/json', id: reportDataId }, trusted(embedJson(report))),
  ]);
}

/** A page with a sentence and no report (the editor's view before any audit has finished). */
export function renderNoticePage(title: string, message: string, options: Pick<ReportPageOptions, 'nonce' | 'cspSource'>): string {
  return page(title, options, [h('header', {}, h('h1', {}, title), h('p', { class: 'muted' }, message))]);
}

function page(title: string, options: ReportPageOptions, body: Child[]): string {
  const script = scriptElement(options);
  return [
    '<!DOCTYPE html>',
    render(h('html', { lang: 'en' },
      h('head', {},
        h('meta', { charset: 'utf-8' }),
        h('meta', { 'http-equiv': 'Content-Security-Policy', content: contentSecurityPolicy(options) }),
        h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
        h('meta', { name: 'referrer', content: 'no-referrer' }),
        h('title', {}, title),
        h('style', { nonce: options.nonce }, trusted(pageStyle))),
      h('body', {}, body, script))),
    '',
  ].join('\n');
}

function scriptElement(options: ReportPageOptions): Html | null {
  if (options.inlineScript !== undefined) {
    // A script element's text ends at the first `</script`; esbuild escapes it in string literals,
    // so finding one means the bundle is not what this page expects.
    if (/<\/script|<!--/i.test(options.inlineScript)) throw new Error('the inlined view script contains </script or <!--');
    return h('script', { nonce: options.nonce }, trusted(options.inlineScript));
  }
  if (options.scriptUri !== undefined) return h('script', { nonce: options.nonce, src: options.scriptUri });
  return null;
}

function auditSection(audit: AuditReport, index: number, tables: readonly Html[]): Html {
  const passed = audit.expectations.filter((e) => e.passed).length;
  const visibility = (v: string): string => (v === 'oracle' ? 'reads gold' : 'visible');
  // Hovering a reward says why one that reads gold still has label-free figures.
  const reward = (r: { name: string; visibility: 'visible' | 'oracle' }): Html => h('span', { class: 'explained', title: visibilityExplanation(r.name, r.visibility) }, `${r.name} (${visibility(r.visibility)})`);
  const small = audit.attacks.filter((a) => isSmallSample(a.counts.clusters.isolatedEligible));
  return h('section', { class: 'audit', 'data-audit': index },
    h('h2', {}, `Audit ${audit.name}`),
    h('p', { class: 'meta' },
      reward(audit.reward),
      audit.compared.length === 0 ? '' : fragment(' compared with ', audit.compared.map((r, i) => fragment(i === 0 ? '' : ', ', reward(r)))),
      ` · ${plural(audit.pools.length, 'pool')} · ${plural(audit.clusters, 'question cluster')} · `,
      audit.expectations.length === 0 ? 'no expectations' : `${passed}/${audit.expectations.length} expectations hold`),
    audit.expectations.length === 0 ? null : h('ul', { class: 'chips' }, audit.expectations.map((e) =>
      h('li', { class: `chip ${e.passed ? 'passed' : 'failed'}`, title: `actual: ${e.actual}` }, `${e.passed ? '✓' : '✗'} ${e.text}`))),
    small.map((a) => h('p', { class: 'warn small-sample' }, `${smallSampleMark} Small sample: ${a.name} has ${smallSampleSentence(a.counts.clusters.isolatedEligible)}.`)),
    h('div', { class: 'cards' },
      skippedRowsCard([audit.corpus, ...audit.pools]),
      readFilesCard(audit.pools),
      latticeCard(audit, index),
      marginsCard(audit, index),
      sweepCard(audit, index),
      strataCard(audit, index),
      workedPairsCard(audit)),
    h('details', { class: 'tables' }, h('summary', {}, 'Every figure as a table'), tables));
}

function chart(kind: ChartKind, audit: number, label: string, fallback: string, extra: Record<string, number> = {}, tall = false): Html {
  return h('div', { class: tall ? 'chart tall' : 'chart', 'data-chart': kind, 'data-audit': audit, role: 'img', 'aria-label': label, ...extra },
    h('p', { class: 'chart-fallback' }, fallback));
}

const noScript = 'This chart is drawn by the page script; the tables below hold the same figures.';

function latticeCard(audit: AuditReport, index: number): Html {
  const { lattice } = audit;
  const title = h('h3', {}, 'Detector lattice');
  if (lattice.detectors.length === 0) return h('figure', { class: 'card' }, title, h('p', { class: 'note' }, 'This audit has no lattice line.'));
  const layout = hasseLayout(lattice);
  const lambdas = lattice.detectors.map((d) => `λ_${d.name} = ${shortNumber(d.lambda)}`).join(', ');
  const verdict = lattice.minimal.length === 0
    ? h('p', {}, h('span', { class: 'warn' }, 'No subset is sufficient: every one leaves an attack with a positive oracle-worst ASR.'))
    : h('p', {}, 'Observed inclusion-minimal repair: ', lattice.minimal.map((m, i) =>
      fragment(i === 0 ? '' : ', ', h('span', { class: 'accent' }, m.length === 0 ? '∅' : detectorSet(m)), ` (${subsetReward(audit, m)})`)), '.');
  const label = lattice.subsets[0]?.results.find((r) => r.selection === 'oracle_worst')?.label ?? 'label-free';
  return h('figure', { class: 'card', 'data-lattice': index },
    title,
    h('p', { class: 'note' },
      `Each node is a subset S of the detectors, scored as ${audit.reward.name} − Σ_{j∈S} λ_j f_j (${lambdas}); each row down adds one. `,
      `Colour: the worst oracle-worst ASR over the attacks (${label}). ✓ sufficient: every oracle-worst ASR is zero. Click a node for its figures.`),
    verdict,
    layout === undefined
      ? h('p', { class: 'note' }, `${lattice.detectors.length} detectors is more than the ${maxDrawnDetectors} the diagram draws; see the lattice table below.`)
      : h('div', { class: 'hasse-scroll' }, hasseSvg(audit, layout)),
    h('ul', { class: 'legend' },
      asrSteps.map((s) => h('li', {}, h('span', { class: `swatch ${s.cls}` }), s.title)),
      h('li', {}, h('span', { class: 'swatch check' }, '✓'), 'sufficient'),
      h('li', {}, h('span', { class: 'swatch ring' }), 'minimal repair')),
    h('div', { class: latticeDetailClass, 'aria-live': 'polite' }));
}

function marginsBox(audit: AuditReport, auditIndex: number, attack: AttackReport, attackIndex: number): Html {
  const view = marginView(audit, attack);
  const shown = view.series.filter((s) => s.shown && s.selection === 'oracle_worst');
  const caption = shown.map((s) => fragment(h('b', {}, s.reward), seriesSummary(s)));
  const label = `Histogram of oracle-worst paired margins in attack ${attack.name} under ${shown.map((s) => s.reward).join(' and ')}`;
  return h('div', { class: 'chart-box' },
    h('h4', {}, `${attack.name} `, h('span', { class: 'muted' }, `(${attack.kind}, targets ${detectorSet(attack.targets)}, ${plural(attack.counts.rows.isolatedEligible, 'isolated-eligible trajectory', 'isolated-eligible trajectories')})`)),
    view.edges.length === 0
      ? h('p', { class: 'chart-fallback' }, 'No isolated-eligible edit: nothing to plot.')
      : chart('margins', auditIndex, label, noScript, { 'data-attack': attackIndex }),
    h('p', { class: 'caption' }, 'oracle-worst: ', caption.map((c, i) => fragment(i === 0 ? '' : ' · ', c))));
}

function marginsCard(audit: AuditReport, index: number): Html {
  return h('figure', { class: 'card wide' },
    h('h3', {}, 'Paired margins M = R(A(τ)) − R(τ)'),
    h('p', { class: 'note' },
      `One selected edit per isolated-eligible trajectory, binned; an edit at or right of the dashed line (M ≥ 0) is a successful attack. `,
      `${audit.reward.name} is the audited reward; R[S] the minimal repair ${audit.reward.name} − Σ_{j∈S} λ_j f_j. Compared rewards can be switched on in each legend.`),
    audit.attacks.length === 0
      ? h('p', { class: 'note' }, 'This audit runs no attack.')
      : h('div', { class: 'small-multiples' }, audit.attacks.map((a, i) => marginsBox(audit, index, a, i))));
}

function sweepCard(audit: AuditReport, index: number): Html {
  const title = h('h3', {}, 'Penalty-scale sweep');
  if (audit.sweep.length === 0) return h('figure', { class: 'card' }, title, h('p', { class: 'note' }, 'No sweep: the audit has no lattice detectors.'));
  const lines = sweepLines(audit);
  const scales = [...new Set(audit.sweep.map((e) => e.scale))].sort((a, b) => a - b);
  const worst = lines.filter((l) => l.selection === 'oracle_worst').map((l) =>
    fragment(h('b', {}, l.attack), `: ${l.points.map((p) => `×${shortNumber(p.scale)} ${percent(p.asr)}`).join(', ')}`));
  return h('figure', { class: 'card' },
    title,
    h('p', { class: 'note' }, `Every lattice λ multiplied by a scale (${scales.map((s) => `×${shortNumber(s)}`).join(', ')}): ×0 is ${audit.reward.name}, ×1 the full bundle. Solid lines oracle-worst, dashed first-visible.`),
    h('h4', {}, 'Attack success rate'),
    chart('sweep-asr', index, `Attack success rate against penalty scale in audit ${audit.name}`, noScript),
    h('h4', {}, 'Mean paired margin'),
    chart('sweep-margin', index, `Mean paired margin against penalty scale in audit ${audit.name}`, noScript),
    h('p', { class: 'caption' }, 'oracle-worst ASR: ', worst.map((w, i) => fragment(i === 0 ? '' : ' · ', w))));
}

function strataCard(audit: AuditReport, index: number): Html {
  const title = h('h3', {}, 'Penalty cancellation strata');
  const groups = strataGroups(audit);
  if (groups.length === 0) {
    return h('figure', { class: 'card' }, title, h('p', { class: 'note' }, 'No cancellation finding: no compared reward wins back an attack by switching off an active penalty.'));
  }
  return h('figure', { class: 'card wide' },
    title,
    h('div', { class: 'split' },
      h('div', { class: 'chart-box' },
        chart('strata', index, `Attack success rate with the cancelled term active and inactive, per cancellation finding of audit ${audit.name}`, noScript, {}, groups.length > 2)),
      h('div', {},
        h('p', { class: 'note' }, "For compared rewards S ⊂ T, M_T = M_S + C_{T∖S}: where the original already triggers one of T's penalties and the edit switches it off, T pays the attacker. Bars: T's ASR on originals where that term was active and where it was not, with the interval (exact bound at zero)."),
        h('p', { class: 'caption' }, groups.map((g, i) => fragment(i === 0 ? '' : h('br', {}),
          h('b', {}, g.title), `: term ${g.term} (${shortNumber(g.termWeight)}) switched off in ${plural(g.count, 'edit')}; active ${percent(g.active.asr)} vs inactive ${percent(g.inactive.asr)}`))))));
}

function signalSection(signal: SignalReport, index: number, tables: readonly Html[]): Html {
  const view = exposureView(signal);
  const caption = signal.detectors.map((d) => fragment(h('b', {}, d.name),
    `: fires on ${d.firingRows} of ${signal.rows} rows in ${d.firingGroups} groups (${d.mixedGroups} mixed, ${d.allFiringGroups} on every sample); `,
    `changes the advantages in ${d.changedGroups}, cancelled in ${d.cancelledGroups} `,
    h('span', { class: d.reachesOptimizer ? 'good' : 'warn' }, d.reachesOptimizer ? `(≥ ${signal.minGroups} ✓)` : `(< ${signal.minGroups} ✗)`)));
  return h('section', { class: 'audit signal', 'data-signal': index },
    h('h2', {}, `Training signal ${signal.name}`),
    h('p', { class: 'meta' }, `${signal.reward.name} · ${signal.rows} rows in ${signal.groups} groups · ${signal.normalization === 'std' ? 'A = (r − r̄_g)/s_g' : 'A = r − r̄_g'}`),
    h('div', { class: 'cards' },
      skippedRowsCard(signal.logs),
      readFilesCard(signal.logs),
      h('figure', { class: 'card wide' },
        h('h3', {}, 'Exposure over training'),
        h('p', { class: 'note' }, `Bars: rows on which each detector fires, per step. Line: the running number of groups whose normalised advantages its penalty changed; the dashed line is min_groups (${signal.minGroups}). ${normalizationIdentity}`),
        view.steps.length === 0
          ? h('p', { class: 'chart-fallback' }, 'The log has no meta.step: nothing to plot.')
          : h('div', { class: 'chart', 'data-chart': 'exposure', 'data-signal': index, role: 'img', 'aria-label': `Detector exposure per training step in ${signal.name}` }, h('p', { class: 'chart-fallback' }, noScript)),
        h('p', { class: 'caption' }, caption.map((c, i) => fragment(i === 0 ? '' : h('br', {}), c))))),
    h('details', { class: 'tables' }, h('summary', {}, 'Every figure as a table'), tables));
}

function comparisonSection(comparison: ComparisonReport, index: number, tables: readonly Html[]): Html {
  const rows = forestRows(comparison);
  const gate = comparison.nonInferiority;
  return h('section', { class: 'audit comparison', 'data-comparison': index },
    h('h2', {}, `Policy comparison ${comparison.name}`),
    h('p', { class: 'meta' }, `${comparison.pairs} pairs · ${comparison.benchmarks.join(', ')} · targeted attacks scored by ${comparison.scorer.name}`),
    h('ul', { class: 'chips' }, gate.benchmarks.map((g) =>
      h('li', { class: `chip ${g.passed ? 'passed' : 'failed'}`, title: `paired EM lower bound ${points(g.lower)} points` }, `${g.passed ? '✓' : '✗'} EM non-inferiority on ${g.benchmark} (treatment − base lower bound > −${gate.margin} points)`))),
    h('div', { class: 'cards' },
      skippedRowsCard([...comparison.base, ...comparison.treatment]),
      readFilesCard([...comparison.base, ...comparison.treatment]),
      h('figure', { class: 'card wide' },
        h('h3', {}, 'Paired differences'),
        h('p', { class: 'note' }, `Every row is ${differenceConvention}. Whiskers: 95% question-cluster bootstrap intervals; a rate with no event in either arm shows ±(1 − 0.05^(1/n)).`),
        h('div', { class: 'chart tall', 'data-chart': 'forest', 'data-comparison': index, role: 'img', 'aria-label': `Forest plot of paired differences in ${comparison.name}` },
          h('p', { class: 'chart-fallback' }, noScript)),
        h('p', { class: 'caption' }, rows.filter((r) => r.benchmark === 'equal-suite' || comparison.benchmarks.length === 1).map((r, i) =>
          fragment(i === 0 ? '' : ' · ', h('b', {}, r.label), ` ${points(r.estimate / 100)} [${points(r.low / 100)}, ${points(r.high / 100)}] ${r.verdict}`))))),
    h('details', { class: 'tables' }, h('summary', {}, 'Every figure as a table'), tables));
}
