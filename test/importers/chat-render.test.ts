// The chat-message formats render back (issue 34): for every row of the samples and of a torture
// log per format (test/importers/fixtures/*-torture*), rendering the identity edit gives the logged
// conversation byte for byte, and the record rebuilt from a rendering reads back as the edited row,
// for every edit that deletes or repeats one step and one that sets the answer. A rendering the
// format cannot write exactly is refused, never guessed: the counts of those are pinned.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { ImportFile, PoolRowJson } from '../../server/src/importers/importer.js';
import { importerFor } from '../../server/src/importers/registry.js';
import type { CheckedRow } from '../../server/src/importers/registry.js';
import { identityEdit } from '../../server/src/importers/render.js';
import type { EditedRow } from '../../server/src/importers/render.js';
import { trlParquet } from './parquet-fixtures.js';
import { fileOf, runImporter } from './run-importer.js';

const fixtures = path.resolve('test/importers/fixtures');

function filesIn(dir: string, pattern: RegExp): ImportFile[] {
  return fs.readdirSync(dir).filter((f) => pattern.test(f)).sort().map((f) => ({ path: path.join(dir, f), bytes: fs.readFileSync(path.join(dir, f)) }));
}

interface FormatCase {
  readonly format: string;
  readonly files: readonly ImportFile[];
  readonly options?: Record<string, string>;
  /** The meta key the format renders. */
  readonly key: string;
  /** The record of one row with its rendered value, as the framework would log it. */
  readonly record: (row: CheckedRow, rendered: unknown) => ImportFile[];
}

interface Tally {
  rows: number;
  identical: number;
  edits: number;
  rendered: number;
  refused: Map<string, number>;
}

// An edit keeps each step's logged turn; the rendered conversation numbers its messages afresh
// (a repeated call is a message of its own), so turns are compared only on the identity render.
function withoutCallIds(steps: unknown): unknown {
  return (steps as Record<string, unknown>[]).map((s) => ({ ...s, turn: undefined, ...(s.type === 'tool' ? { call_id: undefined } : {}) }));
}

/** The edits tried on a row: each step deleted, each step repeated, and the answer set (when the row has one). */
function editsOf(row: CheckedRow): { name: string; edit: EditedRow }[] {
  const base = identityEdit(row.trajectory);
  const n = base.stepOrigin.length;
  const edits = [];
  for (let i = 0; i < n; i++) {
    edits.push({ name: `delete ${i}`, edit: { ...base, stepOrigin: base.stepOrigin.filter((j) => j !== i) } });
    edits.push({ name: `repeat ${i}`, edit: { ...base, stepOrigin: base.stepOrigin.flatMap((j) => (j === i ? [j, j] : [j])) } });
  }
  if (row.trajectory.final !== null) edits.push({ name: 'set answer', edit: { ...base, answer: 'Zuvari Ostrand' } });
  return edits;
}

async function roundTrip(c: FormatCase): Promise<Tally> {
  const renderer = importerFor(c.format)?.renderer;
  assert.ok(renderer !== undefined, `${c.format} has a renderer`);
  assert.deepEqual(renderer.renders, [c.key]);
  const result = await runImporter(c.format, c.files, c.options);
  assert.deepEqual(result.skipped, []);
  const tally: Tally = { rows: 0, identical: 0, edits: 0, rendered: 0, refused: new Map() };
  const reread = async (row: CheckedRow, rendered: unknown): Promise<PoolRowJson> => {
    const again = await runImporter(c.format, c.record(row, rendered), c.options);
    assert.equal(again.rows.length, 1, `${row.row.id as string}: the rendered record reads as one row`);
    return again.rows[0]!.row;
  };
  for (const row of result.rows as CheckedRow[]) {
    tally.rows++;
    const identity = renderer.render(row.trajectory, identityEdit(row.trajectory));
    assert.ok(identity.ok, `${row.row.id as string}: ${identity.ok ? '' : identity.reason}`);
    const logged = (row.row.meta as Record<string, unknown>)[c.key];
    assert.equal(JSON.stringify(identity.meta[c.key]), JSON.stringify(logged), `${row.row.id as string}: the identity render is the logged value`);
    const same = await reread(row, identity.meta[c.key]);
    assert.deepEqual([same.steps, same.final], [row.row.steps, row.row.final], `${row.row.id as string}: read(render(row)) == row`);
    tally.identical++;
    for (const { name, edit } of editsOf(row)) {
      tally.edits++;
      const out = renderer.render(row.trajectory, edit);
      if (!out.ok) {
        const kind = `${name.split(' ')[0]!}: ${out.reason.replace(/\d+/g, 'N')}`;
        tally.refused.set(kind, (tally.refused.get(kind) ?? 0) + 1);
        continue;
      }
      tally.rendered++;
      const back = await reread(row, out.meta[c.key]);
      const steps = row.row.steps as unknown[];
      assert.deepEqual(withoutCallIds(back.steps), withoutCallIds(edit.stepOrigin.map((i) => steps[i])), `${row.row.id as string} ${name}: steps read back`);
      const final = back.final as { answer: string | null; text?: string } | null;
      if (edit.answer !== '') assert.deepEqual([final?.answer, final?.text], [edit.answer, final?.text], `${row.row.id as string} ${name}: answer read back`);
    }
  }
  return tally;
}

