// The tagged-transcript containers through the registry (docs/import.md): verl dumps, SkyRL eval
// dumps and R1-Searcher eval output, on the fixtures under ./fixtures (shapes from the frameworks'
// writers, values invented, passages from samples/pools/corpus.jsonl). Counts, ids, groups, gold
// and every skipped record's file:line: reason.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { derivedQuestionId } from '../../server/src/importers/derived-ids.js';
import type { ImportFile, ImportResult } from '../../server/src/importers/importer.js';
import { importerFor } from '../../server/src/importers/registry.js';
import { isRecord } from '../../server/src/importers/jsonl-records.js';

const fixtures = 'test/importers/fixtures';

function file(name: string): ImportFile {
  return { path: name, bytes: readFileSync(`${fixtures}/${name}`) };
}

function text(name: string, body: string): ImportFile {
  return { path: name, bytes: new TextEncoder().encode(body) };
}

async function run(format: string, files: ImportFile[], options: Record<string, string> = {}): Promise<ImportResult> {
  const importer = importerFor(format);
  if (importer === undefined) assert.fail(`no importer ${format}`);
  const outcome = await importer.run(files, options);
  if (!outcome.ok) assert.fail(outcome.reason);
  return outcome.result;
}

function field(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

const q1 = 'The director of the film Stone Kingdom was born in which city?';

describe('verl dumps (Search-R1 dialect)', async () => {
  const result = await run('verl', [file('verl-search-r1.jsonl')]);

  it('counts: records read, imported, skipped, question ids derived, groups recovered', () => {
    assert.deepEqual(result.counts, { read: 9, imported: 6, skipped: 3, questionIdsDerived: 6, groupsRecovered: 3 });
  });

  it('skips bad records with file:line: reason', () => {
    assert.deepEqual(result.skipped.map((s) => `${s.at.file}:${s.at.line}: ${s.reason}`), [
      'verl-search-r1.jsonl:5: invalid JSON at column 26: a value expected',
      "verl-search-r1.jsonl:6: no 'output' (the response)",
      "verl-search-r1.jsonl:10: no question found: the prompt has no 'Question:' followed by text (set --option question_marker=… for another template)",
    ]);
  });

  it('question ids are derived from the question read after "Question:"; groups are step/k and samples count within them', () => {
    assert.deepEqual(result.rows.map((r) => [r.row.id, r.at.line]), [['10/0#0', 1], ['10/1#0', 2], ['10/0#1', 3], ['10/1#1', 4], ['11/0#0', 8], ['11/0#1', 9]]);
    const first = result.rows[0]!.row;
    assert.equal(first.question, q1);
    assert.equal(first.question_id, derivedQuestionId(q1));
    assert.deepEqual([field(first.meta, 'group'), field(first.meta, 'sample'), field(first.meta, 'step')], ['10/0', 0, '10']);
  });

  it('gold from every gts shape: {target: [...]}, a list, a string', () => {
    assert.deepEqual(result.rows.slice(0, 4).map((r) => r.row.gold), [
      { answers: ['Lupo'], support_ids: [] }, { answers: ['Wusugeir Regrist'], support_ids: [] },
      { answers: ['Lupo'], support_ids: [] }, { answers: ['Wusugeir Regrist'], support_ids: [] },
    ]);
  });

  it('steps, the last answer, no final when there is no answer, and the logged fields under meta', () => {
    const [, , invalid, truncated, twice] = result.rows.map((r) => r.row);
    assert.deepEqual(Array.isArray(invalid!.steps) ? invalid!.steps.map((s) => field(s, 'type')) : undefined, ['reasoning', 'invalid', 'search']);
    assert.equal(truncated!.final, null);
    assert.equal(field(twice!.final, 'answer'), 'Lupo');
    assert.deepEqual(field(result.rows[0]!.row.meta, 'reward_extra_info'), { acc: 1 });
    assert.equal(field(result.rows[0]!.row.meta, 'score'), 1);
    assert.equal(typeof field(result.rows[0]!.row.meta, 'transcript'), 'string');
  });

  it('says what it derived', () => {
    assert.ok(result.notes.some((n) => n.startsWith('6 question ids derived')));
    assert.ok(result.notes.some((n) => n.startsWith('3 groups recovered')));
    assert.ok(result.notes.some((n) => n.startsWith('1 row with no answer')));
  });
});

describe('verl dumps in the other dialects', () => {
  it('research: boxed answers; an unboxed answer is none', async () => {
    const result = await run('verl', [file('verl-research.jsonl')], { dialect: 'research' });
    assert.deepEqual(result.rows.map((r) => field(r.row.final, 'answer') ?? null), ['Lupo', null]);
    assert.equal(result.counts.groupsRecovered, 1);
  });

  it('hermes: searches per query, another tool, an invalid call', async () => {
    const result = await run('verl', [file('verl-hermes.jsonl')], { dialect: 'hermes' });
    const steps = result.rows[0]!.row.steps;
    assert.ok(Array.isArray(steps));
    assert.deepEqual(steps.map((s) => [field(s, 'type'), field(s, 'query') ?? field(s, 'tool') ?? null]), [
      ['reasoning', null], ['search', 'Tadul Bredo studio'], ['search', 'studio founder'], ['tool', 'calculator'], ['invalid', null],
    ]);
    assert.ok(result.notes.some((n) => n.startsWith('1 observation block that answered no call was not imported')));
  });

  it('an unknown dialect or option is refused with the list', async () => {
    const importer = importerFor('verl');
    assert.deepEqual(await importer?.run([], { dialect: 'deepresearcher' }), { ok: false, reason: 'option dialect: unknown dialect \'deepresearcher\'; expected one of search_r1, zerosearch, r1_searcher, research, hermes, autorefine, asearcher, mmsearch_r1, webthinker' });
    const other = await importer?.run([], { colour: 'red' });
    assert.equal(other?.ok, false);
  });

  it('gold shapes that are not gold are skipped with why; no gts is empty gold with a note', async () => {
    const prompt = 'user\nQuestion: Who?\nassistant\n';
    const lines = [{ gts: { target: [1, 'x'] } }, { gts: 3 }, { gts: { target: [null] } }, { gts: true }, {}].map((g) => JSON.stringify({ input: prompt, output: '<answer> a </answer>', step: 1, ...g }));
    const result = await run('verl', [text('g.jsonl', lines.join('\n'))]);
    assert.deepEqual(result.rows.map((r) => r.row.gold), [{ answers: ['1', 'x'], support_ids: [] }, { answers: ['3'], support_ids: [] }, { answers: [], support_ids: [] }]);
    assert.deepEqual(result.skipped.map((s) => `${s.at.line}: ${s.reason}`), ['3: gts: answer 1 is null, expected a string or a number', '4: gts: expected a string, a list of strings or {"target": [...]}, got a boolean']);
    assert.ok(result.notes.some((n) => n.startsWith('1 row without gold')));
  });

  it('a record that is not an object, a file that is not UTF-8 or has no records', async () => {
    const result = await run('verl', [text('a.jsonl', '[1, 2]\n'), { path: 'b.jsonl', bytes: new Uint8Array([0xff, 0xfe, 0x00]) }, text('c.jsonl', '\n\n')]);
    assert.deepEqual(result.skipped.map((s) => `${s.at.file}:${s.at.line}: ${s.reason}`), ['a.jsonl:1: expected a JSON object, got an array', 'b.jsonl:1: the file is not UTF-8 text', 'c.jsonl:1: the file has no records']);
  });

  it('question_marker reads another template', async () => {
    const line = JSON.stringify({ input: 'user\nQ: Who wrote it?\nassistant\n', output: '<answer> a </answer>', step: 2 });
    const result = await run('verl', [text('m.jsonl', line)], { question_marker: 'Q:' });
    assert.equal(result.rows[0]?.row.question, 'Who wrote it?');
  });
});

describe('SkyRL eval dumps', async () => {
  const result = await run('skyrl', [file('skyrl-global_step_40_evals-hotpotqa.jsonl')]);

  it('question ids from extra_info.index, groups within the global step, the stop reason as final.status', () => {
    assert.deepEqual(result.counts, { read: 4, imported: 3, skipped: 1, questionIdsDerived: 0, groupsRecovered: 2 });
    assert.deepEqual(result.rows.map((r) => [r.row.id, r.row.question_id]), [['global_step_40/0#0', 'hotpotqa/7'], ['global_step_40/0#1', 'hotpotqa/7'], ['global_step_40/1#0', 'hotpotqa/12']]);
    assert.deepEqual(result.rows.map((r) => r.row.final === null ? null : [field(r.row.final, 'answer'), field(r.row.final, 'status')]), [['Lupo', 'stop'], ['Toburn', 'stop'], [null, 'length']]);
    assert.deepEqual(result.rows[0]!.row.gold, { answers: ['Lupo'], support_ids: [] });
    assert.deepEqual(result.skipped.map((s) => `${s.at.line}: ${s.reason}`), ["4: no 'output_response'"]);
  });
});

describe('R1-Searcher eval output', async () => {
  const result = await run('r1_searcher', [file('r1-searcher-eval.jsonl')]);

  it('pred_ans is the answer, stop_reason_final the status, the transcript the steps', () => {
    assert.deepEqual(result.counts, { read: 3, imported: 2, skipped: 1, questionIdsDerived: 2, groupsRecovered: null });
    const [first, second] = result.rows.map((r) => r.row);
    assert.deepEqual(first!.final, { answer: 'Lupo', citations: [], text: 'The director was born in Lupo. <answer> Lupo </answer>', status: 'finished' });
    assert.equal(first!.id, `${derivedQuestionId(q1)}#0`);
    assert.deepEqual(second!.steps, []);
    assert.deepEqual(second!.gold, { answers: ['Wusugeir Regrist'], support_ids: [] });
    assert.deepEqual(result.skipped.map((s) => `${s.at.line}: ${s.reason}`), ["3: no 'question'"]);
  });
});
