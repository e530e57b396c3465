// The ART importer on fixtures in ART's own layouts: the Parquet of art/utils/trajectory_logging.py
// (ZSTD, as ART writes it; GZIP and Snappy too) and the older JSONL, one group per line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artParquet } from './parquet-fixtures.js';
import type { ArtMessage, ArtRow, Codec } from './parquet-fixtures.js';
import { fileOf, passage, readFields, reasons, resolved, runImporter } from './run-importer.js';

const searchCall = (id: string, query: string) => JSON.stringify([{ id, type: 'function', function: { name: 'search', arguments: JSON.stringify({ query }) } }]);
const msg = (role: string, content: string | null, tool_calls: string | null = null, tool_call_id: string | null = null): ArtMessage => ({ role, content, tool_calls, tool_call_id });

/** Two groups of two trajectories; the agent's search tool prints Search-R1-style `Doc k(Title: T)` results (no ids). */
function artRows(): ArtRow[] {
  const w1 = passage('w:1');
  const w3 = passage('w:3');
  const results = `Doc 1(Title: ${w1.title}) ${w1.text}\nDoc 2(Title: A Title Nobody Has) Some text that is not in the corpus.`;
  const question = 'Where was Grailaind Nekaikras born?';
  const trajectory = (answer: string): ArtMessage[] => [
    msg('system', 'Use the search tool. Answer with the answer only.'),
    msg('user', question),
    msg('assistant', null, searchCall('call_0', 'Grailaind Nekaikras birthplace')),
    msg('tool', results, null, 'call_0'),
    msg('assistant', answer),
  ];
  return [
    { group_index: 0, reward: 1, metadata: JSON.stringify({ question_id: 'hq-7', answers: ['Rukal'], support_ids: ['w:1'] }), messages: trajectory('Rukal') },
    { group_index: 0, reward: 0, metadata: JSON.stringify({ question_id: 'hq-7', answers: ['Rukal'], support_ids: ['w:1'] }), messages: trajectory('Neipal') },
    { group_index: 1, reward: 0.5, metadata: null, messages: [msg('user', `Who was a contemporary of ${w3.title}?`), msg('assistant', null, searchCall('c', w3.title)), msg('tool', `Doc 1(Title: ${w3.title}) ${w3.text}`, null, 'c'), msg('assistant', 'Zivaimos Brotrena')] },
    { group_index: 1, reward: 0, metadata: null, messages: [msg('user', `Who was a contemporary of ${w3.title}?`), msg('assistant', null, '[{"function": {}}]')] },
  ];
}

describe('art importer: Parquet', () => {
  for (const codec of ['ZSTD', 'GZIP', 'SNAPPY', 'UNCOMPRESSED'] satisfies Codec[]) {
    it(`reads a ${codec} trajectories file: counts, ids, groups, gold, bad rows by file:line`, async () => {
      const result = await runImporter('art', [artParquet('.art/p/models/m/trajectories/train/0004.parquet', artRows(), codec)]);
      assert.deepEqual(result.counts, { read: 4, imported: 3, skipped: 1, questionIdsDerived: 1, groupsRecovered: null });
      assert.deepEqual(reasons(result), ['.art/p/models/m/trajectories/train/0004.parquet:4: messages[1].tool_calls[0]: a tool call needs a name']);
      const [first, , third] = result.rows.map((r) => readFields(r.row));
      assert.deepEqual(first, {
        id: '0004/0#0',
        question_id: 'hq-7',
        question: 'Where was Grailaind Nekaikras born?',
        steps: [{
          type: 'search',
          query: 'Grailaind Nekaikras birthplace',
          results: [
            { rank: 1, title: passage('w:1').title, text: passage('w:1').text },
            { rank: 2, title: 'A Title Nobody Has', text: 'Some text that is not in the corpus.' },
          ],
        }],
        final: { answer: 'Rukal', citations: [], text: 'Rukal' },
        gold: { answers: ['Rukal'], support_ids: ['w:1'] },
        meta: { step: 4, group: '0004/0', sample: 0, reward: 1, prompt: 'Use the search tool. Answer with the answer only.\nWhere was Grailaind Nekaikras born?' },
      });
      assert.match(String(third?.question_id), /^q-[0-9a-f]{16}$/);
      assert.deepEqual(third?.gold, { answers: [], support_ids: [] });
      assert.ok(result.notes.some((n) => n.startsWith('1 question ids derived')));
      assert.ok(result.notes.some((n) => n.startsWith('1 rows have no gold')));
      // Against samples/pools/corpus.jsonl: the real passages resolve by text, the invented one does not.
      const loaded = resolved(result.rows.map((r) => r.row));
      assert.deepEqual(loaded.counts?.results, { logged: 0, url: 0, text: 3, title: 0, unresolved: 2 });
      assert.deepEqual(loaded.rows[0]?.steps, [{ type: 'search', query: 'Grailaind Nekaikras birthplace', results: ['w:1'] }]);
    });
  }

  it('refuses a file that is not Parquet or not ART, by file:line', async () => {
    const notArt = await runImporter('art', [{ path: 'x.parquet', bytes: new Uint8Array([0x50, 0x41, 0x52, 0x31, 1, 2, 3, 4, 0x50, 0x41, 0x52, 0x31]) }]);
    assert.match(reasons(notArt)[0] ?? '', /^x\.parquet:1: a truncated or damaged Parquet file: /);
  });
});