function summary(t: Tally): string {
  return `${t.identical} of ${t.rows} rows re-render byte-identical; ${t.rendered} of ${t.edits} edits rendered`;
}

const rllmRecord = (row: CheckedRow, rendered: unknown): ImportFile[] => [
  fileOf('episode_hash0_idx_0.json', { episode_id: 'x:0', task_hash: row.trajectory.question_id, task: { question: row.trajectory.question }, ...(row.trajectory.finalStatus === undefined ? {} : { termination_reason: row.trajectory.finalStatus }), trajectories: [{ steps: [{ chat_completions: rendered }] }] }),
];

const artRecord = (_row: CheckedRow, rendered: unknown): ImportFile[] => [fileOf('0001.jsonl', `${JSON.stringify({ trajectories: [{ metadata: {}, messages_and_choices: rendered }] })}\n`)];

const bcpRecord = (row: CheckedRow, rendered: unknown): ImportFile[] => [
  fileOf('run_x.json', { query_id: row.trajectory.question_id, ...(row.trajectory.finalStatus === undefined ? {} : { status: row.trajectory.finalStatus }), result: rendered }),
];

const trlRows: Record<string, string | number>[] = JSON.parse(fs.readFileSync(path.join(fixtures, 'trl-torture.json'), 'utf8'));
const trlRecord = (row: CheckedRow, rendered: unknown): ImportFile[] => {
  const logged = trlRows[row.at.line - 1]!;
  return [trlParquet('completions_00005.parquet', [{ ...logged, completion: rendered as string }])];
};

