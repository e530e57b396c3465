import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditSpec, newAuditCaches, type AuditCaches } from '../../server/src/audit/audit-spec.js';
import { PreparedAudits } from '../../server/src/audit/prepared-audits.js';
import { jsonl, tempDir } from '../pool/temp-files.js';

// The audit's kept results (audit/prepared-audits.ts) against a run from scratch: after each kind
// of edit of the paper's sample, the report of the run that reuses what it kept is the report of a
// fresh run of the edited spec, byte for byte, and the run reused as much as the edit allows.

const specFile = path.resolve(__dirname, '../../../samples/paper.reward');
// One of the audit's four pools keeps the test short; the edits are the same.
const base = fs.readFileSync(specFile, 'utf8').replace('pools hotpot, wiki2, musique5, musique8', 'pools hotpot');

/** How a run went, from its progress messages. */
type Path = 'placed' | 're-scored' | 'patched' | 'revisited' | 'rebuilt' | 'prepared';

async function audit(text: string, cache: AuditCaches): Promise<{ json: string; path: Path }> {
  const messages: string[] = [];
  const outcome = await auditSpec(text, specFile, { cache, only: 'paper', candidateCache: false, onProgress: (m) => messages.push(m) });
  assert.ok(outcome.report !== undefined, JSON.stringify(outcome.problems.filter((p) => p.severity === 'error').slice(0, 2)));
  const said = (fragment: string): boolean => messages.some((m) => m.includes(fragment));
  const path: Path = said('nothing it reads changed') ? 'placed' : said('evaluating') || said('building edits') ? 'prepared' : said('every edit built again') ? 'rebuilt' : said('on the originals and the kept edits') ? 'revisited' : said('new features on the originals') ? 'patched' : 're-scored';
  return { json: JSON.stringify(outcome.report), path };
}

function edited(find: string, replace: string): string {
  assert.ok(base.includes(find), `the sample has ${JSON.stringify(find)}`);
  return base.replace(find, replace);
}

const edits: readonly { what: string; text: string; path: Path }[] = [
  { what: 'a comment line added above the audit (every line after it moves)', text: edited('audit paper ', '# one more line\naudit paper '), path: 'placed' },
  { what: "a comment's text", text: edited('# Exact visible detectors', '# Exact, visible detectors'), path: 'placed' },
  { what: 'the layout of an expectation', text: edited('expect asr(R_L, launder, oracle_worst) == 0', 'expect   asr(R_L,launder, oracle_worst)   ==   0'), path: 'placed' },
  { what: 'a declaration the audit does not read', text: `${base}\nsignal unused_here "not read by the audit" = search_calls > 9\n`, path: 'placed' },
  { what: 'a weight', text: edited('tool_cost  -0.03  * search_calls', 'tool_cost  -0.04  * search_calls'), path: 're-scored' },
  { what: 'a penalty of the lattice', text: edited('lattice U = 0.5, L = 1.2, F = 1.0', 'lattice U = 0.5, L = 1.3, F = 1.0'), path: 're-scored' },
  { what: 'an expected value (judged against the kept report)', text: edited('<= 20%', '<= 1%'), path: 'placed' },
  { what: 'an expect line added', text: edited('  expect minimal_repair == {L}\n', '  expect minimal_repair == {L}\n  expect worst_margin(R_L, same_final, first_visible) < 0\n'), path: 'placed' },
  // The paper's same_final writes the steps (it drops the searches) and fake_id and launder the
  // citations and the final text: a term over the answer alone is one no edit changes.
  { what: 'a term over parts no attack writes', text: edited('1.0   * token_f1(answer, gold.answers)', '1.0   * exact_match(answer, gold.answers)'), path: 'patched' },
  { what: 'a term added', text: edited('  invalid    -0.1   * invalid_actions\n', '  invalid    -0.1   * invalid_actions\n  covered     0.2   * cover_match(answer, gold.answers)\n'), path: 'patched' },
  { what: 'a term removed', text: edited('  invalid    -0.1   * invalid_actions\n', ''), path: 'patched' },
  // Eligibility and isolation read the detectors alone: the kept edits are built again and only the
  // new term is evaluated on them.
  { what: 'a term over parts an attack writes', text: edited('-0.03  * search_calls', '-0.03  * min(search_calls, 4)'), path: 'revisited' },
  { what: 'a signal a term reads through its rate', text: edited('signal invalid_action "at least one invalid action" = invalid_actions > 0', 'signal invalid_action "at least one invalid action" = invalid_actions > 1'), path: 'revisited' },
  { what: "a detector's definition", text: edited('has_final and answer != "" and search_calls == 0', 'has_final and answer != "" and search_calls < 1'), path: 'rebuilt' },
  // Every edit is built again, only the changed detector evaluated on it (the others' values are
  // kept per edit), and only a newly kept edit's other terms.
  { what: "the definition of a detector two attacks target and the third keeps unchanged", text: edited('any c in citations: c in corpus and c not in retrieved', '(count c in citations: c in corpus and c not in retrieved) >= 2'), path: 'rebuilt' },
  { what: "a detector's definition widened", text: edited('= any c in citations: c not in corpus', '= any c in citations: c not in corpus or c in retrieved'), path: 'rebuilt' },
  { what: 'a detector and a term an attack changes, together', text: edited('any c in citations: c in corpus and c not in retrieved', '(count c in citations: c in corpus and c not in retrieved) >= 2').replace('-0.03  * search_calls', '-0.03  * min(search_calls, 4)'), path: 'rebuilt' },
  { what: "a string's inner spaces (not layout)", text: edited('"cites an id that is not in the corpus"', '"cites an id that is  not in the corpus"'), path: 'rebuilt' },
  { what: "an attack's generator", text: edited('using lexical(8)', 'using lexical(6)'), path: 'prepared' },
];

