import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { newSpecText, placeholderCorpus, poolNames } from '../../client/src/new-spec-template.js';
import { auditSpec } from '../../server/src/audit/audit-spec.js';
import { probeFile } from '../../server/src/inputs/file-probe.js';
import { LineIndex } from '../../server/src/problems/line-index.js';
import { analyze } from '../../server/src/semantics/analyze.js';

// What "HERALD: New Spec" writes (client/src/new-spec-template.ts), held to the real checker and the
// real audit: a clean spec over the walkthrough's pools, and one precise error while no corpus is set.

const repoRoot = path.resolve(__dirname, '../../..');
const pools = path.join(repoRoot, 'walkthrough/sample/pools');

describe('the New Spec template', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-new-spec-'));
  fs.cpSync(pools, path.join(dir, 'logs'), { recursive: true });
  const specFile = path.join(dir, 'mine.reward');
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('names each pool after its file, never after a keyword, a built-in or another declaration', () => {
    assert.deepEqual(
      poolNames(['hotpot.jsonl', 'logs/model-qwen3-1.7b.jsonl', '2wiki.jsonl', 'answer.jsonl', 'other/answer.jsonl', 'corpus.jsonl', 'L.jsonl', '.jsonl', 'hotpot.JSONL']),
      ['hotpot', 'model_qwen3_1_7b', 'pool_2wiki', 'answer_2', 'answer_3', 'corpus_2', 'L_2', 'pool_2', 'hotpot_2'],
    );
  });

  it('checks clean and audits over the chosen pools and corpus', async () => {
    const text = newSpecText({ pools: ['logs/hotpot.jsonl', 'logs/2wiki.jsonl'], corpus: 'logs/corpus.jsonl' });
    const { problems } = analyze(text, { specFile, probeFile });
    assert.deepEqual(problems.map((p) => `${p.severity} ${p.code}: ${p.message}`), []);
    assert.ok(text.includes('pool hotpot     = "logs/hotpot.jsonl"\npool pool_2wiki = "logs/2wiki.jsonl"\n'), text);
    const outcome = await auditSpec(text, specFile, { candidateCache: false });
    assert.deepEqual(outcome.failures, []);
    const audit = outcome.report?.audits[0];
    assert.equal(audit?.name, 'main');
    assert.deepEqual(audit?.attacks.map((a) => a.name), ['same_final', 'fake_id', 'launder']);
    assert.deepEqual(audit?.pools.map((p) => [p.name, p.rows]), [['hotpot', 160], ['pool_2wiki', 160]]);
  });

  it('without a corpus, links a placeholder that the checker flags on its line, and nothing else', () => {
    const text = newSpecText({ pools: ['logs/hotpot.jsonl'], corpus: undefined });
    const { problems } = analyze(text, { specFile, probeFile });
    assert.deepEqual(problems.map((p) => [p.severity, p.code]), [['error', 'missing-file']]);
    const lines = new LineIndex(text);
    const line = text.split('\n')[lines.position(problems[0]!.span.start).line];
    assert.equal(line, `corpus wiki = "${placeholderCorpus}"`);
  });
});
