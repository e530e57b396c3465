// Importers bounded per record (docs/language.md, "Limits"): a hostile log is skipped records with
// their reasons, never a thrown RangeError. Every large input is generated here; each case also has
// a bound on its CPU time that a slow machine meets with room.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isRecord } from '../../server/src/importers/jsonl-records.js';
import { maxImportedResults, maxImportedSteps, maxImportedToolCalls, maxImportNesting, maxTranscriptTags } from '../../server/src/problems/limits.js';
import { trlParquet } from './parquet-fixtures.js';
import { cpuTimed as timed, fileOf, reasons, runImporter } from './run-importer.js';

const badLines = 130_000;

function verlRecord(output: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ input: 'Answer. Question: Who wrote The Winter Fever?\n', output, gts: 'Jubre Nekaikras', score: 1, ...extra });
}

function episode(messages: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ episode_id: 't:0', task: { question: 'Who wrote it?', ground_truth: 'Jubre' }, trajectories: [{ reward: 1, steps: [{ chat_completions: messages }] }], ...extra });
}

const user = { role: 'user', content: 'Who wrote it?' };

describe('importers: 130,000 bad lines are 130,000 skipped records (a spread of them overflowed the stack)', () => {
  const bad = 'x\n'.repeat(badLines);
  const cases: [string, Record<string, string>][] = [['verl', {}], ['skyrl', {}], ['r1_searcher', {}], ['art', {}], ['browsecomp_plus', {}]];
  for (const [format, options] of cases) {
    it(`${format}: every bad line skipped with its file:line, within 10 s`, async () => {
      const { result, ms } = await timed(() => runImporter(format, [fileOf('bad.jsonl', bad)], options));
      assert.equal(result.counts.skipped, badLines);
      assert.equal(result.rows.length, 0);
      assert.match(reasons(result).at(-1) ?? '', /^bad\.jsonl:130000: /u);
      assert.ok(ms < 10_000, `${format}: ${ms} ms`);
    });
  }

  it('browsecomp_plus: a qrels file of 130,000 bad lines, and 130,000 qrels of one query', async () => {
    const qrels = `1 Q0 d0 1\n${'x\n'.repeat(badLines)}`;
    const { result, ms } = await timed(() => runImporter('browsecomp_plus', [fileOf('qrels.txt', qrels)]));
    assert.equal(result.counts.skipped, badLines);
    assert.ok(ms < 10_000, `${ms} ms`);
    const many = Array.from({ length: badLines }, (_, i) => `1 Q0 d${i} 1`).join('\n');
    const run = { query_id: '1', status: 'completed', result: [{ type: 'output_text', output: 'Exact Answer: a' }] };
    const labelled = await timed(() => runImporter('browsecomp_plus', [fileOf('qrels.txt', many), fileOf('run_1.json', run)]));
    const gold = labelled.result.rows[0]?.row.gold;
    assert.ok(isRecord(gold) && Array.isArray(gold.support_ids));
    assert.equal(gold.support_ids.length, badLines);
    assert.ok(labelled.ms < 10_000, `${labelled.ms} ms`);
  });
});

