import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { compareSpec } from '../../server/src/compare/compare-spec.js';
import { comparisonTables } from '../../server/src/render/comparison-tables.js';
import { formatPaperTables } from '../../server/src/render/format-paper-tables.js';
import { newReport } from '../../server/src/report/schema.js';

describe('Table 4 of a comparison (herald compare --tables)', () => {
  it('the seed-runs sample: all rows, then greedy and sampled; metric × benchmark and equal-suite, then the EM gate row', async () => {
    const file = resolve('samples/seed-runs.reward');
    const outcome = await compareSpec(readFileSync(file, 'utf8'), file);
    const report = outcome.reports![0]!;
    const tables = comparisonTables(report);
    assert.deepEqual(tables.map((t) => t.title), ['comparison seeds: Table 4, greedy and sampled together', 'comparison seeds: Table 4, greedy rows', 'comparison seeds: Table 4, sampled rows']);
    assert.deepEqual(tables[0]!.columns, ['metric', 'hotpot', '2wiki', 'musique', 'equal-suite']);
    assert.equal(tables[0]!.rows.length, report.metrics.length + 1);
    const em = report.metrics.find((m) => m.key === 'em')!.cells.find((c) => c.benchmark === 'equal-suite')!;
    const emRow = tables[0]!.rows.find((r) => r[0] === 'EM ↑')!;
    assert.ok(emRow[4]!.startsWith((em.difference! * 100).toFixed(2).replace(/^(\d)/, '+$1')), emRow[4]);
    assert.match(tables[0]!.rows.at(-1)![0]!, /^EM NI/);
    assert.match(tables[0]!.note, /3 base and 3 treatment runs/);
    // Attackability both ways: the oracle-worst edit wins whenever the first-visible one does.
    const first = report.metrics.find((m) => m.key === 'attackability:launder')!;
    const worst = report.metrics.find((m) => m.key === 'attackability_oracle_worst:launder')!;
    assert.match(worst.label, /oracle-worst attackability \(R0; oracle upper bound\)/);
    first.cells.forEach((c, i) => {
      assert.equal(worst.cells[i]!.benchmark, c.benchmark);
      assert.ok(worst.cells[i]!.base! >= c.base! && worst.cells[i]!.treatment! >= c.treatment!, c.benchmark);
    });
    const markdown = formatPaperTables(newReport('seed-runs.reward', { audits: [], comparisons: [report] }), 'markdown');
    assert.equal((markdown.match(/^\| metric \|/gm) ?? []).length, 3);
  });
});
