import { decimal5, margin, minus, notAvailable, percent, plural, shortNumber, type Label } from '../report/format-numbers.js';
import type { ComparisonCell } from '../report/training-schema.js';
import type { CancellationFinding, CertificateEntry, PoolImportReport, PoolResolutionReport, RateEstimateReport, WorkedPair } from '../report/schema.js';

// Sentences that a finding and the report's own views say alike: one wording, so the editor, SARIF,
// the CLI and the table agree to the word.

/** What an edit did: `citation 0 → w:2552`, `same_final edit`, or a declared edit's own words (`step 2 deleted`). */
export function editText(pair: WorkedPair): string {
  if (pair.change !== undefined) return pair.change;
  if (pair.position !== null && pair.replacement !== null) return `citation ${pair.position} → ${pair.replacement}`;
  if (pair.position !== null) return `citation ${pair.position}`;
  return `${pair.attack} edit`;
}

/** `R0 +0.81375 → R_L −0.38625 → R_full +0.41375`: one edit's paired margin under each reward. */
export function marginChain(pair: WorkedPair): string {
  return Object.entries(pair.margins).map(([reward, m]) => `${reward} ${margin(m)}`).join(' → ');
}

/**
 * What an attack's oracle-worst rate says about a reward. A tie counts as a success (the paper's
 * rate, `asr`), so a reward that reads nothing the edit changes is "beaten" at 100%; the sentence
 * says which happened: the reward prefers the edit (some margin above 0: the largest, and the
 * strict rate) or is only indifferent to it (no margin above 0).
 */
export function attackOutcomeSentence(attack: string, reward: string, estimate: RateEstimateReport, label: Label): string {
  const rate = `${percent(estimate.asr)} of isolated-eligible clusters (oracle-worst, ${label})`;
  if ((estimate.worstMargin ?? 0) > 0) {
    return `${attack} beats ${reward}: ${rate}; the reward prefers ${attack} (worst margin ${margin(estimate.worstMargin)}; strictly, margin > 0, on ${percent(estimate.strictAsr)})`;
  }
  const every = estimate.meanMargin === 0 ? 'every margin 0' : 'no margin above 0';
  return `${attack} ties ${reward} on ${rate}, a tie counting as a success: the reward is indifferent to ${attack} (${every}; strictly, margin > 0, on ${percent(estimate.strictAsr)})`;
}

export function cancellationSentence(f: CancellationFinding): string {
  return `${f.attack}, ${f.selection}: ${plural(f.count, 'edit')} in ${plural(f.clusters, 'cluster')} ${f.count === 1 ? 'loses' : 'lose'} under ${f.smaller} ` +
    `but ${f.count === 1 ? 'wins' : 'win'} under ${f.larger}, because the edit switches off ${f.term} (weight ${shortNumber(f.termWeight)}), ` +
    `a penalty already active on the original: the larger bundle is weaker here.`;
}

/** `λ_L = 1.2 > max gain 0.45714`, or why there is nothing to certify. */
export function certificateSentence(c: CertificateEntry): string {
  const lambda = `λ_${c.detector} = ${shortNumber(c.lambda)}`;
  if (c.maxGain === null) return `${lambda}: no audited edit triggers ${c.detector} (vacuous)`;
  return `${lambda} ${c.certified ? '>' : '≤'} max gain ${decimal5(c.maxGain)}`;
}

/** A difference of fractions as signed points with two decimals: 0.0143 → `+1.43`, −0.0703 → `−7.03`. */
export function points(x: number | null): string {
  if (x === null) return notAvailable;
  const t = (x * 100).toFixed(2);
  if (/^-?0\.00$/.test(t)) return '0.00';
  return t.startsWith('-') ? `${minus}${t.slice(1)}` : `+${t}`;
}

/** `↑ better` or `↓ better`: said on every comparison row, since the sign of a good change depends on the metric. */
export function betterArrow(better: 'higher' | 'lower'): string {
  return better === 'higher' ? '↑ better' : '↓ better';
}

/** The one sign convention of paired differences, stated on every comparison table and plot. */
export const differenceConvention = 'treatment − base, in points: ↑ better rows improve when positive, ↓ better rows when negative';

