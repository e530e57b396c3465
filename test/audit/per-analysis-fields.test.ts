// Issue 35: a logged field one audit reads made every row of a second audit's pool "skipped", so
// that audit tested nothing. Each analysis requires only the fields it reads, and the one that
// skips rows for a field says so on the pool's link (`field-not-logged`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditSpec } from '../../server/src/audit/audit-spec.js';
import { specFindings } from '../../server/src/findings/spec-findings.js';
import { auditIssueCodes } from '../../server/src/problems/issue-codes.js';
import { marked } from '../helpers/marked.js';
import { jsonl, tempDir } from '../pool/temp-files.js';

const row = (i: number, meta: Record<string, unknown>): Record<string, unknown> => ({
  id: `t${i}`, question_id: `q${i}`, question: 'Where was Ada Roe born?',
  steps: [{ type: 'search', query: 'ada roe born', results: ['e:1'] }],
  final: { answer: 'Lune', citations: ['e:1'], text: 'Lune [e:1]' },
  gold: { answers: ['Lune'], support_ids: ['e:2'] },
  meta,
});

const spec = `corpus c = "c.jsonl"
pool judged = "judged.jsonl"
pool plain = ⟦"plain.jsonl"⟧
field judge "an LLM judge" : number = meta.judge
detector L "cites a real passage it never retrieved" = any x in citations: x in corpus and x not in retrieved
reward R_judged { answer 1 * exact_match(answer, gold.answers)  judged 0.1 * judge }
reward R0 { answer 1 * exact_match(answer, gold.answers) }
audit with_judge { reward R_judged corpus c pools judged, plain attack launder targets L using lexical(1) }
audit without { reward R0 corpus c pools plain attack launder targets L using lexical(1) }
`;

describe('logged fields, per analysis', () => {
  it("an audit that reads no field reads every row of a pool that lacks another audit's field", async () => {
    const folder = tempDir();
    folder.write('c.jsonl', jsonl([{ id: 'e:1', title: 'Ada Roe', text: 'Ada Roe was born in Lune.' }, { id: 'e:2', title: 'Lune', text: 'Lune is a town.' }]));
    folder.write('judged.jsonl', jsonl(Array.from({ length: 6 }, (_, i) => row(i, { judge: 0.5 }))));
    folder.write('plain.jsonl', jsonl(Array.from({ length: 8 }, (_, i) => row(i, {}))));
    const { text, spans } = marked(spec);
    const specFile = folder.write('spec.reward', text);
    const outcome = await auditSpec(text, specFile, { candidateCache: false });
    assert.deepEqual(outcome.problems.filter((p) => p.severity === 'error'), []);
    const pools = Object.fromEntries(outcome.report!.audits.map((a) => [a.name, a.pools.map((p) => [p.name, p.rows, p.skipped, p.missingFields ?? null])]));
    assert.deepEqual(pools, {
      with_judge: [['judged', 6, 0, null], ['plain', 0, 8, [{ field: 'judge', path: 'meta.judge', rows: 8 }]]],
      // Before the fix: ['plain', 0, 8, …]: the audit tested nothing.
      without: [['plain', 8, 0, null]],
    });
    const findings = specFindings({
      model: outcome.model, text, specDir: folder.dir, report: outcome.report, dataIssues: outcome.dataIssues, dataOwners: outcome.dataOwners, failures: outcome.failures,
    }).filter((f) => f.code === auditIssueCodes.fieldNotLogged);
    assert.deepEqual(findings.map((f) => [f.span, f.severity, f.data]), spans.map((span) => [span, 'warning', { field: 'judge', path: 'meta.judge', rows: 8, analysis: 'with_judge' }]));
    assert.match(findings[0]!.message, /^in audit with_judge, 8 rows of plain\.jsonl lack the logged field 'judge' \(meta\.judge\)/);
  });
});