describe('chat-message formats render back', () => {
  it('BrowseComp-Plus: every run of samples/deep-research', async () => {
    const dir = path.resolve('samples/deep-research');
    const files = [...filesIn(path.join(dir, 'runs'), /\.json$/), ...filesIn(dir, /^(queries|judge)\.jsonl$/)];
    const t = await roundTrip({ format: 'browsecomp_plus', files, key: 'items', record: bcpRecord });
    assert.equal(summary(t), '200 of 200 rows re-render byte-identical; 1694 of 1701 edits rendered');
    // The 7 incomplete runs end on a reasoning item: without the last call it would read as a final turn with no answer (one more step).
    assert.deepEqual([...t.refused], [["delete: the rendered conversation reads as N steps, not the edit's N", 7]]);
  });

  it('BrowseComp-Plus: the torture runs (reasoning items, empty results, a call never executed, several ids in one bracket)', async () => {
    const t = await roundTrip({ format: 'browsecomp_plus', files: filesIn(path.join(fixtures, 'browsecomp-torture'), /\.json$/), key: 'items', record: bcpRecord });
    assert.equal(summary(t), '3 of 3 rows re-render byte-identical; 19 of 21 edits rendered');
    assert.deepEqual([...t.refused], [
      ['repeat: the edit repeats the text before call item N', 1],
      // Two output_text items at the end are one final message: a repeated final turn reads as one.
      ["repeat: the rendered conversation reads as N steps, not the edit's N", 1],
    ]);
  });

  it('rllm: the torture episodes', async () => {
    const t = await roundTrip({ format: 'rllm', files: filesIn(path.join(fixtures, 'rllm-torture'), /\.json$/), key: 'messages', record: rllmRecord });
    assert.equal(summary(t), '4 of 4 rows re-render byte-identical; 21 of 30 edits rendered');
    assert.deepEqual([...t.refused], [
      ['repeat: the edit repeats the reasoning of message N, a field that holds one text', 1],
      ['repeat: the edit repeats the text beside the calls of message N', 1],
      ['delete: the edit deletes every call of message N but keeps its reasoning, which would read as a turn with no call', 1],
      ['delete: the final message does not read back as the edited answer and final text (the edit changes a step read from it)', 1],
      ['repeat: the final message does not read back as the edited answer and final text (the edit changes a step read from it)', 1],
      ['delete: the edit deletes or repeats some of the queries of one call (message N, call N), which its arguments and output hold together', 2],
      ['repeat: the edit deletes or repeats some of the queries of one call (message N, call N), which its arguments and output hold together', 2],
    ]);
  });

  it('ART: the torture groups (Choice wrappers, slime tool messages, content parts, tool_calls as a JSON string)', async () => {
    const t = await roundTrip({ format: 'art', files: [{ path: path.join(fixtures, 'art-torture.jsonl'), bytes: fs.readFileSync(path.join(fixtures, 'art-torture.jsonl')) }], key: 'messages', record: artRecord });
    assert.equal(summary(t), '3 of 3 rows re-render byte-identical; 10 of 16 edits rendered');
    assert.deepEqual([...t.refused], [
      ['delete: the final message does not read back as the edited answer and final text (the edit changes a step read from it)', 1],
      ['repeat: the final message does not read back as the edited answer and final text (the edit changes a step read from it)', 1],
      ["delete: message N's content is a list of parts, which the render does not rewrite", 1],
      ['repeat: the edit repeats the text beside the calls of message N', 2],
      ['delete: the edit deletes every call of message N but keeps its reasoning, which would read as a turn with no call', 1],
    ]);
  });

  it('TRL: the torture completions (text, think blocks, several answers)', async () => {
    const t = await roundTrip({ format: 'trl', files: [trlParquet('completions_00005.parquet', trlRows)], key: 'completion', record: trlRecord });
    assert.equal(summary(t), '3 of 3 rows re-render byte-identical; 2 of 8 edits rendered');
    // A text completion is one message: its think blocks are also the final text, or the invalid step's.
    assert.deepEqual([...t.refused], [
      ['delete: the final message does not read back as the edited answer and final text (the edit changes a step read from it)', 1],
      ['repeat: the final message does not read back as the edited answer and final text (the edit changes a step read from it)', 1],
      ["delete: step N of the rendered conversation does not read back as the edit's", 1],
      ["repeat: step N of the rendered conversation does not read back as the edit's", 1],
      ["delete: the rendered conversation reads as N steps, not the edit's N", 1],
      ["repeat: the rendered conversation reads as N steps, not the edit's N", 1],
    ]);
  });
});

