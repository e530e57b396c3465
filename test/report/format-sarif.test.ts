import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { specFindings } from '../../server/src/findings/spec-findings.js';
import type { RowIssue } from '../../server/src/pool/types.js';
import { auditIssueCodes } from '../../server/src/problems/issue-codes.js';
import { LineIndex } from '../../server/src/problems/line-index.js';
import { fileBesideSpec, formatSarif, sarifRegion } from '../../server/src/render/format-sarif.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { goldenSpec } from '../helpers/golden-audit.js';
import { failingSpec, goldenReport, goldenSpecUri, withAudit } from './golden-report.js';

// ajv-draft-04 validates SARIF's own draft-04 schema as shipped by @microsoft/jest-sarif.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Ajv04 = require('ajv-draft-04') as new (options: object) => {
  compile: (schema: object) => ((data: unknown) => boolean) & { errors?: unknown };
};

const sarifSchema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as object;
// No ajv-formats dependency: check `uri` by parsing and accept the other formats the schema names.
// The schema's language pattern `^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$` is not a valid unicode-mode
// regular expression (a lone `]`), so patterns compile without the `u` flag.
const ajv = new Ajv04({
  allErrors: true, strict: false, unicodeRegExp: false,
  formats: { uri: (s: string) => URL.canParse(s), 'uri-reference': true, 'date-time': true },
});
const validate = ajv.compile(sarifSchema);

interface Region { startLine: number; startColumn?: number; endLine?: number; endColumn?: number }
interface PhysicalLocation { artifactLocation: { uri: string }; region?: Region }
interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: { physicalLocation: PhysicalLocation }[];
  relatedLocations?: { id: number; physicalLocation: PhysicalLocation }[];
  partialFingerprints: Record<string, string>;
}
interface SarifLog { version: string; runs: { tool: { driver: { name: string; rules: { id: string }[] } }; results: SarifResult[] }[] }

const specDir = '/work/specs';

/** The golden report's findings, from the findings stage, rendered as SARIF and checked against the SARIF schema. */
function sarif(report = goldenReport(), spec = goldenSpec, dataIssues: readonly RowIssue[] = []): SarifLog {
  const { model } = analyze(spec);
  // The golden spec's one pool, `p`, read every file an issue names (as the loader records it).
  const dataOwners = new Map(dataIssues.map((i) => [i.file, { kind: 'pool' as const, name: 'p' }]));
  const findings = specFindings({ model, text: spec, specDir, report, dataIssues, dataOwners, failures: [] });
  const text = formatSarif({ findings, lines: new LineIndex(spec), specUri: goldenSpecUri, specDir, report, toolVersion: 'test' });
  const log = JSON.parse(text) as unknown;
  assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
  return log as SarifLog;
}

