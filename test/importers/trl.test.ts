// The TRL importer on completions Parquet as GRPOTrainer logs them (completions_{step:05d}.parquet:
// step, prompt, completion, one column per reward function, advantage; invented values).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { trlParquet } from './parquet-fixtures.js';
import { fileOf, readFields, reasons, runImporter } from './run-importer.js';

const promptA = 'Answer inside <answer></answer>. Question: Who wrote The Winter Fever?';
const promptB = 'Answer inside <answer></answer>. Question: Where was Zoutal Stobrend born?';

describe('trl importer', () => {
  it('recovers groups from identical prompts within a step and keeps reward columns under meta', async () => {
    const rows = [
      { step: 10, prompt: promptA, completion: '<think>…</think><answer>Jubre Nekaikras</answer>', accuracy_reward: 1, format_reward: 1, advantage: 0.7 },
      { step: 10, prompt: promptB, completion: '<answer>Neipal</answer>', accuracy_reward: 1, format_reward: 1, advantage: 0.5 },
      { step: 10, prompt: promptA, completion: 'Jubre, I think', accuracy_reward: 0, format_reward: 0, advantage: -0.7 },
      { step: 10, prompt: promptB, completion: '<answer>Rukal</answer>', accuracy_reward: 0, format_reward: 1, advantage: -0.5 },
    ];
    const later = [{ step: 20, prompt: promptA, completion: '<answer>Jubre Nekaikras</answer>', accuracy_reward: 1, format_reward: 1, advantage: 0 }];
    const result = await runImporter('trl', [trlParquet('completions/completions_00010.parquet', rows), trlParquet('completions/completions_00020.parquet', later, 'ZSTD'), fileOf('completions/notes.txt', 'hello')]);
    assert.deepEqual(result.counts, { read: 6, imported: 5, skipped: 1, questionIdsDerived: 5, groupsRecovered: 3 });
    assert.deepEqual(reasons(result), ['completions/notes.txt:1: not a Parquet file (no PAR1 magic at its start and end)']);
    const [a0, b0, a1, b1, a2] = result.rows.map((r) => readFields(r.row));
    assert.deepEqual(a0, {
      id: 'completions_00010:0',
      question_id: a2?.question_id,
      question: promptA,
      steps: [{ type: 'reasoning', text: '…' }],
      final: { answer: 'Jubre Nekaikras', citations: [], text: '<think>…</think><answer>Jubre Nekaikras</answer>' },
      gold: { answers: [], support_ids: [] },
      meta: { step: 10, group: '10/0', sample: 0, rewards: { accuracy_reward: 1, format_reward: 1 }, advantage: 0.7, prompt: promptA },
    });
    assert.deepEqual([b0, a1, b1, a2].map((r) => r?.meta), [
      { step: 10, group: '10/1', sample: 0, rewards: { accuracy_reward: 1, format_reward: 1 }, advantage: 0.5, prompt: promptB },
      { step: 10, group: '10/0', sample: 1, rewards: { accuracy_reward: 0, format_reward: 0 }, advantage: -0.7, prompt: promptA },
      { step: 10, group: '10/1', sample: 1, rewards: { accuracy_reward: 0, format_reward: 1 }, advantage: -0.5, prompt: promptB },
      { step: 20, group: '20/0', sample: 0, rewards: { accuracy_reward: 1, format_reward: 1 }, advantage: 0, prompt: promptA },
    ]);
    // No <answer>: the completion is an invalid action and there is no final.
    assert.deepEqual([a1?.steps, a1?.final], [[{ type: 'invalid', text: 'Jubre, I think' }], null]);
    assert.ok(result.notes.some((n) => n.startsWith('3 groups recovered from identical prompts')));
    assert.ok(result.notes.some((n) => n.startsWith('5 question ids derived')));
  });

  it('refuses a Parquet file without prompt and completion columns', async () => {
    const result = await runImporter('trl', [trlParquet('other.parquet', [{ step: 1, text: 'x' }])]);
    assert.deepEqual(reasons(result), ["other.parquet:1: not a TRL completions file: no 'prompt' or 'completion' column"]);
  });
});
