import { cell, heading, paragraph, rateBar, text, type Block, type Cell } from './format-blocks.js';
import { rateCell, smallSampleFootnote } from './small-sample-cells.js';
import { margin, notAvailable, percent, rateWithBound, rateWithUpper, shortLabel, shortNumber } from '../report/format-numbers.js';
import type { AuditReport } from '../report/schema.js';

// The side statistics of an audit summary: penalty-scale sweep, retention, offline utility, and
// the per-pool and question-weighted figures.

// Past these counts a pivot table would not fit a 120-column terminal: switch to one row per entry.
const maxPivotScales = 6;
const maxPivotPools = 3;

export function sweepBlocks(audit: AuditReport): Block[] {
  if (audit.sweep.length === 0) return [];
  const scales = [...new Set(audit.sweep.map((s) => s.scale))];
  const keys = [...new Map(audit.sweep.map((s) => [`${s.attack}\u0000${s.selection}`, s] as const)).values()];
  const blocks: Block[] = [
    heading('penalty-scale sweep'),
    paragraph([cell(`every lattice λ multiplied by the scale: ×0 is ${audit.reward.name}, ×1 is the full lattice bundle; n = isolated-eligible clusters`, 'muted')]),
  ];
  const at = (attack: string, selection: string, scale: number) => audit.sweep.find((s) => s.attack === attack && s.selection === selection && s.scale === scale);
  if (scales.length <= maxPivotScales) {
    blocks.push({
      kind: 'table',
      columns: [
        { title: 'attack', shrink: true }, { title: 'selection' }, { title: 'label' }, { title: 'n', align: 'right' }, { title: 'figure' },
        ...scales.map((s) => ({ title: `×${shortNumber(s)}`, align: 'right' as const })),
      ],
      rows: keys.flatMap((k) => [
        [text(k.attack), text(k.selection), text(shortLabel(k.label)), text(String(k.clusters)), text('ASR'), ...scales.map((s) => {
          const e = at(k.attack, k.selection, s);
          return e === undefined ? text('') : rateCell(percent(e.asr), e.asr, e.clusters);
        })],
        [text(''), text(''), text(''), text(''), cell('mean margin', 'muted'), ...scales.map((s) => {
          const e = at(k.attack, k.selection, s);
          return e === undefined ? text('') : cell(margin(e.meanMargin), 'muted');
        })],
      ]),
    });
  } else {
    blocks.push({
      kind: 'table',
      columns: [
        { title: 'scale', align: 'right' }, { title: 'attack', shrink: true }, { title: 'selection' }, { title: 'ASR', align: 'right' },
        { title: 'mean margin', align: 'right' }, { title: 'n', align: 'right' }, { title: 'label' },
      ],
      rows: audit.sweep.map((e) => [
        text(`×${shortNumber(e.scale)}`), text(e.attack), text(e.selection), rateCell(rateWithUpper(e.asr, e.upper), e.asr, e.clusters, rateBar(e.asr, undefined, e.upper)),
        text(margin(e.meanMargin)), text(String(e.clusters)), text(shortLabel(e.label)),
      ]),
    });
  }
  return [...blocks, ...smallSampleFootnote(audit.sweep.map((e) => e.clusters))];
}

/** `68.42% [64.1, 72.0]` over clusters; `100.00% (≥ 99.50%)` when nothing compatible was penalised, `0.00% (≤ 0.50%)` when all were. */
function retentionText(r: AuditReport['retention'][number]): string {
  if (r.retention === null) return notAvailable;
  if (r.interval.method === 'exact-zero' && r.retention === 1 && r.interval.low !== null) return `${percent(r.retention)} (≥ ${percent(r.interval.low)})`;
  return rateWithBound({ asr: r.retention, clusters: r.clusters, interval: r.interval });
}

export function retentionBlocks(audit: AuditReport): Block[] {
  if (audit.retention.length === 0) return [];
  const { contract } = audit.settings;
  const undefinedOnes = audit.retention.filter((r) => r.reason !== null);
  return [
    heading('contract-compatible retention'),
    paragraph([cell(
      `share of contract-compatible originals (valid nonempty final, ${contract.minSearches}–${contract.maxSearches} searches, nonempty citations all ` +
      `in the corpus and retrieved, no two queries with token Jaccard ≥ ${shortNumber(contract.repeatedQueryJaccard)}) on which no penalty the reward ` +
      `adds to ${audit.reward.name} is active: the mean over question clusters of the within-cluster share, with a 95% cluster bootstrap`, 'muted')]),
    {
      kind: 'table',
      columns: [
        { title: 'reward', shrink: true }, { title: 'adds', shrink: true }, { title: 'compatible', align: 'right' }, { title: 'retained', align: 'right' },
        { title: 'clusters', align: 'right' }, { title: 'retention (95%)', align: 'right' },
      ],
      rows: audit.retention.map((r) => [
        text(r.reward), text(r.defined ? r.penalties.join(', ') : notAvailable), text(String(r.compatible)), text(r.retained === null ? notAvailable : String(r.retained)),
        text(String(r.clusters)),
        cell(retentionText(r), r.retention === null ? 'muted' : r.retention < 1 ? 'warn' : 'good', rateBar(r.retention, r.interval.low, r.interval.high)),
      ]),
    },
    ...undefinedOnes.map((r) => paragraph([cell(`${r.reward}: retention not defined: ${r.reason}`, 'muted')])),
  ];
}

