import { cell, check, heading, paragraph, text, type Block, type Cell, type Tone } from './format-blocks.js';
import { minus, percent, plural, shortNumber } from '../report/format-numbers.js';
import { betterArrow, differenceConvention, points, powerSentence } from '../findings/wording.js';
import type { ComparisonBody, ComparisonReport } from '../report/training-schema.js';
import type { ComparisonCell } from '../report/training-schema.js';
import { readFileFields } from './read-file-lines.js';

// The paired policy comparison as blocks for the text table and the HTML page (format-document.ts
// appends them after the audits).

const verdictTones: Record<ComparisonCell['verdict'], Tone | undefined> = {
  improves: 'good', worsens: 'bad', 'within claim': undefined, inconclusive: 'muted', 'blocks a reduction claim': 'warn',
};

/** A spread in points, unsigned. */
const spreadPoints = (x: number | null): string => (x === null ? 'n/e' : (x * 100).toFixed(2));

/** One arm's spread: its SD, or 'n/e' (not estimated) with one run. */
const sdText = (spread: ComparisonCell['runs']['base']): string => spreadPoints(spread.sd);

const runValues = (spread: ComparisonCell['runs']['base']): string => spread.values.map((v) => percent(v)).join(', ');

function intervalsText(comparison: ComparisonReport): string {
  const { bootstrap, seed } = comparison.settings;
  const runs = comparison.runs;
  if (runs.mode === 'one') return `95% question-cluster bootstrap, ${bootstrap} resamples, seed ${shortNumber(seed)}`;
  return `95% hierarchical bootstrap (runs resampled within each arm, then questions), ${bootstrap} resamples, seed ${shortNumber(seed)}`;
}

function runsText(comparison: ComparisonBody): string {
  const runs = comparison.runs;
  const arms = `base ${plural(runs.base.length, 'run')} (${runs.base.join(', ')}), treatment ${plural(runs.treatment.length, 'run')} (${runs.treatment.join(', ')})`;
  const dropped = runs.droppedQuestions > 0 ? `; ${plural(runs.droppedQuestions, 'question')} missing from some run left out` : '';
  return `${arms}${dropped}${runs.note === null ? '' : `; ${runs.note}`}`;
}

/** Per metric and benchmark, each arm's run values, SD and range: shown when some arm has several runs. */
function spreadBlocks(comparison: ComparisonBody): Block[] {
  if (comparison.runs.base.length < 2 && comparison.runs.treatment.length < 2) return [];
  return [
    heading('between-run spread (each run\'s value; SD and range in points)'),
    {
      kind: 'table',
      columns: [
        { title: 'metric', shrink: true }, { title: 'benchmark' }, { title: 'base runs' }, { title: 'SD b', align: 'right' }, { title: 'range b', align: 'right' },
        { title: 'treatment runs' }, { title: 'SD t', align: 'right' }, { title: 'range t', align: 'right' }, { title: 'Δ (t − b)', align: 'right' },
      ],
      rows: comparison.metrics.flatMap((m) => m.cells.map((c): Cell[] => [
        text(m.label.replace(/ \(.*\)$/, '')), text(c.benchmark), text(runValues(c.runs.base)), text(sdText(c.runs.base)), text(spreadPoints(c.runs.base.range)),
        text(runValues(c.runs.treatment)), text(sdText(c.runs.treatment)), text(spreadPoints(c.runs.treatment.range)), text(points(c.difference)),
      ])),
    },
  ];
}

function intervalText(c: ComparisonCell): string {
  if (c.interval.method === 'none') return 'n/a';
  const range = `[${points(c.interval.low)}, ${points(c.interval.high)}]`;
  return c.interval.method === 'exact-zero' ? `${range} (no events)` : range;
}

/** `128 q × 2`: questions times trajectories per question and arm. */
const designText = (p: NonNullable<ComparisonCell['power']>): string => `${p.questions} q × ${shortNumber(Math.round(p.perQuestion * 100) / 100)}`;

/** Every verdict that blocks a reduction claim, with the power statement that backs it. */
function powerStatements(body: ComparisonBody): Block[] {
  return body.metrics.flatMap((m) => m.cells.flatMap((c): Block[] => {
    if (c.power === null || c.verdict !== 'blocks a reduction claim') return [];
    return [paragraph([text(`${m.label}, ${c.benchmark}: blocks a reduction claim: ${powerSentence(c.power)}.`)])];
  }));
}

