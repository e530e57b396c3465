// `guessFormat` (server/src/importers/format-guess.ts): each importer's own fixture is guessed as
// its format, from its first records, and a log no importer reads is no guess.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { firstRecords, formatsGuessedFirst, guessFormat, guessedRecords } from '../../server/src/importers/format-guess.js';
import type { ImportFile } from '../../server/src/importers/importer.js';
import { importers } from '../../server/src/importers/registry.js';
import { artParquet, trlParquet } from './parquet-fixtures.js';

const fixtures = path.resolve('test/importers/fixtures');
const read = (file: string): ImportFile => ({ path: file, bytes: fs.readFileSync(path.join(fixtures, file)) });

describe('guessFormat', () => {
  it("guesses each importer's fixture as its format", async () => {
    const cases: [string, string][] = [
      ['verl-search-r1.jsonl', 'verl'],
      ['verl-hermes.jsonl', 'verl'],
      ['torture/verl-webthinker.jsonl', 'verl'],
      ['skyrl-global_step_40_evals-hotpotqa.jsonl', 'skyrl'],
      ['r1-searcher-eval.jsonl', 'r1_searcher'],
      ['rllm-torture/episode_hash1_idt1_0.json', 'rllm'],
      ['art-torture.jsonl', 'art'],
      ['browsecomp-torture/run_b1.json', 'browsecomp_plus'],
      ['messages-torture.jsonl', 'messages'],
      ['messages-responses.jsonl', 'messages'],
    ];
    const got = await Promise.all(cases.map(async ([file]) => [file, (await guessFormat([read(file)]))?.format] as const));
    assert.deepEqual(got, cases);
    // The Parquet formats: TRL's completions table (the rows of its JSON fixture), ART's trajectories.
    const trlRows: Record<string, string | number>[] = JSON.parse(fs.readFileSync(path.join(fixtures, 'trl-torture.json'), 'utf8'));
    assert.equal((await guessFormat([trlParquet('completions_00005.parquet', trlRows)]))?.format, 'trl');
    const art = artParquet('0005.parquet', [{ group_index: 0, reward: 1, metadata: null, messages: [{ role: 'user', content: 'Question: Who?', tool_calls: null, tool_call_id: null }, { role: 'assistant', content: '<answer>Jubre</answer>', tool_calls: null, tool_call_id: null }] }]);
    assert.equal((await guessFormat([art]))?.format, 'art');
    // Every registered format is covered above.
    assert.deepEqual(new Set([...cases.map(([, f]) => f), 'trl', 'art']), new Set(importers.map((i) => i.format)));
  });

  it('tries only the first records of a JSON Lines file, and a JSON document whole', () => {
    const lines = Array.from({ length: 9 }, (_, k) => JSON.stringify({ k })).join('\n');
    const jsonl = { path: 'a.jsonl', bytes: new TextEncoder().encode(lines) };
    assert.equal(new TextDecoder().decode(firstRecords(jsonl).bytes).split('\n').filter((l) => l !== '').length, guessedRecords);
    const document = read('trl-torture.json');
    assert.equal(firstRecords(document).bytes.length, document.bytes.length);
  });

  it('is no guess for a log no importer reads, and for no file', async () => {
    assert.equal(await guessFormat([{ path: 'x.jsonl', bytes: new TextEncoder().encode('{"a": 1}\nnot json\n') }]), undefined);
    assert.equal(await guessFormat([]), undefined);
  });

  it('lists the formats with the guess first', () => {
    const all = importers.map((i) => i.format);
    assert.deepEqual(formatsGuessedFirst('trl'), ['trl', ...all.filter((f) => f !== 'trl')]);
    assert.deepEqual(formatsGuessedFirst(undefined), all);
  });
});