export function utilityBlocks(audit: AuditReport): Block[] {
  const groups = 'a group is the rows of one pool that share a question id, when there are at least two; each selector picks one row per group, a reward the first of its highest-scoring rows';
  if (audit.utility.length === 0) {
    return [heading('offline utility of best-of-n selection'), paragraph([cell(`not computed: no pool has two rows with the same question id. ${groups[0]!.toUpperCase()}${groups.slice(1)}.`, 'muted')])];
  }
  return [
    heading('offline utility of best-of-n selection'),
    paragraph([cell(groups, 'muted')]),
    {
      kind: 'table',
      columns: [
        { title: 'selector', shrink: true }, { title: 'label' }, { title: 'groups', align: 'right' }, { title: 'exact match', align: 'right' },
        { title: 'citation precision', align: 'right' }, { title: 'support recall', align: 'right' }, { title: 'valid final', align: 'right' },
        { title: 'searches', align: 'right' },
      ],
      rows: audit.utility.map((u) => [
        text(u.selector), cell(shortLabel(u.label), u.label === 'oracle upper bound' ? 'muted' : undefined), text(String(u.groups)), text(percent(u.exactMatch)),
        text(percent(u.citationPrecision)), text(percent(u.supportRecall)), text(percent(u.validFinal)), text(u.searchCalls.toFixed(2)),
      ]),
    },
  ];
}

export function perPoolBlocks(audit: AuditReport): Block[] {
  if (audit.perPool.length === 0 && audit.aggregate.length === 0) return [];
  const pools = [...new Set(audit.perPool.map((p) => p.pool))];
  const blocks: Block[] = [
    heading('per pool and question-weighted aggregate'),
    paragraph([cell('aggregate ASR = Σ successes / Σ clusters over pools', 'muted')]),
  ];
  const keyOf = (e: { attack: string; reward: string; selection: string }): string => `${e.attack}\u0000${e.reward}\u0000${e.selection}`;
  const keys = [...new Map([...audit.perPool, ...audit.aggregate].map((e) => [keyOf(e), e] as const)).values()];
  const poolCell = (e: { asr: number | null; upper: number | null; clusters: number } | undefined): Cell =>
    e === undefined ? cell('—', 'muted') : rateCell(`${rateWithUpper(e.asr, e.upper)} · n=${e.clusters}`, e.asr, e.clusters, rateBar(e.asr, undefined, e.upper));
  const aggregateCell = (k: { attack: string; reward: string; selection: string }): Cell => {
    const a = audit.aggregate.find((x) => keyOf(x) === keyOf(k));
    return a === undefined ? cell('—', 'muted') : poolCell(a);
  };
  if (pools.length <= maxPivotPools) {
    blocks.push({
      kind: 'table',
      columns: [
        { title: 'attack', shrink: true }, { title: 'reward', shrink: true }, { title: 'selection' }, { title: 'label' },
        ...pools.map((p) => ({ title: p, align: 'right' as const, shrink: true })), { title: 'aggregate', align: 'right' },
      ],
      rows: keys.map((k) => [
        text(k.attack), text(k.reward), text(k.selection), text(shortLabel(k.label)),
        ...pools.map((p) => poolCell(audit.perPool.find((e) => e.pool === p && keyOf(e) === keyOf(k)))), aggregateCell(k),
      ]),
    });
  } else {
    blocks.push({
      kind: 'table',
      columns: [{ title: 'attack', shrink: true }, { title: 'reward', shrink: true }, { title: 'selection' }, { title: 'label' }, { title: 'pool', shrink: true }, { title: 'ASR', align: 'right' }],
      rows: keys.flatMap((k) => [
        ...audit.perPool.filter((e) => keyOf(e) === keyOf(k)).map((e) => [
          text(k.attack), text(k.reward), text(k.selection), text(shortLabel(k.label)), text(e.pool), poolCell(e),
        ]),
        [text(k.attack), text(k.reward), text(k.selection), text(shortLabel(k.label)), cell('aggregate', 'accent'), aggregateCell(k)],
      ]),
    });
  }
  return [...blocks, ...smallSampleFootnote([...audit.perPool, ...audit.aggregate].map((e) => e.clusters))];
}