/** Per rate cell: what the design can detect and what the claim needs (two-sided 5%, power 80%). */
function powerBlocks(body: ComparisonBody): Block[] {
  const rows = body.metrics.filter((m) => m.rate).flatMap((m) => m.cells.flatMap((c): Cell[][] => (c.power === null ? [] : [[
    text(m.label), text(c.benchmark), text(designText(c.power)), text(`${percent(c.power.baseRate)}${c.power.rateSource === 'observed' ? '' : ' (bound)'}`),
    text(shortNumber(Math.round(c.power.designEffect * 100) / 100)), cell(c.power.detectable === null ? 'none' : spreadPoints(c.power.detectable), c.power.underpowered ? 'warn' : undefined),
    text(spreadPoints(c.power.claim)), text(c.power.questionsNeeded === null ? 'n/a' : String(c.power.questionsNeeded)),
  ]])));
  if (rows.length === 0) return [];
  return [
    heading('power: the smallest detectable reduction and the questions a claim needs (two-sided 5%, power 80%)'),
    {
      kind: 'table',
      columns: [
        { title: 'rate', shrink: true }, { title: 'benchmark' }, { title: 'design' }, { title: 'base rate', align: 'right' }, { title: 'D', align: 'right' },
        { title: 'detectable (pts)', align: 'right' }, { title: 'claim (pts)', align: 'right' }, { title: 'questions needed', align: 'right' },
      ],
      rows,
    },
    ...powerStatements(body),
    paragraph([cell('detectable: the smallest δ with δ ≥ (z.975 + z.80)·√((p₀(1−p₀) + p₁(1−p₁))·D/(k·n)), p₁ = p₀ − δ, for n questions with k trajectories per arm, base rate p₀ (no base event: its zero-event bound) and design effect D ≥ 1 from the per-question differences; none: not even a reduction to zero is detected. Questions needed: the same with δ = claim, solved for n at the same k. Run-level variance is not in it.', 'muted')]),
  ];
}

/** The paired differences, the between-run spread and the EM gate over some rows; `title` names them. */
function bodyBlocks(body: ComparisonBody, claim: number, title: string): Block[] {
  const gate = body.nonInferiority;
  return [
    heading(`paired differences${title} (treatment − base, points)`),
    paragraph([cell(`Δ and its interval are ${differenceConvention}.`, 'muted')]),
    {
      kind: 'table',
      columns: [
        { title: 'metric', shrink: true }, { title: 'benchmark' }, { title: 'base', align: 'right' }, { title: 'treatment', align: 'right' },
        { title: 'Δ (t − b)', align: 'right' }, { title: '95% CI' }, { title: 'events b/t', align: 'right' }, { title: 'verdict' },
      ],
      rows: body.metrics.flatMap((m) => m.cells.map((c): Cell[] => [
        text(`${m.label} (${betterArrow(m.better)})`), text(c.benchmark), text(percent(c.base)), text(percent(c.treatment)),
        text(points(c.difference)), text(intervalText(c)),
        text(c.baseEvents === null ? '' : `${c.baseEvents}/${c.treatmentEvents}`), cell(c.verdict, verdictTones[c.verdict]),
      ])),
    },
    ...spreadBlocks(body),
    ...powerBlocks(body),
    paragraph([text(`'blocks a reduction claim': a rare event (fewer than 10 events in the two arms, or none in one arm with a zero-event bound above the ${shortNumber(claim)}-point claim) whose interval includes no change. The data do not show a reduction, and they do not establish equal rates either; the verdict cites the smallest change the design detects (the power table).`)]),
    heading(`EM non-inferiority${title} (paired lower bound of treatment − base > ${minus}${shortNumber(gate.margin)} points on each benchmark)`),
    {
      kind: 'table',
      columns: [{ title: 'benchmark' }, { title: 'EM lower bound (t − b)', align: 'right' }, { title: 'passes' }],
      rows: gate.benchmarks.map((g): Cell[] => [text(g.benchmark), text(points(g.lower)), check(g.passed)]),
    },
    paragraph([text('gate: '), cell(gate.passed ? 'passes on every benchmark' : 'fails', gate.passed ? 'good' : 'bad')]),
  ];
}

const splitTitles = { greedy: 'greedy rows', sampled: 'sampled rows' } as const;

export function describeComparison(comparison: ComparisonReport): Block[] {
  const logs = (list: ComparisonReport['base']): string => list.map((l) => `${l.name} (${l.file}, ${plural(l.rows, 'row')})`).join(', ');
  const claim = comparison.settings.claim;
  return [
    heading(`policy comparison ${comparison.name}`, 1),
    {
      kind: 'fields',
      fields: [
        { name: 'base', value: [text(logs(comparison.base))] },
        { name: 'treatment', value: [text(logs(comparison.treatment))] },
        ...readFileFields([...comparison.base, ...comparison.treatment]),
        { name: 'pairs', value: [text(`${comparison.pairs} by (question_id, meta.sample); ${comparison.unpairedBase} base and ${comparison.unpairedTreatment} treatment rows unpaired`)] },
        { name: 'scorer', value: [text(`${comparison.scorer.name} (${comparison.scorer.visibility}): fixed for the targeted attacks in both arms`)] },
        { name: 'runs', value: [text(runsText(comparison))] },
        { name: 'intervals', value: [text(intervalsText(comparison))] },
        ...(comparison.splits === null ? [] : [{ name: 'rows', value: [text(`greedy and sampled together, then each (${comparison.splits.map((s) => `${s.split}: ${s.pairs} pairs`).join(', ')})`)] }]),
      ],
    },
    ...bodyBlocks(comparison, claim, comparison.splits === null ? '' : ', all rows'),
    ...(comparison.splits ?? []).flatMap((split) => bodyBlocks(split, claim, `, ${splitTitles[split.split]}`)),
  ];
}
