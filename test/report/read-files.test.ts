// What reading a pool took, in every view: the report's `resolution` and `import` sections (absent
// for a v1 pool), the `unresolved-ids` and `pool-imported` findings on the pool's link, the table's
// line, the HTML card and the CLI's stderr.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditSpec } from '../../server/src/audit/audit-spec.js';
import { specFindings } from '../../server/src/findings/spec-findings.js';
import { auditIssueCodes } from '../../server/src/problems/issue-codes.js';
import { formatHtml } from '../../server/src/render/format-html.js';
import { formatTable } from '../../server/src/render/format-table.js';
import { report as reportSchema, type Report } from '../../server/src/report/schema.js';
import { signalSpec } from '../../server/src/signal/signal-spec.js';
import { marked } from '../helpers/marked.js';
import { v2Corpus, v2Resolution, v2Rows, v2Skipped, v2Spec } from '../helpers/v2-pool.js';
import { jsonl, poolRow, tempDir } from '../pool/temp-files.js';

function workspace(spec: string): { dir: string; specFile: string } {
  const folder = tempDir();
  folder.write('corpus.jsonl', jsonl(v2Corpus));
  folder.write('v2.jsonl', jsonl(v2Rows));
  folder.write('v1.jsonl', jsonl([poolRow('a', { meta: { judge: 1 } }), poolRow('b', { meta: { judge: 0 } })]));
  return { dir: folder.dir, specFile: folder.write('spec.reward', spec) };
}

async function audited(spec: string) {
  const { dir, specFile } = workspace(spec);
  const outcome = await auditSpec(spec, specFile, { candidateCache: false });
  assert.ok(outcome.report, JSON.stringify(outcome.problems));
  const findings = specFindings({ model: outcome.model, text: spec, specDir: dir, report: outcome.report, dataIssues: outcome.dataIssues, dataOwners: outcome.dataOwners, failures: outcome.failures });
  return { dir, report: outcome.report, findings };
}

const imported = (report: Report): Report => ({
  ...report,
  audits: report.audits.map((a) => ({ ...a, pools: a.pools.map((p) => ({ ...p, import: { format: 'verl', counts: { read: 60, imported: 58, skipped: 2, questionIdsDerived: 58, groupsRecovered: 12 }, notes: ['question ids derived from the prompt text'] } })) })),
});

describe('a pool\'s resolution and import in the report', () => {
  it('a v1 pool: neither section, not even as a key', async () => {
    const { report } = await audited(v2Spec('corpus.jsonl', 'v1.jsonl'));
    const pool = report.audits[0]!.pools[0]!;
    assert.deepEqual(Object.keys(pool), ['name', 'file', 'rows', 'questions', 'skipped', 'issues', 'profile']);
  });

  it('a v2 pool: results by url, text and title, a marker by rank, the rows skipped and the unresolved notes, exactly', async () => {
    const { report } = await audited(v2Spec());
    const pool = report.audits[0]!.pools[0]!;
    assert.deepEqual(pool.resolution, v2Resolution);
    assert.equal(pool.import, undefined);
    assert.deepEqual([pool.rows, pool.skipped], [3, 2]);
    assert.deepEqual(pool.issues.map((i) => ({ line: i.line, reason: i.reason })), v2Skipped);
    reportSchema.parse(JSON.parse(JSON.stringify(report)));
  });

  it('a training log says the same (one builder for every section)', async () => {
    const spec = v2Spec().replace(/audit a \{[^}]*\}\n/, 'training t {\n  reward R_L\n  corpus c\n  log v2\n  min_groups 1\n}\n');
    const { specFile } = workspace(spec);
    const outcome = await signalSpec(spec, specFile);
    assert.deepEqual(outcome.reports?.[0]?.logs[0]?.resolution, v2Resolution);
  });
});

