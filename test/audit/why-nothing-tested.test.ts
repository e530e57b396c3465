// Issue 37: an audit on a log that holds no citations (Search-R1's verl dump) says why its attacks
// test nothing, from the data: at the attack (which condition failed, on how many rows), on the
// detector that cannot fire and on the term that reads the empty part; the report carries the
// pools' profiles and the counts the reasons come from, and the table and the HTML page show the
// profile.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditSpec } from '../../server/src/audit/audit-spec.js';
import { specFindings } from '../../server/src/findings/spec-findings.js';
import { auditStatusOf } from '../../server/src/lsp/analysis-results.js';
import { profilePool } from '../../server/src/pool/profile.js';
import { auditIssueCodes } from '../../server/src/problems/issue-codes.js';
import type { Problem } from '../../server/src/problems/problem.js';
import { report as reportSchema, type Report } from '../../server/src/report/schema.js';
import { formatHtml } from '../../server/src/render/format-html.js';
import { formatTable } from '../../server/src/render/format-table.js';
import type { Trajectory } from '../../server/src/pool/types.js';
import { sampleDir, searchR1Spec } from '../helpers/search-r1-spec.js';

async function audited(): Promise<{ report: Report; findings: Problem[] }> {
  const specFile = path.join(sampleDir, 'why.reward');
  const outcome = await auditSpec(searchR1Spec, specFile, { candidateCache: false });
  assert.deepEqual(outcome.problems.filter((p) => p.severity === 'error'), []);
  assert.ok(outcome.report);
  const findings = specFindings({
    model: outcome.model, text: searchR1Spec, specDir: sampleDir, report: outcome.report, dataIssues: outcome.dataIssues, dataOwners: outcome.dataOwners, failures: outcome.failures,
  });
  return { report: outcome.report, findings };
}

/** The finding of `code` whose span starts at `needle` in the spec. */
function findingAt(findings: readonly Problem[], code: string, needle: string): Problem {
  const at = searchR1Spec.indexOf(needle);
  assert.ok(at >= 0, needle);
  const found = findings.find((p) => p.code === code && p.span.start === at);
  assert.ok(found, `no ${code} at '${needle}': ${JSON.stringify(findings.map((f) => [f.code, searchR1Spec.slice(f.span.start, f.span.end)]))}`);
  return found;
}

