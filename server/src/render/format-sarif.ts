import { createHash } from 'node:crypto';
import * as posix from 'node:path/posix';
import { specRelative } from '../inputs/paths.js';
import { issueCodeDocs, type IssueCode } from '../problems/issue-codes.js';
import type { LineIndex } from '../problems/line-index.js';
import type { Problem, RowLocation, Severity } from '../problems/problem.js';
import { escapeControls } from '../report/escape-text.js';
import type { Report } from '../report/schema.js';

// The findings of a spec's analyses as SARIF 2.1.0, for code-scanning uploads and SARIF viewers:
// one result per finding of the findings stage, whose issue code is the rule id. Spans become
// one-based lines and columns counted in UTF-16 code units (the run says so in `columnKind`); the
// data rows a finding is about (skipped rows, worked pairs) are related locations in their files.

type Level = 'error' | 'warning' | 'note';

const levels: Record<Severity, Level> = { error: 'error', warning: 'warning', information: 'note', hint: 'note' };

type SpecRange = ReturnType<LineIndex['range']>;


const schemePattern = /^[a-z][a-z0-9+.-]+:/i;
const drivePattern = /^[a-z]:[\\/]/i;

function encodePath(path: string): string {
  return path.split('/').map((segment) => encodeURIComponent(segment)).join('/');
}

function pathToUri(path: string): string {
  const slashed = path.replace(/\\/g, '/');
  if (drivePattern.test(path)) return `file:///${slashed.slice(0, 2)}${encodePath(slashed.slice(2))}`;
  if (slashed.startsWith('/')) return `file://${encodePath(slashed)}`;
  return encodePath(slashed);
}

/** A URI as given, or a path (relative with `/`, or absolute) made into a URI reference. */
export function artifactUri(uriOrPath: string): string {
  return schemePattern.test(uriOrPath) ? uriOrPath : pathToUri(uriOrPath);
}

/** A data file named in the spec: relative paths are resolved beside the spec. */
export function fileBesideSpec(specUri: string, file: string): string {
  if (schemePattern.test(file) || drivePattern.test(file) || file.replace(/\\/g, '/').startsWith('/')) return artifactUri(file);
  const spec = artifactUri(specUri);
  const relative = encodePath(file.replace(/\\/g, '/'));
  if (schemePattern.test(spec)) return new URL(relative, spec).href;
  return posix.normalize(posix.join(posix.dirname(spec), relative));
}

/** Zero-based LSP positions → SARIF's one-based region; the end column is one past the last character. */
export function sarifRegion(range: SpecRange): { startLine: number; startColumn: number; endLine: number; endColumn: number } {
  return {
    startLine: range.start.line + 1,
    startColumn: range.start.character + 1,
    endLine: range.end.line + 1,
    endColumn: range.end.character + 1,
  };
}

/**
 * A message as SARIF viewers show it: control and bidi characters from the data made visible, and
 * brackets escaped, since SARIF reads `[text](id)` in a message as a link.
 */
function messageText(text: string): string {
  return escapeControls(text).replace(/[[\]\\]/g, (c) => `\\${c}`);
}

function fingerprint(code: IssueCode, key: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify([code, ...key])).digest('hex').slice(0, 32);
}

/** A rule per issue code the findings carry, described by the code's one-line doc (docs/diagnostics.md explains each). */
function rules(codes: readonly IssueCode[]): object[] {
  return codes.map((id) => ({
    id,
    shortDescription: { text: issueCodeDocs[id] },
    help: { text: issueCodeDocs[id] },
  }));
}

export interface SarifInput {
  /** The findings stage's problems for the spec (`specFindings`). */
  readonly findings: readonly Problem[];
  /** Positions of the spec's text. */
  readonly lines: LineIndex;
  /** The spec's URI, or its path relative to the repository root. */
  readonly specUri: string;
  /** The spec's folder on disk: data rows are named relative to it, beside the spec's URI. */
  readonly specDir: string;
  /** The report the findings came from (tool version, audit names); absent when the audits could not run. */
  readonly report: Report | undefined;
  readonly toolVersion: string;
}

function rowLocation(input: SarifInput, row: RowLocation, id: number): object {
  const uri = fileBesideSpec(input.specUri, specRelative(input.specDir, row.file));
  return { id, physicalLocation: { artifactLocation: { uri }, ...(row.line >= 1 ? { region: { startLine: row.line } } : {}) }, message: { text: escapeControls(row.message) } };
}

/** The findings as SARIF 2.1.0 JSON text. */
export function formatSarif(input: SarifInput): string {
  const spec = artifactUri(input.specUri);
  const codes = [...new Set(input.findings.map((f) => f.code))];
  const ruleIndex = new Map(codes.map((code, i) => [code, i]));
  const results = input.findings.map((f) => ({
    ruleId: f.code,
    ruleIndex: ruleIndex.get(f.code)!,
    level: levels[f.severity],
    message: { text: messageText(f.message) },
    locations: [{ physicalLocation: { artifactLocation: { uri: spec }, region: sarifRegion(input.lines.range(f.span)) } }],
    ...(f.rows === undefined || f.rows.length === 0 ? {} : { relatedLocations: f.rows.map((row, i) => rowLocation(input, row, i + 1)) }),
    partialFingerprints: { 'heraldFinding/v1': fingerprint(f.code, f.key ?? [f.message]) },
    ...(f.data === undefined ? {} : { properties: f.data }),
  }));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'herald', version: input.toolVersion, semanticVersion: input.toolVersion, rules: rules(codes) } },
      columnKind: 'utf16CodeUnits',
      properties: { spec: input.report?.spec ?? posix.basename(spec), reportVersion: input.report?.version ?? null, audits: input.report?.audits.map((a) => a.name) ?? [] },
      results,
    }],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
