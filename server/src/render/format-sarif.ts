import { createHash } from 'node:crypto';
import * as posix from 'node:path/posix';
import { cancellationSentence, certificateSentence, editText, marginChain } from './format-document.js';
import { detectorSet, margin, plural, rateWithBound, shortNumber } from '../report/format-numbers.js';
import type { AuditReport, Expectation, Report, WorkedPair } from '../report/schema.js';

// The audit's findings as SARIF 2.1.0, for code-scanning uploads and SARIF viewers. Every result
// sits at a spec range the report carries; ranges there are zero-based LSP positions, SARIF's are
// one-based lines and columns counted in UTF-16 code units (the run says so in `columnKind`).


type Level = 'error' | 'warning' | 'note';
type SpecRange = Expectation['range'];

interface Rule {
  readonly id: RuleId;
  readonly name: string;
  readonly level: Level;
  readonly short: string;
  readonly full: string;
}

export type RuleId = 'expect-failed' | 'asr-positive' | 'penalty-cancellation' | 'redundant-detector' | 'certificate-fails' | 'bad-rows';

export const sarifRules: readonly Rule[] = [
  {
    id: 'expect-failed', name: 'ExpectFailed', level: 'error',
    short: 'An expect line does not hold.',
    full: "The audit's figure contradicts an `expect` line of the spec; `herald audit` exits with status 1.",
  },
  {
    id: 'asr-positive', name: 'AttackSucceeds', level: 'warning',
    short: 'An attack succeeds against the audited or a compared reward.',
    full: 'Some isolated-eligible edit keeps or raises the reward (paired margin ≥ 0) under oracle-worst selection: ' +
      'the reward pays for the edit instead of penalising it. The ASR is a mean over question clusters.',
  },
  {
    id: 'penalty-cancellation', name: 'PenaltyCancellation', level: 'warning',
    short: 'A larger penalty bundle is weaker than a smaller one.',
    full: 'M_T = M_S + C_{T∖S}: when an original already triggers a penalty of T that the edit switches off, ' +
      'adding that penalty raises the attack margin and an edit that loses under S wins under T.',
  },
  {
    id: 'redundant-detector', name: 'RedundantDetector', level: 'note',
    short: 'A lattice detector is in no observed minimal repair.',
    full: 'Some subset of the lattice is observed inclusion-minimal without this detector, so its penalty is not needed ' +
      'to stop the audited attacks (it may still be needed against attacks the audit did not run).',
  },
  {
    id: 'certificate-fails', name: 'CertificateFails', level: 'warning',
    short: 'A detector weight does not exceed the largest base gain.',
    full: "λ_d ≤ max over audited edits that trigger d of the audited reward's gain R(A(τ)) − R(τ): " +
      'R − λ_d·d does not reject every audited edit that triggers d.',
  },
  {
    id: 'bad-rows', name: 'BadRows', level: 'warning',
    short: 'A pool or corpus row was skipped.',
    full: 'The row failed validation and the audit went on without it; figures cover the remaining rows only.',
  },
];

interface Location {
  readonly uri: string;
  readonly range?: SpecRange | undefined;
  readonly line?: number | undefined;
}

interface Finding {
  readonly rule: RuleId;
  /** Plain text; `[text](1)` links to the first related location, other brackets are escaped. */
  readonly message: string;
  readonly locations: readonly Location[];
  readonly related?: readonly (Location & { readonly note: string })[];
  /** What identifies this finding across runs: never a number that a new seed or row could move. */
  readonly identity: readonly (string | number)[];
  readonly properties?: Record<string, unknown>;
}

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

/** SARIF reads `[text](id)` in a message as a link: literal brackets next to one are escaped. */
function escapeBrackets(text: string): string {
  return text.replace(/[[\]\\]/g, (c) => `\\${c}`);
}

function fingerprint(identity: readonly (string | number)[]): string {
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 32);
}