describe('importers: limits per record', () => {
  it(`a call with a 130,000-query query_list is one record skipped for its steps (maxImportedSteps = ${maxImportedSteps})`, async () => {
    const queries = Array.from({ length: badLines }, (_, i) => `q${i}`);
    // Answered, so executed: a call the response ends on is no step (docs/import.md).
    const output = `<tool_call>${JSON.stringify({ name: 'search', arguments: { query_list: queries } })}</tool_call><tool_response>{"result": ""}</tool_response>`;
    const result = await runImporter('verl', [fileOf('d/1.jsonl', `${verlRecord(output)}\n${verlRecord('<answer>Jubre</answer>')}\n`)], { dialect: 'hermes' });
    assert.deepEqual(reasons(result), [`d/1.jsonl:1: 130,000 steps, above the limit of ${maxImportedSteps.toLocaleString('en-US')} per record (maxImportedSteps)`]);
    assert.equal(result.rows.length, 1);
  });

  it(`a transcript opening more than maxTranscriptTags (${maxTranscriptTags}) blocks is skipped; one at the limit is imported`, async () => {
    const over = verlRecord('<think>x</think>'.repeat(badLines));
    const at = verlRecord('<think>x</think>'.repeat(maxTranscriptTags));
    const { result, ms } = await timed(() => runImporter('verl', [fileOf('d/1.jsonl', `${over}\n${at}\n`)]));
    assert.deepEqual(reasons(result), [`d/1.jsonl:1: the response opens more than ${maxTranscriptTags.toLocaleString('en-US')} tagged blocks, the limit per transcript (maxTranscriptTags)`]);
    const steps = result.rows[0]?.row.steps;
    assert.ok(Array.isArray(steps));
    assert.equal(steps.length, maxTranscriptTags);
    assert.ok(ms < 10_000, `${ms} ms`);
  });

  it('130,000 <think> blocks in one chat message: the record is skipped for its steps, not a stack overflow', async () => {
    const result = await runImporter('rllm', [fileOf('e.json', episode([user, { role: 'assistant', content: `${'<think>x</think>'.repeat(badLines)}\\boxed{a}` }]))]);
    assert.deepEqual(reasons(result), [`e.json:1: 130,000 steps, above the limit of ${maxImportedSteps.toLocaleString('en-US')} per record (maxImportedSteps)`]);
  });

  it(`more than maxImportedToolCalls (${maxImportedToolCalls}) tool calls skip an ART trajectory and a BrowseComp-Plus run`, async () => {
    const calls = maxImportedToolCalls + 1;
    const messages: unknown[] = [user];
    for (let i = 0; i < calls; i++) messages.push({ role: 'assistant', content: '', tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'lookup', arguments: '{}' } }] }, { role: 'tool', tool_call_id: `c${i}`, content: 'out' });
    const art = await runImporter('art', [fileOf('0001.jsonl', `${JSON.stringify({ trajectories: [{ reward: 1, messages_and_choices: messages }] })}\n`)]);
    assert.deepEqual(reasons(art), [`0001.jsonl:1: trajectories[0].messages: more than ${maxImportedToolCalls.toLocaleString('en-US')} tool calls, the limit per record (maxImportedToolCalls)`]);
    const result = Array.from({ length: calls }, () => ({ type: 'tool_call', tool_name: 'get_document', arguments: '{"docid":"1"}', output: '{"docid":"1"}' }));
    const bcp = await runImporter('browsecomp_plus', [fileOf('run_1.json', { query_id: '1', result })]);
    assert.deepEqual(reasons(bcp), [`run_1.json:1: result: more than ${maxImportedToolCalls.toLocaleString('en-US')} tool calls, the limit per record (maxImportedToolCalls)`]);
  });

  it(`a step with more than maxImportedResults (${maxImportedResults}) results is skipped`, async () => {
    const docs = (n: number): string => JSON.stringify(Array.from({ length: n }, (_, i) => ({ docid: `d${i}` })));
    const run = (n: number): unknown => ({ query_id: String(n), result: [{ type: 'tool_call', tool_name: 'search', arguments: '{"query":"q"}', output: docs(n) }, { type: 'output_text', output: 'Exact Answer: a' }] });
    const result = await runImporter('browsecomp_plus', [fileOf('run_a.json', run(maxImportedResults + 1)), fileOf('run_b.json', run(maxImportedResults))]);
    assert.deepEqual(reasons(result), [`run_a.json:1: steps[0]: 1,001 results, above the limit of ${maxImportedResults.toLocaleString('en-US')} per step (maxImportedResults)`]);
    assert.equal(result.rows.length, 1);
  });

  it(`a value nested 100,000 deep is a skipped record (maxImportNesting = ${maxImportNesting}); one nested 40 deep is imported`, async () => {
    const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const line = (depth: number): string => verlRecord('<answer>Jubre</answer>').replace(/\}$/u, `,"extra":${nested(depth)}}`);
    const tooDeep = `the record nests deeper than ${maxImportNesting} levels, the limit per record (maxImportNesting)`;
    const result = await runImporter('verl', [fileOf('d/1.jsonl', `${line(100_000)}\n${line(40)}\n`)]);
    assert.deepEqual(reasons(result), [`d/1.jsonl:1: ${tooDeep}`]);
    assert.equal(result.rows.length, 1);
    // What is imported can be written: JSON.stringify of the deep value overflowed the stack.
    assert.ok(JSON.stringify(result.rows[0]?.row).length > 0);
    // The chat importers wrote a deep call's arguments and a deep tool output back as JSON before the row was checked.
    const deepArgs = `{"episode_id":"t:0","task":{"question":"q"},"trajectories":[{"steps":[{"chat_completions":[{"role":"user","content":"q"},{"role":"assistant","content":"","tool_calls":[{"id":"c","type":"function","function":{"name":"lookup","arguments":${nested(100_000)}}}]},{"role":"assistant","content":"\\\\boxed{a}"}]}]}]}`;
    assert.deepEqual(reasons(await runImporter('rllm', [fileOf('e.json', deepArgs)])), [`e.json:1: ${tooDeep}`]);
    const deepOutput = `{"query_id":"1","result":[{"type":"tool_call","tool_name":"x","arguments":"{}","output":${nested(100_000)}}]}`;
    assert.deepEqual(reasons(await runImporter('browsecomp_plus', [fileOf('run_1.json', deepOutput)])), [`run_1.json:1: ${tooDeep}`]);
    // A line that is not JSON and opens 100,000 levels is a reason, not a crash of the reader that words it.
    for (const format of ['verl', 'art', 'browsecomp_plus']) {
      const unclosed = await runImporter(format, [fileOf('deep.jsonl', `${'['.repeat(100_000)}\n${'{"a":'.repeat(100_000)}\n`)]);
      assert.deepEqual(reasons(unclosed), ['deep.jsonl:1: invalid JSON at column 1001: nested deeper than 1,000 levels', 'deep.jsonl:2: invalid JSON at column 5001: nested deeper than 1,000 levels'], format);
    }
    // Inside a string, deep JSON is text: a tool output that deep is no result list (its reader recursed per level)…
    const deepText = `${'{"results":'.repeat(100_000)}[]${'}'.repeat(100_000)}`;
    const bcp = await runImporter('browsecomp_plus', [fileOf('run_1.json', { query_id: '1', result: [{ type: 'tool_call', tool_name: 'lookup', arguments: '{}', output: deepText }, { type: 'output_text', output: 'Exact Answer: a' }] })]);
    assert.deepEqual(bcp.rows[0]?.row.steps, [{ type: 'tool', tool: 'lookup', args: {}, call_id: 'call_0', output: deepText, turn: 0 }]);
    // …and a Hermes call whose arguments nest that deep is a row the registry refuses, naming the field.
    const hermes = verlRecord(`<tool_call>{"name": "visit", "arguments": ${nested(100)}}</tool_call><tool_response>x</tool_response>`);
    assert.deepEqual(reasons(await runImporter('verl', [fileOf('d/2.jsonl', hermes)], { dialect: 'hermes' })), [`d/2.jsonl:1: steps[0].args nests deeper than ${maxImportNesting} levels, the limit per record (maxImportNesting)`]);
  });
});

