import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tableCsv, tableMarkdown, table2, table3, type PaperTable } from '../../server/src/render/paper-tables.js';
import { goldenAudit, goldenSpec } from '../helpers/golden-audit.js';

const table: PaperTable = {
  id: 'robustness', audit: 'a', title: 'audit a: pool-selection robustness', note: 'n = 2 | common',
  columns: ['selection', 'n', 'first-visible', 'ow mean margin'],
  rows: [['best(R0)', '2', '0.00% (≤ 77.64%)', '−0.40500'], ['first, "quoted"', '0', 'n/a', 'n/a']],
};

describe('the paper tables as CSV and Markdown', () => {
  it('writes RFC 4180 CSV with ASCII minus signs', () => {
    assert.equal(tableCsv(table), [
      'selection,n,first-visible,ow mean margin',
      'best(R0),2,0.00% (≤ 77.64%),-0.40500',
      '"first, ""quoted""",0,n/a,n/a',
      '',
    ].join('\r\n'));
  });

  it('writes a Markdown table with figures right-aligned and pipes escaped', () => {
    assert.equal(tableMarkdown(table), [
      '**audit a: pool-selection robustness**', '', '*n = 2 \\| common*', '',
      '| selection | n | first-visible | ow mean margin |',
      '| --- | ---: | ---: | ---: |',
      '| best(R0) | 2 | 0.00% (≤ 77.64%) | −0.40500 |',
      '| first, "quoted" | 0 | n/a | n/a |',
      '',
    ].join('\n'));
  });

  it('Table 2 has one row per attack × reward, first-visible and oracle-worst side by side, n from the estimates', () => {
    const audit = goldenAudit(goldenSpec.replace('  bootstrap 200', '  bootstrap 200\n  clusters common'));
    const t = table2(audit);
    assert.equal(t.rows.length, audit.attacks.length * 3);
    assert.deepEqual(t.columns, ['attack', 'reward', 'n', 'first-visible', 'fv mean margin', 'fv label', 'oracle-worst', 'ow mean margin', 'ow label', 'ow strict']);
    assert.match(t.note, new RegExp(`^n = ${audit.clusterSet!.clusters} question clusters isolated-eligible for every attack`));
    const launderR0 = audit.attacks.find((a) => a.name === 'launder')!.results.find((r) => r.reward === 'R0' && r.selection === 'first_visible')!;
    assert.deepEqual(t.rows[0]!.slice(0, 3), ['launder', 'R0', String(launderR0.estimate.clusters)]);
  });

  it('Table 3 has a row per laundering attack × reward with its generators, only when there are several', () => {
    assert.equal(table3(goldenAudit()), undefined);
    const two = goldenAudit(goldenSpec.replace('  attack launder targets L using lexical(4)\n', '  attack launder targets L using lexical(4)\n  attack lex1 = launder targets L using lexical(1)\n'));
    const t = table3(two);
    assert.ok(t);
    assert.deepEqual(t.rows.map((r) => r.slice(0, 3)), [
      ['launder', 'lexical(4)', 'R0'], ['launder', 'lexical(4)', 'R_L'], ['launder', 'lexical(4)', 'R_full'],
      ['lex1', 'lexical(1)', 'R0'], ['lex1', 'lexical(1)', 'R_L'], ['lex1', 'lexical(1)', 'R_full'],
    ]);
  });
});