function pairText(audit: AuditReport, pair: WorkedPair): string {
  const file = audit.pools.find((p) => p.name === pair.pool)?.file ?? pair.pool;
  return `${pair.trajectory} (${file}:${pair.line}, ${editText(pair)})`;
}

function auditFindings(audit: AuditReport, specUri: string): Finding[] {
  const spec = artifactUri(specUri);
  const at = (range: SpecRange): Location => ({ uri: spec, range });
  const findings: Finding[] = [];

  const seen = new Map<string, number>();
  for (const e of audit.expectations) {
    const occurrence = seen.get(e.text) ?? 0;
    seen.set(e.text, occurrence + 1);
    if (e.passed) continue;
    findings.push({
      rule: 'expect-failed', locations: [at(e.range)], identity: [audit.name, e.text, occurrence],
      message: `Audit ${audit.name}: \`${e.text}\` does not hold: ${e.actual}.`,
    });
  }

  const rewards = [audit.reward.name, ...audit.compared.map((r) => r.name)];
  for (const attack of audit.attacks) {
    for (const r of attack.results) {
      const e = r.estimate;
      if (r.selection !== 'oracle_worst' || !rewards.includes(r.reward) || e.asr === null || e.asr <= 0) continue;
      const role = r.reward === audit.reward.name ? 'the audited reward' : 'a compared reward';
      findings.push({
        rule: 'asr-positive', locations: [at(attack.range)], identity: [audit.name, attack.name, r.reward, r.selection],
        message: `Attack ${attack.name} succeeds against ${r.reward} (${role}): oracle-worst ASR ${rateWithBound(e)} over ` +
          `${plural(e.clusters, 'isolated-eligible cluster')} (${shortNumber(e.successes)} cluster-weighted successes, ${plural(e.rows, 'row')}); ` +
          `mean margin ${margin(e.meanMargin)}, worst ${margin(e.worstMargin)}; ` +
          `${r.label === 'oracle upper bound' ? 'an oracle upper bound (the selection reads gold)' : 'label-free'}.`,
        properties: { audit: audit.name, attack: attack.name, reward: r.reward, asr: e.asr, clusters: e.clusters, label: r.label },
      });
    }
  }

  for (const f of audit.cancellation) {
    const attack = audit.attacks.find((a) => a.name === f.attack);
    findings.push({
      rule: 'penalty-cancellation', locations: [at(attack?.range ?? audit.range)],
      identity: [audit.name, f.smaller, f.larger, f.attack, f.selection, f.term],
      message: `Audit ${audit.name}: ${cancellationSentence(f)} Worked pair ${pairText(audit, f.example)}: ${marginChain(f.example)}. ` +
        `Under ${f.larger}, ASR is ${rateWithBound(f.strata.active)} over ${plural(f.strata.active.clusters, 'cluster')} where ${f.term} is active ` +
        `and ${rateWithBound(f.strata.inactive)} over ${plural(f.strata.inactive.clusters, 'cluster')} where it is not.`,
      properties: { audit: audit.name, smaller: f.smaller, larger: f.larger, attack: f.attack, term: f.term, count: f.count },
    });
  }

  if (audit.lattice.minimal.length > 0) {
    const used = new Set(audit.lattice.minimal.flat());
    for (const d of audit.lattice.detectors) {
      if (used.has(d.name)) continue;
      findings.push({
        rule: 'redundant-detector', locations: [at(audit.range)], identity: [audit.name, d.name],
        message: `Audit ${audit.name}: detector ${d.name} (λ ${shortNumber(d.lambda)}) is in no observed inclusion-minimal repair; ` +
          `${audit.lattice.minimal.map(detectorSet).join(', ')} ${audit.lattice.minimal.length === 1 ? 'suffices' : 'suffice'} without it.`,
      });
    }
  }

  for (const c of audit.certificate) {
    if (c.certified) continue;
    const example = c.example === null ? '' : `; largest gain ${pairText(audit, c.example)}`;
    findings.push({
      rule: 'certificate-fails', locations: [at(audit.range)], identity: [audit.name, c.detector],
      message: `Audit ${audit.name}: ${certificateSentence(c)} over ${plural(c.edits, 'audited edit')} that trigger ${c.detector}: ` +
        `a penalty of ${shortNumber(c.lambda)} does not reject every one of them${example}.`,
      properties: { audit: audit.name, detector: c.detector, lambda: c.lambda, maxGain: c.maxGain, edits: c.edits },
    });
  }

  const sources = [
    { kind: 'corpus', name: audit.corpus.name, skipped: audit.corpus.skipped, issues: audit.corpus.issues },
    ...audit.pools.map((p) => ({ kind: 'pool', name: p.name, skipped: p.skipped, issues: p.issues })),
  ];
  for (const source of sources) {
    for (const issue of source.issues) {
      // The row lives in the data file, the audit that skipped it in the spec: the spec range is the
      // result's location, the row a related location the message links to.
      findings.push({
        rule: 'bad-rows', locations: [at(audit.range)],
        related: [{ uri: fileBesideSpec(specUri, issue.file), line: issue.line, note: `skipped row: ${issue.reason}` }],
        identity: [audit.name, source.kind, source.name, issue.file, issue.line, issue.reason],
        message: `Audit ${audit.name}: ${source.kind} ${source.name} skipped [${escapeBrackets(`${issue.file}:${issue.line}`)}](1): ` +
          `${escapeBrackets(issue.reason)} (${plural(source.skipped, 'row')} skipped in this ${source.kind}).`,
      });
    }
    if (source.issues.length === 0 && source.skipped > 0) {
      findings.push({
        rule: 'bad-rows', locations: [at(audit.range)], identity: [audit.name, source.kind, source.name],
        message: `Audit ${audit.name}: ${source.kind} ${source.name} skipped ${plural(source.skipped, 'row')}.`,
      });
    }
  }
  return findings;
}