describe('importers: a number JSON cannot write is a skipped record naming the field, never a silent null', () => {
  it('verl: a score of -1e999 (JSON.parse reads -Infinity)', async () => {
    const result = await runImporter('verl', [fileOf('d/1.jsonl', `${verlRecord('<answer>a</answer>').replace('"score":1', '"score":-1e999')}\n${verlRecord('<answer>a</answer>')}\n`)]);
    assert.deepEqual(reasons(result), ['d/1.jsonl:1: meta.score is not a finite number (-Infinity): JSON has no such number']);
    assert.equal(result.rows.length, 1);
  });

  it('verl: a gold answer of 1e999 is refused as a number that is not finite, not written as "Infinity"', async () => {
    const result = await runImporter('verl', [fileOf('d/1.jsonl', verlRecord('<answer>a</answer>').replace('"gts":"Jubre Nekaikras"', '"gts":[1e999]'))]);
    assert.deepEqual(reasons(result), ['d/1.jsonl:1: gts: answer 1 is a number that is not finite (Infinity), expected a string or a number']);
  });

  it('rllm: a trajectory reward of 1e999', async () => {
    const text = episode([user, { role: 'assistant', content: '\\boxed{Jubre}' }]).replace('"reward":1', '"reward":1e999');
    const result = await runImporter('rllm', [fileOf('e.json', text)]);
    assert.deepEqual(reasons(result), ['e.json:1: meta.reward is not a finite number (Infinity): JSON has no such number']);
  });

  it('trl: NaN and ±Infinity reward columns', async () => {
    const row = (reward: number) => ({ step: 1, prompt: 'Question: q?', completion: '<answer>a</answer>', accuracy_reward: reward, format_reward: 1, advantage: 0 });
    const result = await runImporter('trl', [trlParquet('completions_00001.parquet', [row(Number.NaN), row(Number.POSITIVE_INFINITY), row(Number.NEGATIVE_INFINITY), row(0.5)])]);
    assert.deepEqual(reasons(result), [
      'completions_00001.parquet:1: meta.rewards.accuracy_reward is not a finite number (NaN): JSON has no such number',
      'completions_00001.parquet:2: meta.rewards.accuracy_reward is not a finite number (Infinity): JSON has no such number',
      'completions_00001.parquet:3: meta.rewards.accuracy_reward is not a finite number (-Infinity): JSON has no such number',
    ]);
    assert.deepEqual(result.rows.map((r) => isRecord(r.row.meta) && r.row.meta.rewards), [{ accuracy_reward: 0.5, format_reward: 1 }]);
  });
});
