import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileBesideSpec, formatSarif, sarifRegion, sarifRules } from '../../server/src/render/format-sarif.js';
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

function sarif(report = goldenReport()): SarifLog {
  const text = formatSarif(report, goldenSpecUri);
  const log = JSON.parse(text) as unknown;
  assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
  return log as SarifLog;
}

const results = (log: SarifLog, rule?: string): SarifResult[] => log.runs[0]!.results.filter((r) => rule === undefined || r.ruleId === rule);

describe('formatSarif', () => {
  it('writes a SARIF 2.1.0 log that the SARIF schema accepts', () => {
    const log = sarif();
    assert.equal(log.version, '2.1.0');
    assert.equal(log.runs.length, 1);
    assert.equal(log.runs[0]!.tool.driver.name, 'herald');
    assert.deepEqual(log.runs[0]!.tool.driver.rules.map((r) => r.id), sarifRules.map((r) => r.id));
  });

  it('proves the validator rejects a broken log', () => {
    const log = JSON.parse(formatSarif(goldenReport(), goldenSpecUri)) as Record<string, unknown>;
    delete log['version'];
    assert.equal(validate(log), false);
    const badLevel = JSON.parse(formatSarif(goldenReport(), goldenSpecUri)) as SarifLog;
    badLevel.runs[0]!.results[0]!.level = 'fatal';
    assert.equal(validate(badLevel), false);
  });

  it('reports the golden findings: positive oracle-worst ASRs, the cancellation, the redundant detectors', () => {
    const log = sarif();
    const positive = results(log, 'asr-positive');
    // launder under R0 (50%) and R_full (16.67%), same_final under R0 (100%); R_L stops both.
    assert.deepEqual(positive.map((r) => r.message.text.match(/^Attack (\S+) succeeds against (\S+)/)?.slice(1)), [['launder', 'R0'], ['launder', 'R_full'], ['same_final', 'R0']]);
    assert.match(positive[0]!.message.text, /ASR 50\.00% /);
    assert.ok(positive.every((r) => r.level === 'warning'));
    const cancellation = results(log, 'penalty-cancellation');
    assert.equal(cancellation.length, 2);
    assert.match(cancellation[0]!.message.text, /R0 \+0\.81375 → R_L −0\.38625 → R_full \+0\.41375/);
    assert.deepEqual(results(log, 'redundant-detector').map((r) => [r.level, r.message.text.match(/detector (\S+)/)?.[1]]), [['note', 'U'], ['note', 'F']]);
    assert.deepEqual(results(log, 'expect-failed'), []);
    assert.deepEqual(results(log, 'certificate-fails'), []);
    assert.deepEqual(results(log, 'bad-rows'), []);
    for (const r of log.runs[0]!.results) assert.equal(log.runs[0]!.tool.driver.rules[r.ruleIndex]!.id, r.ruleId);
  });

  it('places a failed expectation at its spec line with one-based lines and columns', () => {
    const log = sarif(goldenReport(failingSpec));
    const failed = results(log, 'expect-failed');
    assert.equal(failed.length, 1);
    const lines = failingSpec.split('\n');
    const index = lines.findIndex((l) => l.includes('< 10%'));
    const text = lines[index]!;
    const location = failed[0]!.locations[0]!.physicalLocation;
    assert.equal(failed[0]!.level, 'error');
    assert.equal(location.artifactLocation.uri, goldenSpecUri);
    assert.deepEqual(location.region, { startLine: index + 1, startColumn: text.indexOf('expect') + 1, endLine: index + 1, endColumn: text.trimEnd().length + 1 });
    assert.match(failed[0]!.message.text, /asr = 50\.00% over 3 isolated-eligible clusters/);
  });

  it('places attack findings at the attack line', () => {
    const line = failingSpec.split('\n').findIndex((l) => l.includes('attack launder'));
    const launder = results(sarif(), 'asr-positive')[0]!;
    assert.equal(launder.locations[0]!.physicalLocation.region?.startLine, line + 1);
    assert.equal(launder.locations[0]!.physicalLocation.region?.startColumn, 3);
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

  it('reports a skipped pool row at the audit and links the row in the pool file', () => {
    const report = withAudit(goldenReport(), (a) => ({
      ...a,
      pools: a.pools.map((p) => ({ ...p, skipped: 1, issues: [{ file: 'p.jsonl', line: 7, reason: 'field [final] is not an object' }] })),
    }));
    const [bad, ...rest] = results(sarif(report), 'bad-rows');
    assert.ok(bad);
    assert.deepEqual(rest, []);
    assert.equal(bad.level, 'warning');
    assert.equal(bad.locations[0]!.physicalLocation.region?.startLine, 10, 'the audit line');
    assert.deepEqual(bad.relatedLocations?.map((l) => [l.id, l.physicalLocation.artifactLocation.uri, l.physicalLocation.region]), [[1, 'specs/p.jsonl', { startLine: 7 }]]);
    assert.match(bad.message.text, /\[p\.jsonl:7\]\(1\): field \\\[final\\\] is not an object/);
  });

  it('reports a certificate that fails', () => {
    const report = withAudit(goldenReport(), (a) => ({ ...a, certificate: a.certificate.map((c) => (c.detector === 'L' ? { ...c, lambda: 0.5, certified: false } : c)) }));
    const [fails] = results(sarif(report), 'certificate-fails');
    assert.ok(fails);
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
