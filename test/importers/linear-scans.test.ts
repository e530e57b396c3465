// Importers read each text once: unclosed tags, tool outputs matched to calls and skipped records
// cost linear time. Each input is generated here, past a megabyte, with a bound on CPU time that
// the old code missed by minutes (a lazy `<think>(.*?)</think>` rescanned the rest of the text from
// every unclosed tag; each call searched every message for its output).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractAnswer, splitThink } from '../../server/src/importers/chat-final.js';
import type { ChatMessage } from '../../server/src/importers/chat-messages.js';
import { chatTrajectory } from '../../server/src/importers/chat-trajectory.js';
import type { ChatRules } from '../../server/src/importers/chat-trajectory.js';
import { trlParquet } from './parquet-fixtures.js';
import { cpuTimed, fileOf, runImporter } from './run-importer.js';

const tags = 200_000;
const rules: ChatRules = { searchTools: new Set(['search']), answer: 'whole', citations: 'none' };

describe('importers: unclosed tags are read in one pass', () => {
  it('splitThink and the answer_tag rule on 200,000 unclosed tags (1.4 MB) in under 2 s', async () => {
    const think = '<think>'.repeat(tags);
    const answer = '<answer>'.repeat(tags);
    const { result, ms } = await cpuTimed(() => [splitThink(think), extractAnswer(answer, 'answer_tag'), extractAnswer(`${think}x`, 'whole')]);
    assert.deepEqual(result, [{ thoughts: [], rest: think }, undefined, `${think}x`]);
    assert.ok(ms < 2_000, `${ms} ms`);
  });

  it('pairs tags as the lazy regular expression did', () => {
    assert.deepEqual(splitThink('a<think> x </think>b<think>y<think>z</think>c<think>open'), { thoughts: ['x', 'y<think>z'], rest: 'abc<think>open' });
    assert.equal(extractAnswer('<answer>a</answer><answer>b <answer>c</answer><answer>d', 'answer_tag'), 'b <answer>c');
  });

  it('rllm, ART and TRL records with 200,000 unclosed <think> and <answer> tags import within 5 s each', async () => {
    const content = `${'<think>'.repeat(tags)}${'<answer>'.repeat(tags)}`;
    const messages = [{ role: 'user', content: 'Who wrote it?' }, { role: 'assistant', content }];
    const episode = { episode_id: 't:0', task: { question: 'Who wrote it?' }, trajectories: [{ steps: [{ chat_completions: messages }] }] };
    const runs: [string, () => Promise<unknown>][] = [
      ['rllm', () => runImporter('rllm', [fileOf('e.json', episode)], { answer: 'answer_tag' })],
      ['art', () => runImporter('art', [fileOf('0001.jsonl', `${JSON.stringify({ trajectories: [{ reward: 1, messages_and_choices: messages }] })}\n`)])],
      ['trl', () => runImporter('trl', [trlParquet('completions_00001.parquet', [{ step: 1, prompt: 'Question: q?', completion: content, accuracy_reward: 0 }])])],
    ];
    for (const [format, run] of runs) {
      const { ms } = await cpuTimed(run);
      assert.ok(ms < 5_000, `${format}: ${ms} ms`);
    }
  });
});

describe('importers: tool outputs are found by id, not by a search per call', () => {
  const calls = 130_000;

  it(`${calls.toLocaleString('en-US')} calls answered by tool_call_id, outputs in reverse order, in under 6 s`, async () => {
    const messages: ChatMessage[] = [{ role: 'user', content: 'q', calls: [] }];
    for (let i = 0; i < calls; i++) messages.push({ role: 'assistant', content: '', calls: [{ id: `c${i}`, name: 'lookup', argsText: '{}', args: {} }] });
    for (let i = calls - 1; i >= 0; i--) messages.push({ role: 'tool', content: `out ${i}`, calls: [], callId: `c${i}` });
    messages.push({ role: 'assistant', content: 'done', calls: [] });
    const { result, ms } = await cpuTimed(() => chatTrajectory(messages, rules));
    assert.equal(result.steps.length, calls);
    assert.deepEqual([result.steps[0], result.steps[calls - 1]], [
      { type: 'tool', tool: 'lookup', args: {}, call_id: 'c0', output: 'out 0' },
      { type: 'tool', tool: 'lookup', args: {}, call_id: `c${calls - 1}`, output: `out ${calls - 1}` },
    ]);
    assert.ok(ms < 6_000, `${ms} ms`);
  });

  it('200,000 calls of one turn without ids take the outputs after it in order, in under 6 s', async () => {
    const n = 200_000;
    const turn: ChatMessage = { role: 'assistant', content: '', calls: Array.from({ length: n }, () => ({ name: 'lookup', argsText: '{}', args: {} })) };
    const messages: ChatMessage[] = [{ role: 'user', content: 'q', calls: [] }, turn];
    for (let i = 0; i < n; i++) messages.push({ role: 'tool', content: `out ${i}`, calls: [] });
    messages.push({ role: 'assistant', content: 'done', calls: [] });
    const { result, ms } = await cpuTimed(() => chatTrajectory(messages, rules));
    assert.deepEqual([result.steps[0], result.steps[n - 1]], [{ type: 'tool', tool: 'lookup', args: {}, output: 'out 0' }, { type: 'tool', tool: 'lookup', args: {}, output: `out ${n - 1}` }]);
    assert.ok(ms < 6_000, `${ms} ms`);
  });

  it('matches as before: by id anywhere, else the first free output before the next assistant turn', () => {
    const call = (id?: string) => ({ ...(id === undefined ? {} : { id }), name: 'lookup', argsText: '{}', args: {} });
    const messages: ChatMessage[] = [
      { role: 'user', content: 'q', calls: [] },
      { role: 'assistant', content: '', calls: [call('a'), call('b'), call()] },
      { role: 'tool', content: 'for b', calls: [], callId: 'b' },
      { role: 'tool', content: 'no id', calls: [] },
      { role: 'tool', content: 'for a', calls: [], callId: 'a' },
      { role: 'assistant', content: '', calls: [call('z'), call()] },
      { role: 'tool', content: 'for x', calls: [], callId: 'x' },
      { role: 'assistant', content: 'done', calls: [] },
    ];
    const outputs = chatTrajectory(messages, rules).steps.map((s) => (s.type === 'tool' ? s.output ?? null : s.type));
    // Call z has no output of its id and no id-less output in its turn; the id-less call after it takes 'for x'.
    assert.deepEqual(outputs, ['for a', 'for b', 'no id', null, 'for x']);
  });

  it('a BrowseComp-Plus run at the tool-call limit (10,000 calls) imports in under 3 s', async () => {
    const result = Array.from({ length: 10_000 }, (_, i) => ({ type: 'tool_call', tool_name: 'get_document', arguments: `{"docid":"${i}"}`, output: `{"docid":"${i}"}` }));
    const reasoning = Array.from({ length: 10_000 }, () => ({ type: 'reasoning', output: ['hm'] }));
    const run = { query_id: '1', result: [...reasoning, ...result, { type: 'output_text', output: 'Exact Answer: a' }] };
    const { result: imported, ms } = await cpuTimed(() => runImporter('browsecomp_plus', [fileOf('run_1.json', run)]));
    assert.equal(imported.rows.length, 1);
    assert.ok(ms < 3_000, `${ms} ms`);
  });
});
