import { cell, heading, paragraph, rateTone, text, type Block, type Cell } from './format-blocks.js';
import { margin, percent, rateWithUpper, shortLabel, shortNumber } from './format-numbers.js';
import type { AuditReport } from './schema.js';

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
    paragraph([cell(`every lattice λ multiplied by the scale: ×0 is ${audit.reward.name}, ×1 is the full lattice bundle`, 'muted')]),
  ];
  const at = (attack: string, selection: string, scale: number) => audit.sweep.find((s) => s.attack === attack && s.selection === selection && s.scale === scale);
  if (scales.length <= maxPivotScales) {
    blocks.push({
      kind: 'table',
      columns: [{ title: 'attack', shrink: true }, { title: 'selection' }, { title: 'label' }, { title: 'figure' }, ...scales.map((s) => ({ title: `×${shortNumber(s)}`, align: 'right' as const }))],
      rows: keys.flatMap((k) => [
        [text(k.attack), text(k.selection), text(shortLabel(k.label)), text('ASR'), ...scales.map((s) => {
          const e = at(k.attack, k.selection, s);
          return e === undefined ? text('') : cell(percent(e.asr), rateTone(e.asr));
        })],
        [text(''), text(''), text(''), cell('mean margin', 'muted'), ...scales.map((s) => {
          const e = at(k.attack, k.selection, s);
          return e === undefined ? text('') : cell(margin(e.meanMargin), 'muted');
        })],
      ]),
    });
  } else {
    blocks.push({
      kind: 'table',
      columns: [{ title: 'scale', align: 'right' }, { title: 'attack', shrink: true }, { title: 'selection' }, { title: 'ASR', align: 'right' }, { title: 'mean margin', align: 'right' }, { title: 'label' }],
      rows: audit.sweep.map((e) => [
        text(`×${shortNumber(e.scale)}`), text(e.attack), text(e.selection), cell(rateWithUpper(e.asr, e.upper), rateTone(e.asr), { value: e.asr, high: e.upper }),
        text(margin(e.meanMargin)), text(shortLabel(e.label)),
      ]),
    });
  }
  return blocks;
}

export function retentionBlocks(audit: AuditReport): Block[] {
  if (audit.retention.length === 0) return [];
  return [
    heading('contract-compatible retention'),
    paragraph([cell('share of contract-compatible originals (valid nonempty final, 1–5 searches, known citations all retrieved, no repeated query) that no added penalty touches', 'muted')]),
    {
      kind: 'table',
      columns: [{ title: 'reward', shrink: true }, { title: 'adds', shrink: true }, { title: 'compatible', align: 'right' }, { title: 'retained', align: 'right' }, { title: 'retention', align: 'right' }],
      rows: audit.retention.map((r) => [
        text(r.reward), text(r.penalties.join(', ') || 'nothing'), text(String(r.compatible)), text(String(r.retained)),
        cell(r.compatible === 0 ? 'n/a' : percent(r.retention), r.compatible === 0 ? 'muted' : r.retention < 1 ? 'warn' : 'good', r.compatible === 0 ? undefined : { value: r.retention }),
      ]),
    },
  ];
}

export function utilityBlocks(audit: AuditReport): Block[] {
  if (audit.utility.length === 0) return [];
  return [
    heading('offline utility of best-of-n selection'),
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
  const poolCell = (e: { asr: number; upper: number; clusters: number } | undefined): Cell =>
    e === undefined ? cell('—', 'muted') : cell(`${rateWithUpper(e.asr, e.upper, e.clusters)} · n=${e.clusters}`, rateTone(e.asr, e.clusters), e.clusters === 0 ? undefined : { value: e.asr, high: e.upper });
  const aggregateCell = (k: { attack: string; reward: string; selection: string }): Cell => {
    const a = audit.aggregate.find((x) => keyOf(x) === keyOf(k));
    if (a === undefined) return cell('—', 'muted');
    if (a.clusters === 0) return cell('n/a', 'muted');
    return cell(`${rateWithUpper(a.asr, a.upper ?? a.asr, a.clusters)} · n=${a.clusters}`, rateTone(a.asr, a.clusters), { value: a.asr, high: a.upper ?? a.asr });
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
  return blocks;
}
