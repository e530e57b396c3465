import { percent } from '../../report/format-numbers.js';
import type { AuditReport, LatticeReport } from '../../report/schema.js';
import { asrClass } from './asr-scale.js';
import { h, type Html } from './html.js';
import { setLabel, subsetReward } from './lattice-figures.js';

// The detector lattice as a Hasse diagram: one node per subset S, in rows by |S| (∅, the audited
// reward, on top), an edge from S to S ∪ {d}. Laid out here as plain numbers, drawn as SVG on the
// server so the picture needs no script; the browser view only adds the click-for-details panel.

type Subset = LatticeReport['subsets'][number];

export interface HasseNode {
  /** Index into `lattice.subsets`. */
  readonly subset: number;
  readonly detectors: readonly string[];
  readonly row: number;
  readonly x: number;
  readonly y: number;
  /** The worst oracle-worst ASR across attacks; undefined when no attack had an eligible edit. */
  readonly worst: number | undefined;
  readonly sufficient: boolean;
  readonly minimal: boolean;
}

export interface HasseEdge {
  readonly from: number;
  readonly to: number;
  readonly added: string;
  /** The edge lies on a path from ∅ to a minimal repair. */
  readonly towardRepair: boolean;
}

export interface HasseLayout {
  readonly width: number;
  readonly height: number;
  readonly nodeWidth: number;
  readonly nodeHeight: number;
  /** Past ~12 nodes in a row the nodes are dots with tooltips, not labelled boxes. */
  readonly compact: boolean;
  readonly rows: readonly { readonly size: number; readonly y: number }[];
  readonly nodes: readonly HasseNode[];
  readonly edges: readonly HasseEdge[];
}

/** More detectors than this is 8,192+ nodes: the page lists the lattice in its tables instead. */
export const maxDrawnDetectors = 12;
const maxLabelledRow = 12;
const rowLabelWidth = 92;

/** The largest oracle-worst ASR of a subset over every attack with an isolated-eligible edit. */
function worstOracleAsr(subset: Subset): number | undefined {
  const rates = subset.results.flatMap((r) => (r.selection === 'oracle_worst' && r.asr !== null ? [r.asr] : []));
  return rates.length === 0 ? undefined : rates.reduce((m, r) => Math.max(m, r), -Infinity);
}

const average = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

export function hasseLayout(lattice: LatticeReport): HasseLayout | undefined {
  const k = lattice.detectors.length;
  if (k === 0 || k > maxDrawnDetectors) return undefined;
  const position = new Map(lattice.detectors.map((d, i) => [d.name, i]));
  // A subset's key is the bit mask of its detectors in lattice order; the report need not list
  // subsets in mask order, so nothing here assumes it does.
  const maskOf = (detectors: readonly string[]): number => detectors.reduce((m, d) => m | (1 << (position.get(d) ?? 0)), 0);
  const byMask = new Map<number, number>();
  lattice.subsets.forEach((s, i) => {
    if (s.detectors.every((d) => position.has(d))) byMask.set(maskOf(s.detectors), i);
  });
  const minimalMasks = lattice.subsets.filter((s) => s.minimal).map((s) => maskOf(s.detectors));

  // Rows by size; within a row, lexicographic by detector position, then one barycentre pass down
  // the rows (each node under the mean position of its parents) to keep edges short. Deterministic.
  const rowsOfMasks: number[][] = Array.from({ length: k + 1 }, () => []);
  for (const mask of byMask.keys()) rowsOfMasks[popcount(mask)]!.push(mask);
  const lexKey = (mask: number): string => lattice.detectors.map((_, j) => ((mask & (1 << j)) !== 0 ? '0' : '1')).join('');
  for (const row of rowsOfMasks) row.sort((a, b) => (lexKey(a) < lexKey(b) ? -1 : lexKey(a) > lexKey(b) ? 1 : 0));
  // Rows are centred, so a node's x is its offset from the middle of its row.
  const offset = new Map<number, number>();
  const place = (row: readonly number[]): void => row.forEach((m, i) => offset.set(m, i - (row.length - 1) / 2));
  place(rowsOfMasks[0]!);
  for (let r = 1; r <= k; r++) {
    const row = rowsOfMasks[r]!;
    const lex = new Map(row.map((m, i) => [m, i]));
    const centre = new Map(row.map((m, i) => {
      const parents = lattice.detectors.map((_, j) => m & ~(1 << j)).filter((p) => p !== m && offset.has(p));
      return [m, parents.length === 0 ? i - (row.length - 1) / 2 : average(parents.map((p) => offset.get(p)!))];
    }));
    row.sort((a, b) => centre.get(a)! - centre.get(b)! || lex.get(a)! - lex.get(b)!);
    place(row);
  }

  const widest = rowsOfMasks.reduce((w, r) => Math.max(w, r.length), 0);
  const compact = widest > maxLabelledRow;
  const longest = lattice.subsets.reduce((w, s) => Math.max(w, setLabel(s.detectors).length), -Infinity);
  const nodeWidth = compact ? 14 : Math.min(200, Math.max(84, Math.round(longest * 7.4 + 26)));
  const nodeHeight = compact ? 14 : 46;
  const gapX = compact ? 6 : 22;
  const rowStep = nodeHeight + (compact ? 40 : 58);
  const top = 18;
  const contentWidth = widest * (nodeWidth + gapX) - gapX;
  const width = rowLabelWidth + contentWidth + 16;
  const height = top + k * rowStep + nodeHeight + (compact ? 16 : 30);

  const nodes: HasseNode[] = [];
  const nodeOfMask = new Map<number, number>();
  rowsOfMasks.forEach((row, r) => {
    const rowWidth = row.length * (nodeWidth + gapX) - gapX;
    const left = rowLabelWidth + (contentWidth - rowWidth) / 2;
    row.forEach((mask, i) => {
      const subset = byMask.get(mask)!;
      const s = lattice.subsets[subset]!;
      nodeOfMask.set(mask, nodes.length);
      nodes.push({
        subset, detectors: s.detectors, row: r,
        x: left + i * (nodeWidth + gapX) + nodeWidth / 2, y: top + r * rowStep + nodeHeight / 2,
        worst: worstOracleAsr(s), sufficient: s.sufficient, minimal: s.minimal,
      });
    });
  });

  const edges: HasseEdge[] = [];
  for (const [mask, from] of nodeOfMask) {
    lattice.detectors.forEach((d, j) => {
      if ((mask & (1 << j)) !== 0) return;
      const to = nodeOfMask.get(mask | (1 << j));
      if (to === undefined) return;
      const target = mask | (1 << j);
      edges.push({ from, to, added: d.name, towardRepair: minimalMasks.some((m) => (target & m) === target) });
    });
  }
  edges.sort((a, b) => a.from - b.from || a.to - b.to);
  return {
    width, height, nodeWidth, nodeHeight, compact, nodes, edges,
    rows: rowsOfMasks.map((_, r) => ({ size: r, y: top + r * rowStep + nodeHeight / 2 })),
  };
}

