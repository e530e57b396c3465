// The shared chat-message converter: tool calls to search/tool/invalid steps, tool outputs to
// result lists, reasoning, the final answer rules and citation markers, and the message variants
// (OpenAI, ART's Choice wrapper and JSON-string tool_calls, slime/CaRR).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { citationMarkers, extractAnswer } from '../../server/src/importers/chat-final.js';
import { chatMessages } from '../../server/src/importers/chat-messages.js';
import { chatTrajectory } from '../../server/src/importers/chat-trajectory.js';
import type { ChatRules } from '../../server/src/importers/chat-trajectory.js';
import { toolResults } from '../../server/src/importers/chat-tool-output.js';

const rules: ChatRules = { searchTools: new Set(['search', 'local_search']), answer: 'answer_tag', citations: 'docid' };

function convert(raw: unknown[], r: ChatRules = rules, status?: string): ReturnType<typeof chatTrajectory> {
  const messages = chatMessages(raw, 'messages');
  if (!messages.ok) assert.fail(messages.reason);
  return chatTrajectory(messages.value, r, status);
}

const call = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } });

describe('tool outputs as result lists', () => {
  it('reads [Document k] (ID: …) blocks as ids with ranks', () => {
    assert.deepEqual(toolResults('[Document 1] (ID: 8812, Score: 0.81)\nSome text.\n\n[Document 2] (ID: w:17, Score: 0.40)\nMore.'), [{ id: '8812', rank: 1 }, { id: 'w:17', rank: 2 }]);
  });
  it('keeps title and text when a block has no id', () => {
    assert.deepEqual(toolResults('[Document 1]\nTitle: Paris\nParis is the capital.'), [{ rank: 1, title: 'Paris', text: 'Paris is the capital.' }]);
  });
  it("reads Search-R1's Doc k(Title: T) lines, quotes around the title dropped", () => {
    assert.deepEqual(toolResults('Doc 1(Title: "Paris") Paris is the capital.\nDoc 2(Title: Lyon) Lyon is a city.\n'), [
      { rank: 1, title: 'Paris', text: 'Paris is the capital.' },
      { rank: 2, title: 'Lyon', text: 'Lyon is a city.' },
    ]);
  });
  it('reads JSON lists of {docid, score, snippet}, Hermes {"result": …} and a fetched document', () => {
    assert.deepEqual(toolResults('[{"docid": "20", "score": 3.1, "snippet": "…"}, {"docid": 7, "snippet": "…"}]'), [{ id: '20', rank: 1 }, { id: '7', rank: 2 }]);
    assert.deepEqual(toolResults('{"result": "Doc 1(Title: Paris) Paris is the capital."}'), [{ rank: 1, title: 'Paris', text: 'Paris is the capital.' }]);
    assert.deepEqual(toolResults('{"docid": "20", "text": "the whole document"}'), [{ id: '20', rank: 1 }]);
  });
  it('leaves anything else as text', () => {
    assert.equal(toolResults('The page says hello.'), undefined);
    assert.equal(toolResults('{"error": "not found"}'), undefined);
    assert.equal(toolResults('[Document 1] (ID: a)\nx\n[Document 1] (ID: b)\ny'), undefined, 'two results at one rank');
  });
});

describe('final answer rules and citation markers', () => {
  it('finds the answer by each rule', () => {
    assert.equal(extractAnswer('so \\boxed{\\frac{1}{2}} and \\boxed{Paris}', 'boxed'), 'Paris');
    assert.equal(extractAnswer('<answer>a</answer> then <answer>Paris</answer>', 'answer_tag'), 'Paris');
    assert.equal(extractAnswer('Explanation: … [20]\n**Exact Answer:** Paris\nConfidence: 80%', 'exact_answer'), 'Paris');
    assert.equal(extractAnswer('<think>hm</think> Paris ', 'whole'), 'Paris');
    assert.equal(extractAnswer('no tag here', 'answer_tag'), undefined);
    assert.equal(extractAnswer('\\boxed{unclosed', 'boxed'), undefined);
  });
  it('reads [20], 【20】 and [20, 21] as docids, [1] as ranks; prose and links are not citations', () => {
    assert.deepEqual(citationMarkers('A [20] and 【21】 and [22, w:3]. [sic] [link](http://x)', 'docid'), [
      { marker: '[20]', id: '20' },
      { marker: '【21】', id: '21' },
      { marker: '[22, w:3]', id: '22' },
      { marker: '[22, w:3]', id: 'w:3' },
    ]);
    assert.deepEqual(citationMarkers('A [1] B [x2]', 'rank'), [{ marker: '[1]', rank: 1 }]);
    assert.deepEqual(citationMarkers('A [1]', 'none'), []);
  });
});