const results = (log: SarifLog, rule?: string): SarifResult[] => log.runs[0]!.results.filter((r) => rule === undefined || r.ruleId === rule);
const lineOf = (spec: string, needle: string): number => spec.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('formatSarif', () => {
  it('writes a SARIF 2.1.0 log that the SARIF schema accepts, with the issue codes as rule ids', () => {
    const log = sarif();
    assert.equal(log.version, '2.1.0');
    assert.equal(log.runs.length, 1);
    assert.equal(log.runs[0]!.tool.driver.name, 'herald');
    const rules = log.runs[0]!.tool.driver.rules.map((r) => r.id);
    assert.deepEqual(rules, [...new Set(results(log).map((r) => r.ruleId))]);
    for (const rule of rules) assert.ok(Object.values(auditIssueCodes).includes(rule as never), rule);
    for (const r of results(log)) assert.equal(rules[r.ruleIndex], r.ruleId);
  });

  it('proves the validator rejects a broken log', () => {
    const log = JSON.parse(JSON.stringify(sarif())) as Record<string, unknown>;
    delete log['version'];
    assert.equal(validate(log), false);
    const badLevel = JSON.parse(JSON.stringify(sarif())) as SarifLog;
    badLevel.runs[0]!.results[0]!.level = 'fatal';
    assert.equal(validate(badLevel), false);
  });

  it('reports what the editor reports: the attacks that succeed, the cancellation, the redundant detectors, the small samples', () => {
    const log = sarif();
    const succeeds = results(log, 'attack-succeeds');
    // R0 is beaten by launder (50%) and same_final (100%): one finding on its reward line; R_full by launder, on its name in compare.
    assert.deepEqual(succeeds.map((r) => r.locations[0]!.physicalLocation.region?.startLine), [lineOf(goldenSpec, '  reward R0'), lineOf(goldenSpec, '  compare R_L, R_full')]);
    assert.match(succeeds[0]!.message.text, /launder beats R0: 50\.00% .*same_final ties R0 on 100\.00%/);
    assert.ok(succeeds.every((r) => r.level === 'warning'));
    const cancellation = results(log, 'penalty-cancellation');
    assert.equal(cancellation.length, 1, 'both selections of one term and attack are one finding');
    assert.match(cancellation[0]!.message.text, /R0 \+0\.81375 → R_L −0\.38625 → R_full \+0\.41375/);
    assert.deepEqual(cancellation[0]!.relatedLocations?.map((l) => [l.physicalLocation.artifactLocation.uri, l.physicalLocation.region?.startLine]), [['specs/p.jsonl', 1]]);
    assert.deepEqual(results(log, 'redundant-detector').map((r) => [r.level, r.message.text.match(/^in audit \S+, (\S+) is in no/)?.[1]]), [['note', 'U'], ['note', 'F']]);
    assert.equal(results(log, 'small-sample').length, 2, 'both attacks have 3 isolated-eligible clusters');
    assert.deepEqual(results(log, 'expect-failed'), []);
    assert.deepEqual(results(log, 'certificate-fails'), []);
    assert.deepEqual(results(log, 'bad-rows'), []);
  });

  it('places a failed expectation at its spec line with one-based lines and columns', () => {
    const failed = results(sarif(goldenReport(failingSpec), failingSpec), 'expect-failed');
    assert.equal(failed.length, 1);
    const index = lineOf(failingSpec, '< 10%') - 1;
    const text = failingSpec.split('\n')[index]!;
    const location = failed[0]!.locations[0]!.physicalLocation;
    assert.equal(failed[0]!.level, 'error');
    assert.equal(location.artifactLocation.uri, goldenSpecUri);
    assert.deepEqual(location.region, { startLine: index + 1, startColumn: text.indexOf('expect') + 1, endLine: index + 1, endColumn: text.trimEnd().length + 1 });
    assert.match(failed[0]!.message.text, /asr = 50\.00% over 3 isolated-eligible clusters/);
  });

  it('keeps fingerprints stable across runs and distinct across findings', () => {
    const first = results(sarif()).map((r) => r.partialFingerprints['heraldFinding/v1']);
    const second = results(sarif()).map((r) => r.partialFingerprints['heraldFinding/v1']);
    assert.deepEqual(first, second);
    assert.equal(new Set(first).size, first.length);
    // A new bootstrap seed moves intervals, not identities.
    const reseeded = withAudit(goldenReport(), (a) => ({ ...a, settings: { ...a.settings, seed: 7 } }));
    assert.deepEqual(results(sarif(reseeded)).map((r) => r.partialFingerprints['heraldFinding/v1']), first);
  });

  it('reports skipped pool rows on the pool declaration and links each row in the pool file', () => {
    const issues = [{ file: `${specDir}/p.jsonl`, line: 7, reason: 'field [final] is not an object' }, { file: `${specDir}/p.jsonl`, line: 9, reason: 'invalid JSON' }];
    const [bad, ...rest] = results(sarif(goldenReport(), goldenSpec, issues), 'bad-rows');
    assert.ok(bad);
    assert.deepEqual(rest, []);
    assert.equal(bad.level, 'error');
    assert.equal(bad.locations[0]!.physicalLocation.region?.startLine, lineOf(goldenSpec, 'pool p ='));
    assert.deepEqual(bad.relatedLocations?.map((l) => [l.id, l.physicalLocation.artifactLocation.uri, l.physicalLocation.region]), [[1, 'specs/p.jsonl', { startLine: 7 }], [2, 'specs/p.jsonl', { startLine: 9 }]]);
    assert.match(bad.message.text, /p\.jsonl:7: field \\\[final\\\] is not an object/);
  });

  it('reports a certificate that fails, on its lattice entry', () => {
    const report = withAudit(goldenReport(), (a) => ({ ...a, certificate: a.certificate.map((c) => (c.detector === 'L' ? { ...c, lambda: 0.5, certified: false } : c)) }));
    const [fails] = results(sarif(report), 'certificate-fails');
    assert.ok(fails);
    assert.equal(fails.locations[0]!.physicalLocation.region?.startLine, lineOf(goldenSpec, 'lattice U = 0.5'));
    assert.match(fails.message.text, /λ_L = 0\.5 ≤ max gain 0\.81375 over 9 audited edits/);
  });
});

describe('SARIF locations', () => {
  it('turns zero-based LSP ranges into one-based SARIF regions', () => {
    assert.deepEqual(sarifRegion({ start: { line: 0, character: 0 }, end: { line: 2, character: 5 } }), { startLine: 1, startColumn: 1, endLine: 3, endColumn: 6 });
  });

  it('resolves data files beside the spec', () => {
    assert.equal(fileBesideSpec('specs/a.reward', 'p.jsonl'), 'specs/p.jsonl');
    assert.equal(fileBesideSpec('a.reward', '../data/p.jsonl'), '../data/p.jsonl');
    assert.equal(fileBesideSpec('specs/a.reward', 'pools/my pool.jsonl'), 'specs/pools/my%20pool.jsonl');
    assert.equal(fileBesideSpec('specs/a.reward', '/data/p.jsonl'), 'file:///data/p.jsonl');
    assert.equal(fileBesideSpec('file:///w/specs/a.reward', 'p.jsonl'), 'file:///w/specs/p.jsonl');
  });
});