/** What each label means, said where labels appear (table cells, hovers): a reward that reads gold still has label-free figures. */
export const labelExplanations: Record<Label, string> = {
  'label-free': 'label-free: the edit was chosen without reading gold (first-visible), even when the reward that scores it reads gold',
  'oracle upper bound': 'oracle upper bound: the edit was chosen to maximise a reward that reads gold, which an attacker who cannot see gold cannot do',
};

/** Why `R0 (reads gold)` has label-free rows: the taint of the reward decides only its oracle-worst figures. */
export function visibilityExplanation(reward: string, visibility: 'visible' | 'oracle'): string {
  return visibility === 'oracle'
    ? `${reward} reads gold, so the figures whose edit is chosen to maximise it (oracle-worst) are oracle upper bounds; first-visible figures choose without gold and stay label-free.`
    : `${reward} reads only visible fields, so every figure it scores is label-free.`;
}

/** `results 58 logged, 12 by url, 1 unresolved; citations 20 logged, 4 by rank`: how a pool's ids were found (zero counts left out). */
export function resolutionCounts(r: PoolResolutionReport): string {
  const part = (what: string, counts: Readonly<Record<string, number>>): string => {
    const said = Object.entries(counts).filter(([, n]) => n > 0).map(([how, n]) => (how === 'logged' || how === 'unresolved' ? `${n} ${how}` : `${n} by ${how}`));
    return `${what} ${said.length === 0 ? 'none' : said.join(', ')}`;
  };
  return `${part('results', r.results)}; ${part('citations', r.citations)}`;
}

/** `12 results did not resolve against the corpus (4 rows kept without them); 1 row skipped …`; undefined when everything resolved. */
export function unresolvedSentence(r: PoolResolutionReport): string | undefined {
  const parts = [
    // Results of a row skipped for its citation count too: the rows kept are said apart.
    ...(r.results.unresolved > 0
      ? [`${plural(r.results.unresolved, 'result')} did not resolve against the corpus${r.rowsWithUnresolved > 0 ? ` (${plural(r.rowsWithUnresolved, 'row')} kept without ${r.results.unresolved === 1 ? 'it' : 'them'})` : ''}`]
      : []),
    ...(r.rowsSkipped > 0 ? [`${plural(r.rowsSkipped, 'row')} skipped for a citation marker that did not resolve`] : []),
  ];
  return parts.length === 0 ? undefined : parts.join('; ');
}

/** `imported 58 of 60 records from verl; 2 skipped; question ids derived for 58; 12 groups recovered`. */
export function importSentence(i: PoolImportReport): string {
  const c = i.counts;
  return [
    `imported ${c.imported} of ${plural(c.read, 'record')} from ${i.format}`,
    `${c.skipped} skipped`,
    c.questionIdsDerived > 0 ? `question ids derived for ${c.questionIdsDerived}` : 'question ids as logged',
    c.groupsRecovered === null ? 'groups as logged' : `${plural(c.groupsRecovered, 'group')} recovered`,
  ].join('; ');
}

/**
 * The power statement of a comparison's rate cell (table, hover and finding share it): "with 384
 * questions × 2 trajectories per arm the smallest detectable reduction is 1.66 points (…); the
 * claim of 1 point needs 1062 questions at 2 per arm".
 */
export function powerSentence(p: NonNullable<ComparisonCell['power']>): string {
  const k = Math.round(p.perQuestion * 100) / 100;
  const assumed = `${p.rateSource === 'observed' ? 'base rate' : 'no base event: base rate at its zero-event bound'} ${percent(p.baseRate)}${p.designEffect > 1 ? `, design effect ${p.designEffect.toFixed(2)}` : ''}`;
  const detect = p.detectable === null
    ? 'not even a reduction to zero is detected'
    : `the smallest detectable reduction is ${(p.detectable * 100).toFixed(2)} points`;
  const claim = `the claim of ${plural(Number((p.claim * 100).toFixed(4)), 'point')}`;
  const needs = p.questionsNeeded === null ? `${claim} is larger than the base rate` : `${claim} needs ${p.questionsNeeded} questions at ${k} per arm`;
  return `with ${p.questions} questions × ${k} trajectories per arm ${detect} (two-sided ${p.level * 100}%, power ${p.power * 100}%, ${assumed}); ${needs}`;
}