describe('why an attack tests nothing, from the data (issue 37)', () => {
  it('the report holds the pool profile and the eligibility counts, in its schema', async () => {
    const { report } = await audited();
    assert.ok(reportSchema.safeParse(report).success);
    const audit = report.audits[0]!;
    const profile = audit.pools[0]!.profile;
    assert.deepEqual(
      [profile.rows, profile.withFinal, profile.withAnswer, profile.withCitations, profile.citations, profile.withSearches, profile.withRetrieved, profile.withReasoning, profile.withGoldAnswers, profile.withGoldSupport],
      [400, 388, 388, 0, 0, 396, 396, 400, 400, 0],
    );
    assert.deepEqual(profile.meta.find((m) => m.key === 'transcript'), { key: 'transcript', rows: 400 });
    const sameFinal = audit.attacks.find((a) => a.name === 'same_final')!;
    // U is already 1 on its 4 originals, which have no search to delete: no edit of theirs, so not counted.
    assert.deepEqual(sameFinal.eligibility.targets, [{ detector: 'U', active: 0, flips: 384 }, { detector: 'L', active: 0, flips: 0 }]);
    assert.equal(sameFinal.counts.rows.constructible, 384);
    assert.deepEqual(audit.attacks.find((a) => a.name === 'launder')!.counts.rows.constructible, 0);
    assert.deepEqual(audit.terms.find((t) => t.term === 'ground'), { reward: 'R', term: 'ground', min: 0, max: 0 });
    assert.deepEqual(audit.terms.find((t) => t.term === 'answer'), { reward: 'R', term: 'answer', min: 0, max: 1 });
  });

  it('says at each attack which condition failed on how many rows', async () => {
    const { findings } = await audited();
    const sameFinal = findingAt(findings, auditIssueCodes.smallSample, 'attack same_final');
    assert.equal(sameFinal.message,
      'in audit a, no trajectory admits an isolated-eligible same_final edit: the pool rollouts has no citations (0 of 400 rows), which L reads: ' +
      'L cannot fire on any row, so no edit flips L 0 → 1 on any of the 384 rows with a same_final edit; this attack tests nothing on these pools');
    const launder = findingAt(findings, auditIssueCodes.smallSample, 'attack launder');
    assert.equal(launder.message,
      'in audit a, no trajectory admits an isolated-eligible launder edit: the pool rollouts has no citations (0 of 400 rows), which launder edits: launder has nothing to edit; this attack tests nothing on these pools');
    assert.match(findingAt(findings, auditIssueCodes.smallSample, 'attack fake_id').message, /the pool rollouts has no citations \(0 of 400 rows\), which fake_id edits: fake_id has nothing to edit;/);
  });

  it('says it on the detector that cannot fire and on the term that reads the empty part', async () => {
    const { findings } = await audited();
    const detector = findingAt(findings, auditIssueCodes.emptyPart, 'L "cites');
    assert.equal(detector.severity, 'information');
    assert.equal(detector.message,
      "in audit a, L cannot fire on any row: the pool rollouts has no citations (0 of 400 rows), which L reads; it is 0 on every row, so a penalty on it changes no row's reward");
    const term = findingAt(findings, auditIssueCodes.emptyPart, 'ground      0.5');
    assert.equal(term.message,
      "in audit a, term ground of R is 0 on every row: the pool rollouts has no citations (0 of 400 rows), which it reads, so it adds the same to every row's reward and cannot tell one row from another");
    // U fires on 4 rows, and the answer term varies: neither is said to read an empty part.
    assert.equal(findings.filter((p) => p.code === auditIssueCodes.emptyPart).length, 2);
  });

  it('shows the pool profile in the table and the HTML page', async () => {
    const { report } = await audited();
    const table = formatTable(report);
    assert.match(table, /── pool profile ─/);
    assert.match(table, /\n {2}pool +rows +final answer +citations +searches +retrieved ids +reasoning +gold answers +gold support\n/);
    assert.match(table, /\n {2}rollouts +400 +388 +0 +396 +396 +400 +400 +0\n/);
    assert.match(table, /logged fields +rollouts: dialect 400, step 400, score 400, prompt 400, ground_truth 400, transcript 400, observations/);
    const html = formatHtml(report);
    assert.match(html, /pool profile<\/h4>/);
    assert.match(html, /<th[^>]*>retrieved ids<\/th>/);
  });

  it('says in the finished status how many attacks test nothing, so a check mark never stands alone', async () => {
    const { report } = await audited();
    const status = (r: Report): string => auditStatusOf('file:///why.reward', { report: r, dataIssues: [], dataOwners: new Map(), failures: [] }, 10).message;
    assert.equal(status(report), 'audited (no expectations); 3 of 3 attacks test nothing');
    const oneTests = { ...report, audits: report.audits.map((a) => ({ ...a, attacks: a.attacks.map((k, i) => (i === 0 ? { ...k, counts: { ...k.counts, rows: { ...k.counts.rows, isolatedEligible: 5 } } } : k)) })) };
    assert.equal(status(oneTests), 'audited (no expectations); 2 of 3 attacks test nothing');
    const allTest = { ...report, audits: report.audits.map((a) => ({ ...a, attacks: a.attacks.map((k) => ({ ...k, counts: { ...k.counts, rows: { ...k.counts.rows, isolatedEligible: 5 } } })) })) };
    assert.equal(status(allTest), 'audited (no expectations)');
  });
});

describe('profilePool', () => {
  const row = (over: Partial<Trajectory>): Trajectory => ({
    id: 't', question_id: 'q', question: 'Q?', steps: [], final: null, gold: { answers: [], support_ids: [] }, meta: {},
    source: { pool: 'p', file: 'p.jsonl', line: 1 }, ...over,
  });

  it('counts the rows that hold each part, and every meta key in first-seen order', () => {
    const profile = profilePool([
      row({ steps: [{ type: 'search', query: 'a', results: ['e:1'] }, { type: 'search', query: 'b', results: [] }], final: { answer: 'x', citations: ['e:1', 'e:2'], text: 'x' }, meta: { b: 1, a: 2 } }),
      row({ final: { answer: ' ', citations: [], text: '' }, gold: { answers: ['x'], support_ids: ['e:1'] }, meta: { a: 3 } }),
      row({}),
    ]);
    assert.deepEqual(
      [profile.rows, profile.withFinal, profile.withAnswer, profile.withCitations, profile.citations, profile.withSteps, profile.withSearches, profile.searches, profile.withRetrieved, profile.withGoldAnswers, profile.withGoldSupport],
      [3, 2, 1, 1, 2, 1, 1, 2, 1, 1, 1],
    );
    assert.deepEqual(profile.meta, [{ key: 'b', rows: 1 }, { key: 'a', rows: 2 }]);
  });
});