function popcount(mask: number): number {
  let n = 0;
  for (let m = mask; m !== 0; m &= m - 1) n++;
  return n;
}

function nodeTitle(audit: AuditReport, node: HasseNode): string {
  const subset = audit.lattice.subsets[node.subset]!;
  const perAttack = subset.results
    .filter((r) => r.selection === 'oracle_worst')
    .map((r) => `${r.attack} ${r.clusters === 0 ? 'n/a' : percent(r.asr)}`)
    .join(', ');
  const state = node.minimal ? 'sufficient; minimal repair' : node.sufficient ? 'sufficient' : 'not sufficient';
  return `${setLabel(node.detectors)}: ${subsetReward(audit, node.detectors)}. Oracle-worst ASR: ${perAttack || 'no attack'}. ${state}.`;
}

function rowTitle(size: number, detectors: number): string {
  if (size === 0) return 'no penalty';
  if (size === detectors) return size === 1 ? '1 detector' : `all ${size}`;
  return size === 1 ? '1 detector' : `${size} detectors`;
}

/** The diagram as inline SVG; presentation lives in classes (the page's stylesheet), not style attributes. */
export function hasseSvg(audit: AuditReport, layout: HasseLayout): Html {
  const { nodeWidth: w, nodeHeight: hgt, compact } = layout;
  const minimal = audit.lattice.minimal.map(setLabel).join(', ');
  const label = `Detector lattice of audit ${audit.name}: ${layout.nodes.length} subsets; ${minimal === '' ? 'no subset is sufficient' : `minimal repair ${minimal}`}.`;
  const k = audit.lattice.detectors.length;

  const rowLabels = layout.rows.map((r) => h('text', { class: 'row-label', x: 4, y: r.y, 'dominant-baseline': 'middle' }, rowTitle(r.size, k)));
  const edges = layout.edges.map((e) => {
    const a = layout.nodes[e.from]!;
    const b = layout.nodes[e.to]!;
    return h('line', {
      class: e.towardRepair ? 'edge toward-repair' : 'edge',
      x1: round(a.x), y1: round(a.y + hgt / 2), x2: round(b.x), y2: round(b.y - hgt / 2),
      'data-from': a.subset, 'data-to': b.subset,
    }, h('title', {}, `${setLabel(a.detectors)} + ${e.added} → ${setLabel(b.detectors)}`));
  });
  const nodes = layout.nodes.map((n) => {
    const classes = ['node', asrClass(n.worst), n.sufficient ? 'sufficient' : '', n.minimal ? 'minimal' : ''].filter((c) => c !== '').join(' ');
    const title = nodeTitle(audit, n);
    const asrText = n.worst === undefined ? 'n/a' : percent(n.worst);
    const body = compact
      ? [
        n.minimal ? h('circle', { class: 'ring', r: w / 2 + 4 }) : null,
        h('circle', { class: 'box', r: w / 2 }),
      ]
      : [
        n.minimal ? h('rect', { class: 'ring', x: -w / 2 - 5, y: -hgt / 2 - 5, width: w + 10, height: hgt + 10, rx: 10 }) : null,
        h('rect', { class: 'box', x: -w / 2, y: -hgt / 2, width: w, height: hgt, rx: 6 }),
        h('text', { class: 'set', y: -6, 'text-anchor': 'middle' }, setLabel(n.detectors)),
        h('text', { class: 'asr', y: 12, 'text-anchor': 'middle' }, asrText),
        n.sufficient ? h('text', { class: 'check', x: w / 2 - 9, y: -hgt / 2 + 13, 'text-anchor': 'middle' }, '✓') : null,
        n.minimal ? h('text', { class: 'repair-tag', y: hgt / 2 + 19, 'text-anchor': 'middle' }, 'minimal repair') : null,
      ];
    return h('g', {
      class: classes, transform: `translate(${round(n.x)} ${round(n.y)})`, tabindex: 0, role: 'button',
      'aria-label': title, 'data-subset': n.subset, 'data-detectors': n.detectors.join(','),
    }, h('title', {}, title), body);
  });
  return h('svg', {
    class: compact ? 'hasse compact' : 'hasse', role: 'group', 'aria-label': label,
    viewBox: `0 0 ${round(layout.width)} ${round(layout.height)}`, width: round(layout.width), height: round(layout.height),
  }, h('g', { class: 'rows' }, rowLabels), h('g', { class: 'edges' }, edges), h('g', { class: 'nodes' }, nodes));
}

const round = (x: number): number => Math.round(x * 10) / 10;
