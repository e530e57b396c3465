import { margin, rateWithBound, rateWithUpper, shortLabel, strictWithBound } from '../report/format-numbers.js';
import type { AggregateEntry, AuditReport, PerPoolEntry, RateEstimateReport } from '../report/schema.js';
import type { RobustnessEntry } from '../report/selection-schema.js';

// The paper's table shapes as plain rows of text, built once from the report: the terminal table,
// the HTML page, CSV and Markdown all print these, so the four cannot disagree.

export interface PaperTable {
  /** Which table: `table2` (attacks × rewards), `table3` (generators), `robustness` (pool selection × attack × reward), `crossModel` (pool × attack × reward) or `table4` (a comparison: metric × benchmark). */
  readonly id: 'table2' | 'table3' | 'robustness' | 'crossModel' | 'table4';
  readonly audit: string;
  readonly title: string;
  /** What the figures are over, said once under the title (the common n, the labels). */
  readonly note: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

type Result = { readonly reward: string; readonly selection: string; readonly label: 'label-free' | 'oracle upper bound'; readonly estimate: RateEstimateReport };

/** n, first-visible and oracle-worst side by side, each with its exact bound at zero and its mean margin. */
function sideBySide(results: readonly Result[], reward: string): string[] {
  const of = (selection: string): Result | undefined => results.find((r) => r.reward === reward && r.selection === selection);
  const first = of('first_visible');
  const worst = of('oracle_worst');
  const cells = (r: Result | undefined): string[] => (r === undefined ? ['—', '—', '—'] : [rateWithBound(r.estimate), margin(r.estimate.meanMargin), shortLabel(r.label)]);
  // The oracle-worst strict rate (margin > 0) beside the paper's, where a tie counts.
  const strict = worst === undefined ? '—' : strictWithBound(worst.estimate);
  return [String(first?.estimate.clusters ?? worst?.estimate.clusters ?? 0), ...cells(first), ...cells(worst), strict];
}

const figureColumns = ['n', 'first-visible', 'fv mean margin', 'fv label', 'oracle-worst', 'ow mean margin', 'ow label', 'ow strict'];

/** The columns a terminal table leaves out to fit 120 columns (CSV and Markdown keep them). */
export const wideColumns: ReadonlySet<string> = new Set(['fv mean margin', 'fv label', 'ow label', 'ow strict']);

function clusterNote(audit: AuditReport): string {
  return audit.clusterSet === undefined
    ? "n = each attack's own isolated-eligible question clusters"
    : `n = ${audit.clusterSet.clusters} question clusters isolated-eligible for every attack (clusters common)`;
}

/** Columns of figures, right-aligned in every rendering. */
export function isNumericColumn(title: string): boolean {
  return title === 'n' || title === 'first-visible' || title === 'oracle-worst' || title === 'ow strict' || title.endsWith('margin');
}

/** The paper's Table 2: every attack under every scored reward. */
export function table2(audit: AuditReport): PaperTable {
  const rewards = [audit.reward.name, ...audit.compared.map((r) => r.name)];
  const selection = audit.poolSelection === undefined ? '' : `; pool selection ${audit.poolSelection.selection} (${audit.poolSelection.rows} rows)`;
  return {
    id: 'table2', audit: audit.name, title: `audit ${audit.name}: attacks × rewards`,
    note: `${clusterNote(audit)}${selection}; first-visible and oracle-worst are ASRs (the mean over question clusters; a tie counts as a success), ow strict the oracle-worst rate of margins > 0; (≤ x) is the exact one-sided 95% bound at zero successes`,
    columns: ['attack', 'reward', ...figureColumns],
    rows: audit.attacks.flatMap((attack) => rewards.map((reward) => [attack.name, reward, ...sideBySide(attack.results, reward)])),
  };
}

/**
 * The paper's Table 3: one row per laundering attack (its generators and budget K) × reward, for an
 * audit that runs more than one; undefined otherwise.
 */
export function table3(audit: AuditReport): PaperTable | undefined {
  const launders = audit.attacks.filter((a) => a.generators.length > 0);
  if (launders.length < 2) return undefined;
  const rewards = [audit.reward.name, ...audit.compared.map((r) => r.name)];
  return {
    id: 'table3', audit: audit.name, title: `audit ${audit.name}: laundering by candidate generator`,
    note: `${clusterNote(audit)}; candidate generation reads visible fields only; oracle-worst maximises the reward within the same candidates`,
    columns: ['attack', 'generators', 'reward', ...figureColumns],
    rows: launders.flatMap((attack) => rewards.map((reward) => [attack.name, attack.generators.join(', '), reward, ...sideBySide(attack.results, reward)])),
  };
}

/** The pool-selection robustness table, or undefined when the audit asked for none. */
export function robustnessTable(audit: AuditReport): PaperTable | undefined {
  if (audit.robustness === undefined) return undefined;
  const rewards = [audit.reward.name, ...audit.compared.map((r) => r.name)];
  const attacks = audit.attacks.map((a) => a.name);
  const rowsOf = (entry: RobustnessEntry): string[][] => attacks.flatMap((attack) => rewards.map((reward) => [
    entry.selection, entry.visibility === 'oracle' ? 'oracle' : 'visible', `${entry.rows}/${entry.groups}`,
    attack, reward, ...sideBySide(entry.results.filter((r) => r.attack === attack), reward),
  ]));
  const common = audit.clusterSet === undefined ? "n = each attack's own isolated-eligible clusters" : 'n = the clusters isolated-eligible for every attack under that selection (clusters common)';
  return {
    id: 'robustness', audit: audit.name, title: `audit ${audit.name}: pool-selection robustness`,
    note: `${common}; rows = rows selected / sample groups; first-visible and oracle-worst are ASRs, ow mean margin the oracle-worst mean paired margin; an oracle selection makes every figure of its rows an oracle upper bound`,
    columns: ['selection', 'reads', 'rows', 'attack', 'reward', ...figureColumns],
    rows: audit.robustness.flatMap(rowsOf),
  };
}

/**
 * The paper's cross-model table: every attack × reward on each pool (one model's logs each) and the
 * question-weighted aggregate (Σ successes / Σ clusters), first-visible and oracle-worst side by
 * side; undefined for an audit of one pool.
 */
export function crossModelTable(audit: AuditReport): PaperTable | undefined {
  const pools = [...new Set(audit.perPool.map((p) => p.pool))];
  if (pools.length < 2) return undefined;
  const rewards = [audit.reward.name, ...audit.compared.map((r) => r.name)];
  const cells = (entries: readonly (PerPoolEntry | AggregateEntry)[]): string[] => {
    const of = (selection: string): PerPoolEntry | AggregateEntry | undefined => entries.find((e) => e.selection === selection);
    const first = of('first_visible');
    const worst = of('oracle_worst');
    const rate = (e: PerPoolEntry | AggregateEntry | undefined): string[] => (e === undefined ? ['—', '—'] : [rateWithUpper(e.asr, e.upper), shortLabel(e.label)]);
    return [String(first?.clusters ?? worst?.clusters ?? 0), ...rate(first), ...rate(worst)];
  };
  const rows = audit.attacks.flatMap((attack) => rewards.flatMap((reward) => {
    const mine = (e: PerPoolEntry | AggregateEntry): boolean => e.attack === attack.name && e.reward === reward;
    return [
      ...pools.map((pool) => [pool, attack.name, reward, ...cells(audit.perPool.filter((e) => e.pool === pool && mine(e)))]),
      ['aggregate', attack.name, reward, ...cells(audit.aggregate.filter(mine))],
    ];
  }));
  return {
    id: 'crossModel', audit: audit.name, title: `audit ${audit.name}: across pools (models)`,
    note: "each pool's own question clusters; aggregate = Σ successes / Σ clusters over the pools (question-weighted); (≤ x) is the exact one-sided 95% bound at zero successes",
    columns: ['pool', 'attack', 'reward', 'n', 'first-visible', 'fv label', 'oracle-worst', 'ow label'],
    rows,
  };
}

/** The paper's tables of an audit, in order. */
export function paperTables(audit: AuditReport): PaperTable[] {
  return [table2(audit), table3(audit), robustnessTable(audit), crossModelTable(audit)].filter((t) => t !== undefined);
}

/**
 * RFC 4180 CSV: a field with a comma, quote or line break is quoted, quotes doubled. Minus signs are
 * ASCII, so a spreadsheet reads the margins as numbers.
 */
export function tableCsv(table: PaperTable): string {
  const field = (raw: string): string => {
    const s = raw.replaceAll('\u2212', '-');
    return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return [table.columns, ...table.rows].map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}

/** A GitHub-flavoured Markdown table under its title, with the note in italics. */
export function tableMarkdown(table: PaperTable): string {
  const cellText = (s: string): string => s.replaceAll('\\', '\\\\').replaceAll('|', '\\|').replace(/[\r\n]+/g, ' ');
  const line = (row: readonly string[]): string => `| ${row.map(cellText).join(' | ')} |`;
  const numeric = (c: string): boolean => isNumericColumn(c);
  return [
    `**${cellText(table.title)}**`, '', `*${cellText(table.note)}*`, '',
    line(table.columns), `|${table.columns.map((c) => (numeric(c) ? ' ---: ' : ' --- ')).join('|')}|`,
    ...table.rows.map(line), '',
  ].join('\n');
}

export const paperTableFormats = ['text', 'csv', 'markdown'] as const;
export type PaperTableFormat = (typeof paperTableFormats)[number];
