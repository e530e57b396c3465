// The rllm importer on episode files as utils/episode_logger.py writes them (invented values).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rllmGroup } from '../../server/src/importers/rllm.js';
import { fileOf, passage, readFields, reasons, resolved, runImporter } from './run-importer.js';

const taskId = '5b1e7c0a-93d2-4f61-8a7e-0c2f4d9e1b37';

function episode(rollout: number, final: string, extra: Record<string, unknown> = {}) {
  const w2 = passage('w:2');
  const conversation = [
    { role: 'system', content: 'Answer the question. Use local_search. Put the final answer in \\boxed{}.' },
    { role: 'user', content: 'Who wrote The Winter Fever?' },
    {
      role: 'assistant',
      content: '<think>I should look the novel up.</think>',
      tool_calls: [{ id: `call_${rollout}_0`, type: 'function', function: { name: 'local_search', arguments: JSON.stringify({ query: 'The Winter Fever novel' }) } }],
    },
    { role: 'tool', tool_call_id: `call_${rollout}_0`, name: 'local_search', content: `[Document 1] (ID: w:2, Score: 0.88)\n${w2.text}\n\n[Document 2] (ID: w:1, Score: 0.41)\n${passage('w:1').text}` },
    { role: 'assistant', content: final },
  ];
  return {
    training_step: 12,
    epoch: 0,
    episode_id: `${taskId}:${rollout}`,
    session_id: null,
    task: { question: 'Who wrote The Winter Fever?', ground_truth: ['Jubre Nekaikras'], data_source: 'hotpotqa' },
    task_hash: '9c2f61ab',
    is_correct: final.includes('Jubre'),
    termination_reason: 'ENV_DONE',
    metrics: {},
    metadata: {},
    timing: {},
    trajectories: [{
      name: 'search_agent',
      uid: `traj-${rollout}`,
      reward: final.includes('Jubre') ? 1 : 0,
      num_steps: 2,
      timing: {},
      steps: [
        { observation: null, thought: 'I should look the novel up.', action: null, reward: 0, done: false, model_response: '', model_output: null, chat_completions: conversation.slice(0, 3), timing: {} },
        { observation: null, thought: '', action: null, reward: 1, done: true, model_response: final, model_output: null, chat_completions: conversation, timing: {} },
      ],
    }],
    ...extra,
  };
}

const dir = 'logs/proj/exp/episodes/train_step_12_epoch_0';

describe('rllm importer', () => {
  it('imports episodes: question id = task_hash, group = task id, sample = rollout, gold from task', async () => {
    const files = [
      fileOf(`${dir}/episode_hash9c2f61ab_id${taskId}_0.json`, episode(0, 'It was written by \\boxed{Jubre Nekaikras} [w:2].')),
      fileOf(`${dir}/episode_hash9c2f61ab_id${taskId}_1.json`, episode(1, 'I think \\boxed{Tapaist Dritrous} [w:9999].')),
      fileOf(`${dir}/episode_hash9c2f61ab_id${taskId}_2.json`, '{"training_step": 12, "trajectories": [{"steps": []}]}'),
      fileOf(`${dir}/episode_broken.json`, '{"training_step": 12,'),
      fileOf(`${dir}/episode_task.json`, episode(3, '\\boxed{x}', { task: { question: 'q', ground_truth: { text: 'x' } } })),
    ];
    const result = await runImporter('rllm', files, { citations: 'docid' });
    assert.deepEqual(result.counts, { read: 5, imported: 2, skipped: 3, questionIdsDerived: 0, groupsRecovered: null });
    assert.deepEqual(reasons(result), [
      `${dir}/episode_hash9c2f61ab_id${taskId}_2.json:1: trajectories[0]: no step has chat_completions`,
      `${dir}/episode_broken.json:1: invalid JSON at line 1, column 22: a property name expected`,
      `${dir}/episode_task.json:1: task.ground_truth: expected a string or a list of strings`,
    ]);
    assert.deepEqual(readFields(result.rows[0]?.row), {
      id: `${taskId}:0`,
      question_id: '9c2f61ab',
      question: 'Who wrote The Winter Fever?',
      steps: [
        { type: 'reasoning', text: 'I should look the novel up.' },
        { type: 'search', query: 'The Winter Fever novel', results: [{ id: 'w:2', rank: 1 }, { id: 'w:1', rank: 2 }] },
      ],
      final: { answer: 'Jubre Nekaikras', citations: [{ marker: '[w:2]', id: 'w:2' }], text: 'It was written by \\boxed{Jubre Nekaikras} [w:2].', status: 'ENV_DONE' },
      gold: { answers: ['Jubre Nekaikras'], support_ids: [] },
      meta: { step: 12, group: taskId, sample: 0, split: 'train', reward: 1, is_correct: true, prompt: 'Answer the question. Use local_search. Put the final answer in \\boxed{}.\nWho wrote The Winter Fever?' },
    });
    const loaded = resolved(result.rows.map((r) => r.row));
    assert.deepEqual(loaded.counts?.results, { logged: 4, url: 0, text: 0, title: 0, unresolved: 0 });
    // A docid the corpus lacks is kept as written (F sees it as a fake citation), never dropped.
    assert.deepEqual(loaded.rows[1]?.final?.citations, ['w:9999']);
  });

  it('reads the group from episode_id, else from the file name', () => {
    assert.deepEqual(rllmGroup('abc:3', 'x.json'), { group: 'abc', sample: 3 });
    assert.deepEqual(rllmGroup(undefined, 'd/episode_hash1_idabc_4.json'), { group: 'abc', sample: 4 });
    assert.deepEqual(rllmGroup('plain', 'x.json'), { group: 'plain' });
  });
});