describe('what reading a pool took, as findings', () => {
  it('unresolved-ids: a warning on the pool\'s link, naming the rows', async () => {
    const { text, spans } = marked(v2Spec().replace('pool v2 = "v2.jsonl"', 'pool v2 = ⟦"v2.jsonl"⟧'));
    const { dir, findings } = await audited(text);
    const found = findings.filter((f) => f.code === auditIssueCodes.unresolvedIds);
    assert.deepEqual(found.map((f) => f.span), spans);
    assert.equal(found[0]!.severity, 'warning');
    assert.equal(found[0]!.message, `v2.jsonl: 2 results did not resolve against the corpus (1 row kept without them); 1 row skipped for a citation marker that did not resolve: v2.jsonl:2: ${v2Resolution.notes[0]!.reason}`);
    assert.deepEqual(found[0]!.rows, [{ file: path.join(dir, 'v2.jsonl'), line: 2, message: v2Resolution.notes[0]!.reason }]);
    // The skipped rows stay bad-rows, once each.
    assert.deepEqual(findings.filter((f) => f.code === auditIssueCodes.badRows).flatMap((f) => (f.rows ?? []).map((r) => r.line)), [3, 4]);
  });

  it('pool-imported: information on the link with the counts; none for a pool read as is', async () => {
    const { text, spans } = marked(v2Spec().replace('pool v2 = "v2.jsonl"', 'pool v2 = ⟦"v2.jsonl"⟧'));
    const { dir, report, findings } = await audited(text);
    assert.deepEqual(findings.filter((f) => f.code === auditIssueCodes.poolImported), []);
    const { model } = await auditSpec(text, path.join(dir, 'spec.reward'), { candidateCache: false });
    const withImport = specFindings({ model, text, specDir: dir, report: imported(report), dataIssues: [], dataOwners: new Map(), failures: [] }).filter((f) => f.code === auditIssueCodes.poolImported);
    assert.deepEqual(withImport.map((f) => [f.span, f.severity, f.message]), [[spans[0], 'information',
      'v2.jsonl: imported 58 of 60 records from verl; 2 skipped; question ids derived for 58; 12 groups recovered; question ids derived from the prompt text']]);
  });
});

describe('what reading a pool took, in the table and the HTML page', () => {
  it('the table: one line per pool that has something to say, none for a v1 pool', async () => {
    const { report } = await audited(v2Spec());
    const table = formatTable(imported(report));
    const line = table.split('\n').filter((l) => /^\s+read\s/.test(l));
    assert.equal(line.length, 1, table);
    // Wrapped at the page width: read as one paragraph.
    assert.match(table.replace(/\s+/g, ' '), / read v2: imported 58 of 60 records from verl; 2 skipped; question ids derived for 58; 12 groups recovered; ids: results 4 logged, 1 by url, 1 by text, 1 by title, 2 unresolved; citations 3 logged, 1 by rank, 1 unresolved — 2 results did not resolve against the corpus \(1 row kept without them\); 1 row skipped for a citation marker that did not resolve clusters /);
    const v1 = await audited(v2Spec('corpus.jsonl', 'v1.jsonl'));
    assert.doesNotMatch(formatTable(v1.report), /^\s+read\s/m);
  });

  it('the HTML page: a card with the counts and each unresolved row linked to its line', async () => {
    const { report } = await audited(v2Spec());
    const html = formatHtml(imported(report));
    assert.match(html, /<figure class="card wide read-files"><h3>Imports and ids<\/h3>/);
    assert.match(html, /imported 58 of 60 records from verl/);
    assert.match(html, /<li class="unresolved-row" data-row-file="v2\.jsonl" data-row-line="2"><code>v2\.jsonl:2<\/code>: 1 result not resolved/);
    const v1 = await audited(v2Spec('corpus.jsonl', 'v1.jsonl'));
    assert.doesNotMatch(formatHtml(v1.report), /read-files/);
  });
});

describe('what reading a pool took, on the CLI\'s stderr', () => {
  const herald = path.resolve('dist/herald.js');
  const run = (args: string[], cwd: string) => spawnSync(process.execPath, [herald, ...args], { cwd, encoding: 'utf8' });

  it('herald audit: the finding on the link, then the rows, like skipped rows', () => {
    const { dir } = workspace(v2Spec());
    const result = run(['audit', 'spec.reward', '--quiet', '--format', 'json'], dir);
    assert.match(result.stderr, /^spec\.reward:2:11: warning unresolved-ids v2\.jsonl: 2 results did not resolve against the corpus/m);
    assert.match(result.stderr, /^ {2}v2\.jsonl:2: 1 result not resolved to a corpus passage, so not used as ids: steps\[0\]\.results\[0\] \(rank 1\): no passage has its title$/m);
    assert.match(result.stderr, /^ {2}v2\.jsonl:3: skipped row: final\.citations\[0\]: citation marker not resolved/m);
    assert.deepEqual(reportSchema.parse(JSON.parse(result.stdout)).audits[0]!.pools[0]!.resolution, v2Resolution);
  });

  it('herald signal --log: a log no declaration links, said as herald: lines', () => {
    const spec = v2Spec().replace(/audit a \{[^}]*\}\n/, 'training t {\n  reward R_L\n  corpus c\n  log v2\n  min_groups 1\n}\n');
    const { dir } = workspace(spec);
    fs.copyFileSync(path.join(dir, 'v2.jsonl'), path.join(dir, 'run.jsonl'));
    const result = run(['signal', 'spec.reward', '--log', 'run.jsonl', '--format', 'json'], dir);
    assert.match(result.stderr, /^herald: run\.jsonl: 2 results did not resolve against the corpus \(1 row kept without them\); 1 row skipped for a citation marker that did not resolve$/m);
    assert.match(result.stderr, /^ {2}run\.jsonl:2: 1 result not resolved/m);
  });
});
