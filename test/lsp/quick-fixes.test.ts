// The quick fixes, run in process on a checked spec: each reads the data its diagnostic carries and
// makes the edit its title says, and none edits text that is no longer what the diagnostic was about.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { applyEdits } from './lsp-test-client.js';
import { auditCodeActions } from '../../server/src/lsp/audit-actions.js';
import { toDiagnostic } from '../../server/src/lsp/diagnostics.js';
import type { DocumentAnalysis } from '../../server/src/lsp/document-analysis.js';
import { LineIndex } from '../../server/src/problems/line-index.js';
import { SpecVersion } from '../../server/src/host/spec-version.js';
import type { FileStatus } from '../../server/src/inputs/file-probe.js';

const dir = path.resolve('/tmp/herald-quick-fixes');
const uri = pathToFileURL(path.join(dir, 'spec.reward')).href;

function analysisOf(text: string, probe: (p: string) => FileStatus = () => 'ok'): DocumentAnalysis {
  const spec = SpecVersion.ofText(text, path.join(dir, 'spec.reward'), { probeFile: probe, reportUnused: false });
  return { uri, version: 1, text, spec, analyzed: spec.analyzed, lines: new LineIndex(text), resultId: '1' };
}

function checkerFixes(text: string, code: string, probe?: (p: string) => FileStatus): { analysis: DocumentAnalysis; diagnostic: Diagnostic; actions: CodeAction[] } {
  const analysis = analysisOf(text, probe);
  const problem = analysis.analyzed.problems.find((p) => p.code === code);
  assert.ok(problem, `no ${code} in ${JSON.stringify(analysis.analyzed.problems.map((p) => p.code))}`);
  const diagnostic = toDiagnostic(problem, analysis, 'file:///docs');
  return { analysis, diagnostic, actions: auditCodeActions(analysis, [diagnostic]) };
}

const applied = (text: string, action: CodeAction | undefined): string => applyEdits(text, action?.edit?.changes?.[uri] ?? []);

const base = `corpus wiki = "c.jsonl"
pool hotpot = "p.jsonl"
detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved
reward R0 {
  answer 1.0 * token_f1(answer, gold.answers)
}
reward R_L = R0 - 1.2 * L
reward R_full = R_L - 0.5 * L

audit a {
  reward R0
  corpus wiki
  pools hotpot
  attack launder targets L using lexical(4)
  lattice L = 1.2
}
`;

describe('quick fixes for the checker\'s errors', () => {
  it('did you mean: replaces the mistyped word with the suggestion', () => {
    const text = base.replace('attack launder targets L', 'attack lauder targets L');
    const { actions } = checkerFixes(text, 'unknown-attack-kind');
    assert.equal(actions[0]?.title, "Change 'lauder' to 'launder'");
    assert.equal(applied(text, actions[0]), base);
    const member = base.replace('gold.answers', 'gold.answer');
    assert.equal(applied(member, checkerFixes(member, 'unknown-member').actions[0]), base);
    const name = base.replace('reward R_L = R0 -', 'reward R_L = R00 -');
    assert.equal(applied(name, checkerFixes(name, 'unknown-name').actions[0]), base);
  });

  it('missing file with nothing like it beside it: picks one with the client\'s file picker, or creates it, last', () => {
    const { diagnostic, actions } = checkerFixes(base, 'missing-file', (p) => (p.endsWith('p.jsonl') ? 'missing' : 'ok'));
    assert.deepEqual(actions.map((a) => a.title), ['Pick a file for this link…', 'Create "p.jsonl" (an empty file)']);
    assert.deepEqual(actions[0]!.command, { title: 'Pick a file', command: 'herald.pickLinkedFile', arguments: [{ uri, range: diagnostic.range }] });
    assert.deepEqual(actions[1]!.edit?.documentChanges, [{ kind: 'create', uri: pathToFileURL(path.join(dir, 'p.jsonl')).href, options: { ignoreIfExists: true } }]);
  });

  it('missing file: offers the files a typo away in its folder first, closest preferred, keeping the typed folder', () => {
    const text = base.replace('pool hotpot = "p.jsonl"', 'pool hotpot = "logs/hotpt.jsonl"');
    const analysis = analysisOf(text, (p) => (p.endsWith('hotpt.jsonl') ? 'missing' : 'ok'));
    const problem = analysis.analyzed.problems.find((p) => p.code === 'missing-file');
    assert.ok(problem);
    const listed: string[] = [];
    const folder = (d: string): string[] => {
      listed.push(d);
      return ['corpus.jsonl', 'hotpot.jsonl', 'hotpot.json', 'notes.md', 'xhotpotx.jsonl'];
    };
    const actions = auditCodeActions(analysis, [toDiagnostic(problem, analysis, 'file:///docs')], undefined, folder);
    assert.deepEqual(listed, [path.join(dir, 'logs')]);
    assert.deepEqual(actions.map((a) => [a.title, a.isPreferred ?? false]), [
      ['Did you mean "logs/hotpot.jsonl"?', true],
      ['Did you mean "logs/hotpot.json"?', false],
      ['Did you mean "logs/xhotpotx.jsonl"?', false],
      ['Pick a file for this link…', false],
      ['Create "logs/hotpt.jsonl" (an empty file)', false],
    ]);
    assert.equal(applied(text, actions[0]), base.replace('pool hotpot = "p.jsonl"', 'pool hotpot = "logs/hotpot.jsonl"'));
  });

  it('an expect on a reward its audit does not score: compares it', () => {
    const text = base.replace('  lattice L = 1.2\n', '  lattice L = 1.2\n  expect asr(R_L, launder, oracle_worst) == 0\n');
    const { actions } = checkerFixes(text, 'reward-not-audited');
    assert.equal(actions[0]?.title, 'Compare R_L in audit a');
    assert.match(applied(text, actions[0]), /^ {2}reward R0\n {2}compare R_L\n/m);
  });

  it('a failed expectation: rewrites the line to the observed value', () => {
    const text = base.replace('  lattice L = 1.2\n', '  lattice L = 1.2\n  expect asr(R0, launder, oracle_worst) == 0\n');
    const analysis = analysisOf(text);
    const line = 'expect asr(R0, launder, oracle_worst) == 0';
    const start = text.indexOf(line);
    const diagnostic: Diagnostic = {
      range: analysis.lines.range({ start, end: start + line.length }), message: 'expectation fails', code: 'expect-failed',
      data: { audit: 'a', observed: '14.89%', expect: 'expect asr(R0, launder, oracle_worst) <= 14.9%' },
    };
    const actions = auditCodeActions(analysis, [diagnostic]);
    assert.equal(actions[0]?.title, 'Update this expect to the observed value: asr(R0, launder, oracle_worst) <= 14.9% (observed 14.89%)');
    assert.match(applied(text, actions[0]), /^ {2}expect asr\(R0, launder, oracle_worst\) <= 14\.9%$/m);
    // Text that moved under the diagnostic is left alone.
    assert.deepEqual(auditCodeActions(analysisOf(text.replace(line, `# ${line}`)), [diagnostic]), []);
  });
});