describe('chat messages to steps and final', () => {
  it('converts a tool-calling conversation', () => {
    const t = convert([
      { role: 'system', content: 'You are a search agent.' },
      { role: 'user', content: 'Where is Paris?' },
      { role: 'assistant', content: 'I will search.', reasoning_content: 'Need the country.', tool_calls: [call('c0', 'local_search', { query: 'Paris country' })] },
      { role: 'tool', tool_call_id: 'c0', name: 'local_search', content: '[Document 1] (ID: w:1, Score: 0.9)\nParis is in France.' },
      { role: 'assistant', content: null, tool_calls: [call('c1', 'visit', { url: 'https://example.org' }), call('c2', 'search', { query_list: ['a', 'b'] })] },
      { role: 'tool', tool_call_id: 'c2', content: '[Document 1] (ID: w:2)\nx\n---\n[Document 1] (ID: w:3)\ny' },
      { role: 'tool', tool_call_id: 'c1', content: 'Welcome to example.org' },
      { role: 'assistant', content: '<think>France it is.</think><answer>France</answer> [w:1]' },
    ]);
    assert.deepEqual(t.steps, [
      { type: 'reasoning', text: 'Need the country.' },
      { type: 'reasoning', text: 'I will search.' },
      { type: 'search', query: 'Paris country', results: [{ id: 'w:1', rank: 1 }] },
      { type: 'tool', tool: 'visit', args: { url: 'https://example.org' }, call_id: 'c1', output: 'Welcome to example.org' },
      { type: 'search', query: 'a', results: [{ id: 'w:2', rank: 1 }] },
      { type: 'search', query: 'b', results: [{ id: 'w:3', rank: 1 }] },
      { type: 'reasoning', text: 'France it is.' },
    ]);
    assert.deepEqual(t.final, { answer: 'France', citations: [{ marker: '[w:1]', id: 'w:1' }], text: '<think>France it is.</think><answer>France</answer> [w:1]' });
  });

  it('an unparseable call and a turn that calls nothing are invalid; no answer found means no final', () => {
    const t = convert([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: null, tool_calls: [call('c0', 'search', '{"query": "unterminated')] },
      { role: 'tool', tool_call_id: 'c0', content: 'error: bad arguments' },
      { role: 'assistant', content: 'let me think' },
      { role: 'user', content: 'Call a tool or answer.' },
      { role: 'assistant', content: 'I give up' },
    ], rules, 'max_turns');
    assert.deepEqual(t.steps, [
      { type: 'invalid', text: 'search({"query": "unterminated)' },
      { type: 'invalid', text: 'let me think' },
      { type: 'invalid', text: 'I give up' },
    ]);
    assert.deepEqual(t.final, { answer: null, status: 'max_turns' });
  });

  it('a conversation that ends on a tool call has no final; search output that lists nothing is counted', () => {
    const t = convert([{ role: 'user', content: 'q' }, { role: 'assistant', content: '', tool_calls: [call('c0', 'search', { query: 'x' })] }, { role: 'tool', tool_call_id: 'c0', content: 'no results' }]);
    assert.deepEqual(t.steps, [{ type: 'search', query: 'x', results: [] }]);
    assert.equal(t.final, null);
    assert.equal(t.unreadSearchOutputs, 1);
  });

  it("reads ART's Choice wrapper and JSON-string tool_calls, and calls answered in order without ids", () => {
    const t = convert([
      { role: 'user', content: 'q' },
      { finish_reason: 'tool_calls', index: 0, message: { role: 'assistant', content: null, tool_calls: JSON.stringify([{ type: 'function', function: { name: 'search', arguments: '{"query": "x"}' } }]) } },
      { role: 'tool', content: '[Document 1] (ID: 5)\nt' },
      { finish_reason: 'stop', index: 0, message: { role: 'assistant', content: '<answer>y</answer>' } },
    ]);
    assert.deepEqual(t.steps, [{ type: 'search', query: 'x', results: [{ id: '5', rank: 1 }] }]);
    assert.deepEqual(t.final, { answer: 'y', citations: [], text: '<answer>y</answer>', status: 'stop' });
  });

  it('reads the slime/CaRR variant: calls without the function wrapper, one tool message answering several', () => {
    const t = convert([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', tool_calls: [{ session_id: 's', tool_call_id: 't1', name: 'search', arguments: { query: 'x' } }, { session_id: 's', tool_call_id: 't2', name: 'open_page', arguments: '{"url": "u"}' }] },
      { role: 'tool', content: [{ tool_call_id: 't2', output: 'page text' }, { tool_call_id: 't1', output: '[{"docid": "9", "snippet": "s"}]' }] },
      { role: 'assistant', content: '<answer>z</answer>' },
    ]);
    assert.deepEqual(t.steps, [
      { type: 'search', query: 'x', results: [{ id: '9', rank: 1 }] },
      { type: 'tool', tool: 'open_page', args: { url: 'u' }, call_id: 't2', output: 'page text' },
    ]);
  });

  it('refuses a message it cannot read, naming the field', () => {
    const bad = chatMessages([{ role: 'user', content: 'q' }, { role: 'assistant', tool_calls: [{ type: 'function', function: { arguments: '{}' } }] }], 'messages');
    assert.deepEqual(bad, { ok: false, reason: 'messages[1].tool_calls[0]: a tool call needs a name' });
    assert.deepEqual(chatMessages([{ content: 'x' }], 'messages'), { ok: false, reason: 'messages[0].role: expected a string' });
  });
});
