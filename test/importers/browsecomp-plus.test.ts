// The BrowseComp-Plus importer on run files as search_agent/*_client.py persist them, with the
// query file and qrels given as further inputs (invented values; docids of samples/pools/corpus.jsonl).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileOf, readFields, reasons, resolved, runImporter } from './run-importer.js';

function run(queryId: string, answerText: string, extraResult: unknown[] = []) {
  return {
    metadata: { model: 'gpt-oss-20b', reasoning: { effort: 'high' }, output_dir: 'runs/bm25/gpt-oss-20b', max_tokens: 10000 },
    query_id: queryId,
    tool_call_counts: { search: 2, get_document: 1 },
    usage: { input_tokens: 10, input_tokens_cached: 0, output_tokens: 20, included_reasoning_tokens: 5, total_tokens: 30 },
    status: 'completed',
    retrieved_docids: ['w:2', 'w:1', 'w:3'],
    result: [
      { type: 'reasoning', tool_name: null, arguments: null, output: [{ type: 'summary_text', text: 'Find the novel first.' }] },
      { type: 'tool_call', tool_name: 'search', arguments: '{"query": "Winter Fever novel author"}', output: JSON.stringify([{ docid: 'w:2', score: 12.3, snippet: 'The Winter Fever is…' }, { docid: 'w:1', score: 9.1, snippet: '…' }], null, 2) },
      { type: 'tool_call', tool_name: 'get_document', arguments: '{"docid": "w:2"}', output: JSON.stringify({ docid: 'w:2', text: 'The Winter Fever is a 1914 crime novel…' }, null, 2) },
      { type: 'tool_call', tool_name: 'search', arguments: '{"query": "Jubre Nekaikras"}', output: JSON.stringify([{ docid: 'w:3', snippet: '…' }]) },
      ...extraResult,
      { type: 'output_text', tool_name: null, arguments: null, output: answerText },
    ],
  };
}

const queries = [
  { query_id: '101', query: 'Who wrote The Winter Fever?', answer: 'Jubre Nekaikras', gold_docs: [{ docid: 'w:2' }], evidence_docs: [{ docid: 'w:2' }, { docid: 'w:5' }] },
  { query_id: '102', query: 'Which publisher released it?', answer: 'Sukaikek House', gold_docs: [], evidence_docs: [] },
].map((q) => JSON.stringify(q)).join('\n');

describe('browsecomp_plus importer', () => {
  it('imports run files with the query file and qrels as further inputs', async () => {
    const files = [
      fileOf('runs/run_20251103T101500Z.json', run('101', 'Explanation: The novel was written by Jubre Nekaikras 【w:2】.\nExact Answer: Jubre Nekaikras\nConfidence: 90%')),
      fileOf('runs/run_20251103T101700Z.json', run('101', 'Explanation: see [w:2, w:777].\nExact Answer: Tapaist Dritrous\nConfidence: 40%')),
      fileOf('runs/run_20251103T102000Z.json', run('102', 'I could not find it.')),
      fileOf('runs/run_20251103T102500Z.json', { ...run('103', 'x'), result: [{ type: 'function_call' }] }),
      fileOf('data/queries.jsonl', queries),
      fileOf('data/qrel_evidence.txt', '101 Q0 w:4 1\n101 Q0 w:6 0\n102 Q0 w:7 1\nbroken line\n'),
    ];
    const result = await runImporter('browsecomp_plus', files);
    assert.deepEqual(result.counts, { read: 5, imported: 3, skipped: 2, questionIdsDerived: 0, groupsRecovered: null });
    assert.deepEqual(reasons(result), [
      'data/qrel_evidence.txt:4: not a qrels line: expected `query_id Q0 docid relevance`',
      'runs/run_20251103T102500Z.json:1: result[0].type: expected tool_call, reasoning or output_text',
    ]);
    assert.deepEqual(readFields(result.rows[0]?.row), {
      id: '101#0',
      question_id: '101',
      question: 'Who wrote The Winter Fever?',
      steps: [
        { type: 'reasoning', text: 'Find the novel first.' },
        { type: 'search', query: 'Winter Fever novel author', results: [{ id: 'w:2', rank: 1 }, { id: 'w:1', rank: 2 }] },
        { type: 'tool', tool: 'get_document', args: { docid: 'w:2' }, call_id: 'call_2', results: [{ id: 'w:2', rank: 1 }] },
        { type: 'search', query: 'Jubre Nekaikras', results: [{ id: 'w:3', rank: 1 }] },
      ],
      final: {
        answer: 'Jubre Nekaikras',
        citations: [{ marker: '【w:2】', id: 'w:2' }],
        text: 'Explanation: The novel was written by Jubre Nekaikras 【w:2】.\nExact Answer: Jubre Nekaikras\nConfidence: 90%',
        status: 'completed',
      },
      gold: { answers: ['Jubre Nekaikras'], support_ids: ['w:2', 'w:5', 'w:4'] },
      meta: { model: 'gpt-oss-20b', sample: 0, run: 'run_20251103T101500Z', tool_call_counts: { search: 2, get_document: 1 } },
    });
    assert.deepEqual(result.rows[1]?.row.final, {
      answer: 'Tapaist Dritrous',
      citations: [{ marker: '[w:2, w:777]', id: 'w:2' }, { marker: '[w:2, w:777]', id: 'w:777' }],
      text: 'Explanation: see [w:2, w:777].\nExact Answer: Tapaist Dritrous\nConfidence: 40%',
      status: 'completed',
    });
    // No "Exact Answer:" line: that last turn is an invalid action and the stop reason is kept.
    assert.deepEqual(result.rows[2]?.row.final, { answer: null, status: 'completed' });
    assert.deepEqual(result.rows[2]?.row.gold, { answers: ['Sukaikek House'], support_ids: ['w:7'] });
    const loaded = resolved(result.rows.map((r) => r.row));
    assert.deepEqual(loaded.counts?.results, { logged: 12, url: 0, text: 0, title: 0, unresolved: 0 });
  });

  it('without the query file: empty question and gold, stated', async () => {
    const result = await runImporter('browsecomp_plus', [fileOf('run_a.json', run('7', 'Exact Answer: x'))], { support: 'gold' });
    assert.equal(result.rows[0]?.row.question, '');
    assert.ok(result.notes.some((n) => n.startsWith('1 rows have no gold')));
    assert.ok(result.notes.some((n) => n.startsWith('1 rows have no query text')));
  });
});