describe('art importer: older JSONL, one group per line', () => {
  const trajectory = (answer: string, sample: number) => ({
    reward: sample === 0 ? 1 : 0,
    metrics: { turns: 2 },
    metadata: { id: `hq-7#${sample}`, question_id: 'hq-7', question: 'Where was Grailaind Nekaikras born?', answers: 'Rukal', model: 'qwen3-8b' },
    messages_and_choices: [
      { role: 'user', content: 'Where was Grailaind Nekaikras born?' },
      { finish_reason: 'tool_calls', index: 0, message: { role: 'assistant', content: '', tool_calls: [{ id: 'c0', type: 'function', function: { name: 'search', arguments: '{"query": "Nekaikras"}' } }] } },
      { role: 'tool', tool_call_id: 'c0', content: '[Document 1] (ID: w:1, Score: 0.93)\n…' },
      { finish_reason: 'stop', index: 0, message: { role: 'assistant', content: answer } },
    ],
    tools: null,
    logs: [],
  });

  it('imports every trajectory of every group; bad lines by file:line', async () => {
    const text = [JSON.stringify({ trajectories: [trajectory('Rukal', 0), trajectory('Neipal', 1)] }), '', '{not json', JSON.stringify({ groups: [] })].join('\n');
    const result = await runImporter('art', [fileOf('0003.jsonl', text)]);
    assert.deepEqual(result.counts, { read: 4, imported: 2, skipped: 2, questionIdsDerived: 0, groupsRecovered: null });
    // The position and kind of the error, never the log's text.
    assert.deepEqual(reasons(result), [
      '0003.jsonl:3: invalid JSON at column 2: unexpected character',
      "0003.jsonl:4: not an ART trajectory group: expected an object with a 'trajectories' list",
    ]);
    assert.deepEqual(readFields(result.rows[1]?.row), {
      id: 'hq-7#1',
      question_id: 'hq-7',
      question: 'Where was Grailaind Nekaikras born?',
      steps: [{ type: 'search', query: 'Nekaikras', results: [{ id: 'w:1', rank: 1 }] }],
      final: { answer: 'Neipal', citations: [], text: 'Neipal', status: 'stop' },
      gold: { answers: ['Rukal'], support_ids: [] },
      meta: { step: 3, group: '0003/0', sample: 1, model: 'qwen3-8b', reward: 0, metrics: { turns: 2 }, prompt: 'Where was Grailaind Nekaikras born?' },
    });
    assert.equal(resolved(result.rows.map((r) => r.row)).counts?.results.logged, 2);
  });

  it('an unknown option is refused', async () => {
    const art = (await import('../../server/src/importers/registry.js')).importerFor('art');
    const outcome = await art?.run([], { dialect: 'x' });
    assert.equal(outcome?.ok, false);
  });
});
