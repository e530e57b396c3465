// An audit end to end whose reward is written with aggregations (docs/language.md, "Aggregations and
// filters"): on samples/deep-research, a reward that counts its costs with `sum … where` and
// `count … where` and scores the answer with `max … else 0` gets, under every attack, exactly the
// figures of the same reward written with `calls` and `token_f1`. The edits delete steps, so the
// aggregations are evaluated again on every edited copy (their read set is the steps).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditSpec, newAuditCaches } from '../../server/src/audit/audit-spec.js';
import { goldenAudit, goldenSpec } from '../helpers/golden-audit.js';

const sampleDir = path.resolve(__dirname, '../../../samples/deep-research');
const specFile = path.join(sampleDir, 'aggregations.reward');
const edits = fs.readFileSync(path.join(sampleDir, 'edits.reward'), 'utf8');
const declarations = edits.slice(0, edits.indexOf('audit deep_edits'));

const spec = `${declarations}
reward costs "the answer's F1, grounded citations, a cost per search and per opened document" {
  f1         1.0  * token_f1(answer, gold.answers)
  grounding  0.4  * grounding(citations, gold.answers)
  searches  -0.05 * calls("search")
  reads     -0.02 * calls("get_document")
}

reward costs_aggregated "the same, written with aggregations" {
  f1         1.0  * (max a in gold.answers: token_f1(answer, a) else 0)
  grounding  0.4  * grounding(citations, gold.answers)
  searches  -0.05 * (sum s in steps where s.tool == "search": 1)
  reads     -0.02 * (count s in steps where s.type == "tool": s.tool == "get_document")
}

audit aggregated "the same reward twice" {
  reward costs
  compare costs_aggregated
  corpus docs
  pools runs
  attack drop_reasoning
  attack skip_reading
  attack stuff_citations
}
`;

describe('an audit of a reward written with aggregations', () => {
  it('finds under every attack the figures of the reward written without them', async () => {
    const outcome = await auditSpec(spec, specFile, { cache: newAuditCaches(), candidateCache: false, workers: 1 });
    assert.deepEqual(outcome.problems.filter((p) => p.severity === 'error'), []);
    const audit = outcome.report?.audits[0];
    assert.ok(audit, 'the audit ran');
    for (const attack of audit.attacks) {
      const of = (reward: string) => attack.results.filter((r) => r.reward === reward).map((r) => ({ selection: r.selection, estimate: r.estimate }));
      assert.ok(of('costs').length > 0, attack.name);
      assert.deepEqual(of('costs_aggregated'), of('costs'), attack.name);
    }
    // Deleting the opened documents saves their cost: the aggregated cost changes under the edit.
    const skip = audit.attacks.find((a) => a.name === 'skip_reading')!.results.find((r) => r.reward === 'costs_aggregated' && r.selection === 'oracle_worst')!;
    assert.ok((skip.estimate.asr ?? 0) > 0, JSON.stringify(skip.estimate));
  });
});

describe('filtered quantifiers over the citations under a citation swap', () => {
  // Laundering swaps one citation, and a quantifier over `citations` then counts from the original's
  // tests (language/citation-tally.ts): with a `where` filter, what it counts must stay the filter's
  // elements, so each filtered form gets the figures of the same test written without a filter.
  const pairs: [string, string][] = [
    ['any x in citations where x in corpus: x not in retrieved', 'any x in citations: x in corpus and x not in retrieved'],
    ['all x in citations where x in corpus: x in retrieved', 'all x in citations: x not in corpus or x in retrieved'],
    ['count x in citations where x in retrieved: true', 'count x in citations: x in retrieved'],
  ];
  const rewards = pairs.flatMap(([filtered, plain], i) => [
    `reward F${i} { g 0.81375 * grounding(citations, gold.answers)  t -0.5 * (${filtered}) }`,
    `reward P${i} { g 0.81375 * grounding(citations, gold.answers)  t -0.5 * (${plain}) }`,
  ]);
  const names = pairs.flatMap((_, i) => [`F${i}`, `P${i}`]);
  const spec = goldenSpec
    .replace('audit a {', `${rewards.join('\n')}\naudit a {`)
    .replace('compare R_L, R_full', `compare R_L, R_full, ${names.join(', ')}`);

  it('gives each filtered quantifier the figures of its plain form, under every attack', () => {
    const audit = goldenAudit(spec);
    for (const attack of audit.attacks) {
      const of = (reward: string) => attack.results.filter((r) => r.reward === reward).map((r) => ({ selection: r.selection, estimate: r.estimate }));
      pairs.forEach((_, i) => {
        assert.ok(of(`P${i}`).length > 0, `${attack.name} P${i}`);
        assert.deepEqual(of(`F${i}`), of(`P${i}`), `${attack.name}: ${pairs[i]![0]}`);
      });
    }
  });
});