function sarifLocation(location: Location): object {
  const region = location.range !== undefined ? sarifRegion(location.range) : location.line !== undefined && location.line >= 1 ? { startLine: location.line } : undefined;
  return { physicalLocation: { artifactLocation: { uri: location.uri }, ...(region === undefined ? {} : { region }) } };
}

/** The report as SARIF 2.1.0 JSON text; `specUri` is the spec's URI, or its path relative to the repository root. */
export function formatSarif(report: Report, specUri: string): string {
  const ruleIndex = new Map(sarifRules.map((r, i) => [r.id, i]));
  const findings = report.audits.flatMap((audit) => auditFindings(audit, specUri));
  findings.sort((a, b) => ruleIndex.get(a.rule)! - ruleIndex.get(b.rule)!);
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: {
        driver: {
          name: 'herald',
          version: report.tool.version,
          semanticVersion: report.tool.version,
          rules: sarifRules.map((r) => ({
            id: r.id,
            name: r.name,
            shortDescription: { text: r.short },
            fullDescription: { text: r.full },
            defaultConfiguration: { level: r.level },
            help: { text: `${r.short} ${r.full}` },
          })),
        },
      },
      columnKind: 'utf16CodeUnits',
      properties: { spec: report.spec, reportVersion: report.version, audits: report.audits.map((a) => a.name) },
      results: findings.map((f) => {
        const rule = sarifRules[ruleIndex.get(f.rule)!]!;
        return {
          ruleId: rule.id,
          ruleIndex: ruleIndex.get(f.rule)!,
          level: rule.level,
          message: { text: f.message },
          locations: f.locations.map(sarifLocation),
          ...(f.related === undefined ? {} : {
            relatedLocations: f.related.map((r, i) => ({ id: i + 1, ...sarifLocation(r), message: { text: r.note } })),
          }),
          partialFingerprints: { 'heraldFinding/v1': fingerprint([f.rule, ...f.identity]) },
          ...(f.properties === undefined ? {} : { properties: f.properties }),
        };
      }),
    }],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
