// Issue 33, item 4: the two Parquet bombs end to end. `herald import` under a 512 MB heap refuses
// each within seconds and exits normally (it used to abort out of memory at 2.2 GB after two minutes,
// and at 4.4 GB); a spec's `pool … from trl` in an untrusted workspace gets the refusal as a problem
// on the pool's link, not a crash. Runs the built CLI (npm run build first, like test/cli).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditSpec } from '../../server/src/audit/audit-spec.js';
import { specFindings } from '../../server/src/findings/spec-findings.js';
import { WorkspaceTrust } from '../../server/src/inputs/trust.js';
import { auditIssueCodes } from '../../server/src/problems/issue-codes.js';
import { maxParquetRows } from '../../server/src/problems/limits.js';
import { tempDir } from '../pool/temp-files.js';
import { billionRowClaim, repeatedRows } from './parquet-fixtures.js';

const herald = path.resolve('dist/herald.js');
const corpus = path.resolve('samples/pools/corpus.jsonl');
const rowLimit = `at most ${maxParquetRows.toLocaleString('en-US')} rows per Parquet file (see Limits in docs/language.md)`;

describe('Parquet bombs, end to end', () => {
  const folder = tempDir();
  const bombs = [
    { name: 'billion.parquet', bytes: billionRowClaim('billion.parquet').bytes, rows: '1,000,000,000' },
    { name: 'repeated.parquet', bytes: repeatedRows('repeated.parquet', 5_000_000).bytes, rows: '5,000,000' },
  ];
  for (const bomb of bombs) folder.write(bomb.name, Buffer.from(bomb.bytes));

  for (const bomb of bombs) {
    it(`herald import of ${bomb.name} (${bomb.bytes.length} bytes) under a 512 MB heap: refused in seconds, no out-of-memory abort`, () => {
      const start = performance.now();
      const run = spawnSync(process.execPath, ['--max-old-space-size=512', herald, 'import', '--from', 'trl', bomb.name, '--out', '-'], { cwd: folder.dir, encoding: 'utf8', timeout: 60_000 });
      const seconds = (performance.now() - start) / 1000;
      assert.deepEqual([run.signal, run.status], [null, 1], run.stderr.slice(-2000));
      assert.ok(run.stderr.split('\n').includes(`  ${bomb.name}:1: skipped: too large to read: the footer claims ${bomb.rows} rows; ${rowLimit}`), run.stderr);
      assert.ok(seconds < 20, `${seconds.toFixed(1)} s`);
    });
  }

  it('a spec whose pool is imported from a bomb, in an untrusted workspace: a bad-rows problem on the pool declaration, no crash', async () => {
    const spec = `corpus wiki = "corpus.jsonl"
pool completions = "billion.parquet" from trl

detector U "nonempty final answer and no search at all" = has_final and answer != "" and search_calls == 0
reward R0 { answer 1.0 * token_f1(answer, gold.answers) }

audit a {
  reward R0
  corpus wiki
  pools completions
  attack same_final targets U
  lattice U = 0.5
}
`;
    folder.write('corpus.jsonl', fs.readFileSync(corpus));
    const specFile = folder.write('spec.reward', spec);
    const outcome = await auditSpec(spec, specFile, { candidateCache: false, trust: WorkspaceTrust.of([folder.dir]) });
    assert.deepEqual(outcome.problems.filter((p) => p.severity === 'error'), []);
    const reason = `too large to read: the footer claims 1,000,000,000 rows; ${rowLimit}`;
    assert.deepEqual(outcome.dataIssues.map((i) => [path.basename(i.file), i.line, i.reason]), [['billion.parquet', 1, reason]]);
    const findings = specFindings({ model: outcome.model, text: spec, specDir: folder.dir, report: outcome.report, dataIssues: outcome.dataIssues, dataOwners: outcome.dataOwners, failures: outcome.failures });
    const badRows = findings.filter((f) => f.code === auditIssueCodes.badRows);
    assert.equal(badRows.length, 1);
    assert.equal(spec.slice(badRows[0]!.span.start, badRows[0]!.span.end), 'pool completions = "billion.parquet" from trl');
    assert.ok(badRows[0]!.message.includes(reason), badRows[0]!.message);
  });
});