describe('the minimal repair as a quick fix', () => {
  const finding = (analysis: DocumentAnalysis): Diagnostic => {
    const start = analysis.text.indexOf('  reward R0\n') + 2;
    return {
      range: analysis.lines.range({ start, end: start + 'reward R0'.length }), message: 'launder beats R0', code: 'attack-succeeds',
      data: { audit: 'a', reward: 'R0', repair: [{ detector: 'L', lambda: 1.2, maxGain: 0.6 }] },
    };
  };

  it('compares the reward that already is the repair (R_L = R0 − 1.2·L), changing no reward', () => {
    const analysis = analysisOf(base);
    const actions = auditCodeActions(analysis, [finding(analysis)]);
    assert.equal(actions[0]?.title, 'Compare R_L in audit a: it already is the observed minimal repair R0 − 1.2·L (no reward changes)');
    assert.equal(applied(base, actions[0]), base.replace('  reward R0\n', '  reward R0\n  compare R_L\n'));
  });

  it('offers nothing when that reward is already compared: the finding names it', () => {
    const text = base.replace('  reward R0\n', '  reward R0\n  compare R_full, R_L\n');
    const analysis = analysisOf(text);
    assert.deepEqual(auditCodeActions(analysis, [finding(analysis)]), []);
  });

  it('adds a new derived reward under a fresh name, and compares it, when no reward is the repair', () => {
    const text = base.replace('reward R_L = R0 - 1.2 * L', 'reward R_L = R0 - 0.6 * L').replace('  reward R0\n', '  reward R0\n  compare R_full\n')
      .replace('reward R_full = R_L - 0.5 * L', 'reward R_full = R_L - 0.5 * L\nreward R0_repair_L = R0 - 2 * L # taken');
    const analysis = analysisOf(text);
    const actions = auditCodeActions(analysis, [finding(analysis)]);
    assert.match(actions[0]?.title ?? '', /^Add the observed minimal repair as a new reward R0_repair_L_2 = R0 − 1\.2·L, compared in audit a \(R0 and every other reward unchanged; /);
    const repaired = applied(text, actions[0]);
    assert.equal(repaired, text
      .replace('reward R0_repair_L = R0 - 2 * L # taken', 'reward R0_repair_L = R0 - 2 * L # taken\n\nreward R0_repair_L_2 "the observed minimal repair of R0 (audit a)" = R0 - 1.2 * L')
      .replace('  compare R_full\n', '  compare R_full, R0_repair_L_2\n'));
    assert.deepEqual(analysisOf(repaired).analyzed.problems.filter((p) => p.severity === 'error'), []);
  });
});
