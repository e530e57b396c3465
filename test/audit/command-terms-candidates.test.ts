// An audit that reads a command term prepares twice with one candidate source (edits/command-terms.ts):
// once to collect the requests, once with the answers. What a candidate file's generator reports of
// the candidates it drops (`candidateNotes`) counts each list once, as in an audit without a command term.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { auditSpec, newAuditCaches } from '../../server/src/audit/audit-spec.js';

const specFile = path.resolve('samples/paper.reward');
const program = path.resolve('test/fixtures/command-terms/reward.mjs');

// The sample's candidates with an id outside the corpus in every list: the file's generator drops one per list.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-terms-candidates-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const candidates = path.join(dir, 'candidates.jsonl');
fs.writeFileSync(candidates, fs.readFileSync(path.resolve('samples/pools/dense-candidates.jsonl'), 'utf8').split('\n').filter((l) => l.trim() !== '')
  .map((line) => {
    const list = JSON.parse(line) as { candidates: string[] };
    return JSON.stringify({ ...list, candidates: ['no-such-passage', ...list.candidates] });
  }).join('\n'));

/** The sample's `sensitivity` audit with its dense-candidates attack only, and `extra` read by a compared reward. */
function spec(extra: string, compared: string): string {
  const text = fs.readFileSync(specFile, 'utf8').replace('"pools/dense-candidates.jsonl"', JSON.stringify(candidates));
  return `${text.replace(/ {2}attack bm25_\d+ = launder targets L using bm25\(\d+\)\n/g, '').replace(/ {2}expect asr\(R_L, bm25_16, oracle_worst\) == 0\n/, '').replace('  reward R0\n  compare R_L\n  corpus wiki\n  pools hotpot', `  reward R0\n  compare R_L, ${compared}\n  corpus wiki\n  pools hotpot`)}\n${extra}\n`;
}

describe('command terms beside a candidates file', () => {
  it('count the candidates the file drops once, as the audit without the program does', async () => {
    const withProgram = spec(`field searched "searches, by a program" : number = command ${JSON.stringify(`node ${program} --value searches`)}\nreward R_C = R0 - 0.01 * searched`, 'R_C');
    const inLanguage = spec('reward R_C = R0 - 0.01 * search_calls', 'R_C');
    const notes = async (text: string): Promise<string[]> => {
      const outcome = await auditSpec(text, specFile, { only: 'sensitivity', cache: newAuditCaches(), candidateCache: false });
      assert.deepEqual(outcome.failures, []);
      return outcome.report?.audits[0]?.attacks.find((a) => a.name === 'dense')?.candidateNotes ?? [];
    };
    const expected = await notes(inLanguage);
    assert.ok(expected.length > 0, 'the file drops some candidates');
    assert.deepEqual(await notes(withProgram), expected);
  });
});
