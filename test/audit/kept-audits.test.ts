import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditSpec, newAuditCaches, type AuditCaches } from '../../server/src/audit/audit-spec.js';

// The audit's kept results (audit/prepared-audits.ts) against a run from scratch: after each kind
// of edit of the paper's sample, the report of the run that reuses what it kept is the report of a
// fresh run of the edited spec, byte for byte, and the run reused as much as the edit allows.

const specFile = path.resolve(__dirname, '../../../samples/paper.reward');
// One of the audit's four pools keeps the test short; the edits are the same.
const base = fs.readFileSync(specFile, 'utf8').replace('pools hotpot, wiki2, musique5, musique8', 'pools hotpot');

/** How a run went, from its progress messages. */
type Path = 'placed' | 're-scored' | 'patched' | 'prepared';

async function audit(text: string, cache: AuditCaches): Promise<{ json: string; path: Path }> {
  const messages: string[] = [];
  const outcome = await auditSpec(text, specFile, { cache, only: 'paper', candidateCache: false, onProgress: (m) => messages.push(m) });
  assert.ok(outcome.report !== undefined, JSON.stringify(outcome.problems.filter((p) => p.severity === 'error').slice(0, 2)));
  const said = (fragment: string): boolean => messages.some((m) => m.includes(fragment));
  const path: Path = said('nothing it reads changed') ? 'placed' : said('evaluating') || said('building edits') ? 'prepared' : said('new features on the originals') ? 'patched' : 're-scored';
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
  { what: 'an expected value', text: edited('<= 20%', '<= 25%'), path: 're-scored' },
  // The paper's same_final writes the steps (it drops the searches) and fake_id and launder the
  // citations and the final text: a term over the answer alone is one no edit changes.
  { what: 'a term over parts no attack writes', text: edited('1.0   * token_f1(answer, gold.answers)', '1.0   * exact_match(answer, gold.answers)'), path: 'patched' },
  { what: 'a term added', text: edited('  invalid    -0.1   * invalid_actions\n', '  invalid    -0.1   * invalid_actions\n  covered     0.2   * cover_match(answer, gold.answers)\n'), path: 'patched' },
  { what: 'a term removed', text: edited('  invalid    -0.1   * invalid_actions\n', ''), path: 'patched' },
  { what: 'a term over parts an attack writes', text: edited('-0.03  * search_calls', '-0.03  * min(search_calls, 4)'), path: 'prepared' },
  { what: 'a signal a term reads through its rate', text: edited('signal invalid_action "at least one invalid action" = invalid_actions > 0', 'signal invalid_action "at least one invalid action" = invalid_actions > 1'), path: 'prepared' },
  { what: "a detector's definition", text: edited('has_final and answer != "" and search_calls == 0', 'has_final and answer != "" and search_calls < 1'), path: 'prepared' },
  { what: "a string's inner spaces (not layout)", text: edited('"cites an id that is not in the corpus"', '"cites an id that is  not in the corpus"'), path: 'prepared' },
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