describe('a call the environment never executed is no step (one rule for every format)', () => {
  const searches = (row: PoolRowJson | undefined): unknown[] => ((row?.steps ?? []) as { type: string; query?: string }[]).filter((s) => s.type === 'search' || s.type === 'tool').map((s) => s.query ?? s.type);

  it('rllm: the calls of the last turn of a MAX_TURNS_EXCEEDED episode', async () => {
    const result = await runImporter('rllm', filesIn(path.join(fixtures, 'rllm-torture'), /hash1/));
    const row = result.rows[0]?.row;
    assert.deepEqual(searches(row), ['The Winter Fever (novel)', 'Jubre Nekaikras']);
    assert.deepEqual(row?.final, { answer: null, status: 'MAX_TURNS_EXCEEDED' });
    // The rendered conversation keeps them: the identity render is the logged one (above).
    const logged = (row?.meta as { messages: { tool_calls?: unknown[] }[] }).messages;
    assert.equal(logged.at(-1)?.tool_calls?.length, 2);
  });

  it('ART: a last assistant message whose call no tool message answers', async () => {
    const result = await runImporter('art', [{ path: 'art-torture.jsonl', bytes: fs.readFileSync(path.join(fixtures, 'art-torture.jsonl')) }]);
    assert.deepEqual(searches(result.rows[2]?.row), ['The Winter Fever']);
  });

  it('BrowseComp-Plus: an incomplete run whose last call has no output', async () => {
    const result = await runImporter('browsecomp_plus', filesIn(path.join(fixtures, 'browsecomp-torture'), /b1/));
    const row = result.rows[0]?.row;
    assert.deepEqual(searches(row), ['Grailaind Nekaikras']);
    assert.deepEqual(row?.final, { answer: null, status: 'incomplete' });
  });

  it('a call answered by no tool message before a later turn stays a step (the environment went on)', async () => {
    const messages = [
      { role: 'user', content: 'Q?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'search', arguments: '{"query": "first"}' } }] },
      { role: 'assistant', content: '\\boxed{x}' },
    ];
    const result = await runImporter('rllm', [fileOf('episode_hash9_idq_0.json', { episode_id: 'q:0', trajectories: [{ steps: [{ chat_completions: messages }] }] })]);
    assert.deepEqual(searches(result.rows[0]?.row), ['first']);
  });
});

describe('messages importer', () => {
  const messagesRecord = (_row: CheckedRow, rendered: unknown): ImportFile[] => [fileOf('again.jsonl', `${JSON.stringify({ messages: rendered })}\n`)];
  const torture = { path: path.join(fixtures, 'messages-torture.jsonl'), bytes: fs.readFileSync(path.join(fixtures, 'messages-torture.jsonl')) };

  it('reads chat-completions lines: ids, question, gold and group by key, else FILE:LINE, the first user message, empty gold, recovered groups', async () => {
    const result = await runImporter('messages', [torture], { answer: 'answer_tag', citations: 'docid' });
    assert.deepEqual(result.counts, { read: 3, imported: 3, skipped: 0, questionIdsDerived: 3, groupsRecovered: 1 });
    const [m1, m2, m3] = result.rows.map((r) => r.row);
    assert.deepEqual([m1?.id, m2?.id, m3?.id], ['m1', 'messages-torture:2', 'messages-torture:3']);
    assert.deepEqual([m1?.question, m2?.question], ['Who wrote The Winter Fever?', 'Who wrote The Winter Fever?']);
    assert.deepEqual([m1?.gold, m2?.gold], [{ answers: ['Jubre Nekaikras'], support_ids: [] }, { answers: [], support_ids: [] }]);
    const groups = [m1, m2, m3].map((r) => [(r?.meta as { group?: string }).group, (r?.meta as { sample?: number }).sample]);
    assert.deepEqual(groups, [['messages-torture/0', 0], ['messages-torture/0', 1], ['g7', undefined]]);
    assert.deepEqual(m1?.final, { answer: 'Jubre Nekaikras', citations: [{ marker: '[w:2, w:5]', id: 'w:2' }, { marker: '[w:2, w:5]', id: 'w:5' }], text: '<answer>Jubre Nekaikras</answer> [w:2, w:5]' });
    // The last turn's call no tool message answers was never executed: no step.
    assert.deepEqual((m2?.steps as { type: string; query?: string }[]).map((s) => s.query ?? s.type), ['reasoning', 'Winter Fever author']);
  });

  it('renders back: the torture lines', async () => {
    const t = await roundTrip({ format: 'messages', files: [torture], options: { answer: 'answer_tag', citations: 'docid' }, key: 'messages', record: messagesRecord });
    assert.equal(summary(t), '3 of 3 rows re-render byte-identical; 11 of 12 edits rendered');
  });

  it('reads Responses-API items: reasoning, function calls and their outputs, an output message; a last call never answered is no step', async () => {
    const file = { path: path.join(fixtures, 'messages-responses.jsonl'), bytes: fs.readFileSync(path.join(fixtures, 'messages-responses.jsonl')) };
    const result = await runImporter('messages', [file], { answer: 'answer_tag' });
    const [r1, r2] = result.rows.map((r) => r.row);
    // The reasoning and the call are one assistant turn (0), the answer message the next (1).
    assert.deepEqual(r1?.steps, [{ type: 'reasoning', text: 'Search for him.', turn: 0 }, { type: 'search', query: 'Grailaind Nekaikras', results: [{ id: 'w:1', rank: 1 }], turn: 0 }]);
    assert.deepEqual(r1?.turns, ['', '<answer>Rukal</answer>']);
    assert.deepEqual(r1?.final, { answer: 'Rukal', citations: [], text: '<answer>Rukal</answer>' });
    assert.deepEqual(r1?.gold, { answers: ['Rukal'], support_ids: [] });
    assert.deepEqual(r2?.steps, [{ type: 'search', query: 'Grailaind', results: [], turn: 0 }]);
    assert.ok(result.notes.some((n) => n.startsWith('2 conversations are Responses-API items: read, not rendered')));
  });
});
