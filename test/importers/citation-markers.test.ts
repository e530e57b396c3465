// Citation markers: the one rule (importers/chat-final.ts) docs/import.md's table states, case by case,
// and the same citations from every chat format that reads markers (rllm, ART, TRL, BrowseComp-Plus).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { citationMarkers } from '../../server/src/importers/chat-final.js';
import type { CitationMarker } from '../../server/src/importers/chat-final.js';
import type { ImportedRow } from '../../server/src/importers/importer.js';
import { trlParquet } from './parquet-fixtures.js';
import { cpuTimed, fileOf, runImporter } from './run-importer.js';

const id = (marker: string, ...ids: string[]): CitationMarker[] => ids.map((i) => ({ marker, id: i }));
const rank = (marker: string, ...ranks: number[]): CitationMarker[] => ranks.map((r) => ({ marker, rank: r }));

describe('citation markers: the table of docs/import.md', () => {
  // [text, what `docid` reads, what `rank` reads]
  const table: readonly [string, CitationMarker[], CitationMarker[]][] = [
    ['Paris [3].', id('[3]', '3'), rank('[3]', 3)],
    ['Paris 【3】.', id('【3】', '3'), rank('【3】', 3)],
    ['Paris [[3]].', id('[[3]]', '3'), rank('[[3]]', 3)],
    ['Paris [20, 21].', id('[20, 21]', '20', '21'), rank('[20, 21]', 20, 21)],
    ['Paris 【20,21】.', id('【20,21】', '20', '21'), rank('【20,21】', 20, 21)],
    ['Paris [ 3 ].', id('[ 3 ]', '3'), rank('[ 3 ]', 3)],
    ['Paris [w:12, doc_7].', id('[w:12, doc_7]', 'w:12', 'doc_7'), []],
    ['Paris [3][4].', [...id('[3]', '3'), ...id('[4]', '4')], [...rank('[3]', 3), ...rank('[4]', 4)]],
    ['Paris [].', [], []],
    ['Paris [ ].', [], []],
    ['Paris [a, b].', [], []],
    ['Paris [Smith, 2003].', [], []],
    ['Paris [3,].', [], []],
    ['Paris [sic].', [], []],
    ['Paris [citation needed].', [], []],
    ['Paris [3](https://example.org/3).', [], []],
    ['Paris [[3]](https://example.org/3).', [], []],
    ['Paris [[4](https://example.org/4)].', [], []],
    ['Paris 【3†L10-L20】.', [], []],
    ['Paris [see [3]].', id('[3]', '3'), rank('[3]', 3)],
    ['Paris [[3].', id('[3]', '3'), rank('[3]', 3)],
    ['Paris [3]].', id('[3]', '3'), rank('[3]', 3)],
    ['Paris [[[3]]].', id('[[3]]', '3'), rank('[[3]]', 3)],
  ];
  for (const [text, docid, ranks] of table) {
    it(`${JSON.stringify(text)}: docid ${JSON.stringify(docid.map((m) => ('id' in m ? m.id : '')))}, rank ${JSON.stringify(ranks.map((m) => ('rank' in m ? m.rank : 0)))}`, () => {
      assert.deepEqual(citationMarkers(text, 'docid'), docid);
      assert.deepEqual(citationMarkers(text, 'rank'), ranks);
      assert.deepEqual(citationMarkers(text, 'none'), []);
    });
  }

  it('keeps the order of appearance and every repeat', () => {
    assert.deepEqual(citationMarkers('A [2]. B 【1】. C [2, 1]. D [[2]].', 'docid'), [
      ...id('[2]', '2'), ...id('【1】', '1'), ...id('[2, 1]', '2', '1'), ...id('[[2]]', '2'),
    ]);
  });

  it('reads a long unclosed list and a long run of open brackets in linear time', async () => {
    const text = `[${'1, '.repeat(100_000)} ${'[[x'.repeat(100_000)} ${'【2,'.repeat(100_000)}`;
    const { result, ms } = await cpuTimed(() => citationMarkers(text, 'docid'));
    assert.deepEqual(result, []);
    assert.ok(ms < 2_000, `${ms} ms`);
  });
});

describe('citation markers: the same in every chat format', () => {
  const final = 'Exact Answer: Paris [[3]] 【4】 [5, 6] [] [sic] [7](https://example.org/7)';
  const expected = [...id('[[3]]', '3'), ...id('【4】', '4'), ...id('[5, 6]', '5', '6')];
  const citationsOf = (rows: readonly ImportedRow[]): unknown => {
    assert.equal(rows.length, 1);
    return (rows[0]!.row.final as { citations?: unknown } | null)?.citations;
  };
  const options = { citations: 'docid', answer: 'exact_answer' };
  const question = { role: 'user', content: 'Which city?' };

  it('rllm', async () => {
    const conversation = [question, { role: 'assistant', content: final }];
    const episode = { episode_id: 't:0', task: { question: 'Which city?' }, trajectories: [{ steps: [{ chat_completions: conversation }] }] };
    const result = await runImporter('rllm', [fileOf('episodes/train_step_1_epoch_0/episode_id_t_0.json', episode)], options);
    assert.deepEqual(citationsOf(result.rows), expected);
  });

  it('ART', async () => {
    const group = { trajectories: [{ reward: 1, messages_and_choices: [question, { role: 'assistant', content: final }] }] };
    const result = await runImporter('art', [fileOf('0001.jsonl', JSON.stringify(group))], options);
    assert.deepEqual(citationsOf(result.rows), expected);
  });

  it('TRL', async () => {
    const result = await runImporter('trl', [trlParquet('completions_00001.parquet', [{ step: 1, prompt: 'Which city?', completion: final, accuracy: 1 }])], options);
    assert.deepEqual(citationsOf(result.rows), expected);
  });

  it('BrowseComp-Plus', async () => {
    const run = { query_id: '1', status: 'completed', result: [{ type: 'output_text', output: final }] };
    const result = await runImporter('browsecomp_plus', [fileOf('runs/run_1.json', run)], options);
    assert.deepEqual(citationsOf(result.rows), expected);
  });
});