describe('kept audits: reused as far as an edit allows, and equal to a fresh run', () => {
  for (const edit of edits) {
    it(`after ${edit.what}: ${edit.path}, and the same report as from scratch`, async () => {
      const cache = newAuditCaches();
      await audit(base, cache);
      const reused = await audit(edit.text, cache);
      const fresh = await audit(edit.text, newAuditCaches());
      assert.equal(fresh.path, 'prepared');
      assert.equal(reused.json, fresh.json);
      assert.equal(reused.path, edit.path);
    });
  }
});

describe('earlier preparations, kept while they fit', () => {
  it("undoing a detector's edit finds the preparation before it: the report placed again, as a fresh run gives it", async () => {
    const cache = newAuditCaches();
    const before = await audit(base, cache);
    const detector = edited('has_final and answer != "" and search_calls == 0', 'has_final and answer != "" and search_calls < 1');
    assert.equal((await audit(detector, cache)).path, 'rebuilt');
    const undone = await audit(base, cache);
    assert.equal(undone.path, 'placed');
    assert.equal(undone.json, before.json);
    assert.equal((await audit(detector, cache)).path, 'placed', 'and redoing it finds the detector\'s');
  });

  it('keeps no earlier preparation past its budget, and always the latest', async () => {
    const cache: AuditCaches = { inputs: newAuditCaches().inputs, prepared: new PreparedAudits(1) };
    await audit(base, cache);
    const detector = edited('has_final and answer != "" and search_calls == 0', 'has_final and answer != "" and search_calls < 1');
    await audit(detector, cache);
    assert.equal((await audit(base, cache)).path, 'rebuilt', 'the earlier preparation did not fit in one byte: the latest is patched');
    assert.equal((await audit(base, cache)).path, 'placed', 'the latest is kept whatever its size');
  });
});

describe('kept audits over logged fields: the rows a field leaves out', () => {
  // A copy of the sample's first rows, each with a logged score but one, which the audit leaves out.
  const temp = tempDir();
  const rows = fs.readFileSync(path.resolve(__dirname, '../../../samples/pools/hotpot.jsonl'), 'utf8').split('\n').slice(0, 400).map((line, i) => {
    const row = JSON.parse(line) as { meta: Record<string, unknown> };
    if (i !== 7) row.meta['score'] = (i % 5) / 4;
    if (i % 3 === 0) row.meta['bonus'] = 1;
    return JSON.stringify(row);
  });
  temp.write('pool.jsonl', jsonl(rows));
  temp.write('corpus.jsonl', fs.readFileSync(path.resolve(__dirname, '../../../samples/pools/corpus.jsonl')));
  const fieldsFile = path.join(temp.dir, 'fields.reward');
  const spec = `corpus wiki = "corpus.jsonl"
pool p = "pool.jsonl"
field score "the logged score" : number = meta.score
field bonus "a bonus a third of the rows log" : number = meta.bonus depends on question
detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved
reward R0 {
  answer 1.0 * token_f1(answer, gold.answers)
  logged 0.3 * score
}
reward R_L = R0 - 1.2 * L
audit fields {
  reward R0
  compare R_L
  corpus wiki
  pools p
  attack launder targets L using lexical(4)
  lattice L = 1.2
}
`;

  async function outcomeOf(text: string, cache: AuditCaches): Promise<string> {
    const outcome = await auditSpec(text, fieldsFile, { cache, candidateCache: false });
    assert.ok(outcome.report !== undefined);
    return JSON.stringify({ report: outcome.report, dataIssues: outcome.dataIssues });
  }

  for (const [what, text] of [
    ['a weight', spec.replace('0.3 * score', '0.4 * score')],
    ['a comment', `# a comment\n${spec}`],
    ['a term over a field the audit reads already', spec.replace('0.3 * score', '0.3 * min(score, 0.5)')],
    ['a term over a field the audit did not read (it leaves out other rows)', spec.replace('  logged 0.3 * score\n', '  logged 0.3 * score\n  extra  0.1 * bonus\n')],
  ] as const) {
    it(`after ${what}: the same report and the same rows left out as a fresh run`, async () => {
      const cache = newAuditCaches();
      await outcomeOf(spec, cache);
      assert.equal(await outcomeOf(text, cache), await outcomeOf(text, newAuditCaches()));
    });
  }
});
