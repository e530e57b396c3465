import { margin, shortNumber } from '../report/format-numbers.js';
import type { PairDetector, PairReward, PairTerm } from '../contract/protocol.js';

// The two documents of the trajectory diff: the original row and the edited row as pretty-printed
// JSON, the edited one after a `//` comment block (JSON with comments) that works the margin out
// term by term, so the diff shows the edit and the header shows what it is worth.

/** Where the pair comes from, for the header. */
export interface PairHeading {
  readonly audit: string;
  readonly attack: string;
  readonly trajectory: string;
  readonly pool: string;
  /** The pool file as the spec links it, and the row's line in it. */
  readonly file: string;
  readonly line: number;
  readonly edit: string;
  /** The importer that made the row from the record at file:line (a pool linked `from FORMAT(…)`). */
  readonly importer?: string;
}

/** Names and ids go into `//` comments: a line break or a control character in one must not end the comment. */
const oneLine = (text: string): string => text.replace(/[\p{Cc}\u2028\u2029]/gu, ' ');

export function rowText(row: unknown): string {
  return `${JSON.stringify(row, null, 2)}\n${transcriptLines(row)}`;
}

/**
 * A logged response (`meta.transcript`) again after the row, one `//` line per line of it: JSON
 * keeps it on one line, and a line-by-line diff of the two documents then shows which of the
 * response's lines the edit took out or repeated (the edited row holds it as written back).
 */
function transcriptLines(row: unknown): string {
  const meta = typeof row === 'object' && row !== null ? (row as { meta?: unknown }).meta : undefined;
  const transcript = typeof meta === 'object' && meta !== null ? (meta as { transcript?: unknown }).transcript : undefined;
  if (typeof transcript !== 'string') return '';
  return `//\n// meta.transcript, line by line:\n${transcript.split('\n').map((line) => `// ${oneLine(line)}`.trimEnd()).join('\n')}\n`;
}

function value(x: number): string {
  return Number.isInteger(x) ? String(x) : shortNumber(x);
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('   ').trimEnd();
  return [line(header), ...rows.map(line)];
}

function termRow(t: PairTerm): string[] {
  return [`  ${oneLine(t.name)}`, shortNumber(t.weight), value(t.original), value(t.edited), margin(t.contribution)];
}

function rewardLines(r: PairReward): string[] {
  const rows = table([`${oneLine(r.reward)} (${r.role})`, 'weight', 'original', 'edited', 'w·Δ'], r.terms.map(termRow));
  // A sum within the tie tolerance of the edit's size is a tie: the audit counts it as exactly 0.
  const tie = r.margin === 0 && r.sum !== 0 ? ` (Σ w·Δ = ${margin(r.sum)} is a tie: |Σ| ≤ 10⁻¹² · Σ|w·Δ|)` : '';
  const verdict = r.margin >= 0 ? 'the edit is not worse: the attack succeeds' : 'the reward prefers the original';
  return [...rows, `  M(${oneLine(r.reward)}) = Σ w·Δ = ${margin(r.margin)}${tie}: ${verdict}`];
}

function detectorLine(detectors: readonly PairDetector[]): string {
  if (detectors.length === 0) return 'Detectors: none in this audit.';
  const parts = detectors.map((d) => `${oneLine(d.name)} ${value(d.original)} → ${value(d.edited)}${d.target ? ' (target)' : ''}`);
  const eligible = detectors.every((d) => (d.target ? d.original === 0 && d.edited === 1 : d.original === d.edited));
  return `Detectors: ${parts.join(', ')}: ${eligible ? 'isolated-eligible (every target flips 0 → 1, every other detector keeps its value)' : 'not an isolated-eligible edit, so the audit does not count it'}.`;
}

/** What an imported row is: the log's record at file:line is the framework's, the row is the importer's. */
function importedLine(heading: PairHeading, importer: string): string {
  return `The row the ${oneLine(importer)} importer made from the record at ${oneLine(heading.file)}:${heading.line} (the log has no pool row of its own), as the audit read it: ids resolved against the corpus.`;
}

/** The original document of an imported row: one `//` line that says what it is, then the row. */
export function importedRowText(heading: PairHeading, row: unknown): string {
  return `${heading.importer === undefined ? '' : `// ${importedLine(heading, heading.importer)}\n`}${rowText(row)}`;
}

/** The `//` header of the edited document: where the pair is from, what changed, and each reward's margin term by term. */
export function pairHeader(heading: PairHeading, rewards: readonly PairReward[], detectors: readonly PairDetector[]): string[] {
  return [
    `HERALD worked pair: trajectory ${oneLine(heading.trajectory)} (pool ${oneLine(heading.pool)}, ${oneLine(heading.file)}:${heading.line}), attack ${oneLine(heading.attack)} of audit ${oneLine(heading.audit)}.`,
    ...(heading.importer === undefined ? [] : [importedLine(heading, heading.importer)]),
    `Edit: ${oneLine(heading.edit)}. The diff shows it; every other field is the original's.`,
    detectorLine(detectors),
    '',
    'Paired margin M = R(edited) − R(original) = Σ over terms of weight · (value on the edit − value on the original):',
    ...rewards.flatMap((r) => ['', ...rewardLines(r)]),
  ].map((l) => (l === '' ? '//' : `// ${l}`));
}

/** The edited document: the header, then the edited row. */
export function editedText(heading: PairHeading, rewards: readonly PairReward[], detectors: readonly PairDetector[], row: unknown): string {
  return `${pairHeader(heading, rewards, detectors).join('\n')}\n${rowText(row)}`;
}
