// The tagged transcripts written back (importers/tagged-render.ts, docs/import.md "Rendering"): every
// sample and torture log re-renders byte for byte, and an edited row is written as a response that
// reads back as the edited steps, with the traps of the frameworks' sources (calls never executed,
// invalid actions) kept in the text and out of the steps.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { identityEdit, roundTrip, type EditedRow } from '../../server/src/importers/render.js';
import { importerFor } from '../../server/src/importers/registry.js';
import { dialectNamed } from '../../server/src/importers/tagged-dialects.js';
import { taggedRenderer } from '../../server/src/importers/tagged-render.js';
import { readTranscript } from '../../server/src/importers/tagged-transcript.js';
import type { Trajectory } from '../../server/src/pool/types.js';
import { repoRoot } from '../lsp/lsp-test-client.js';

const fixtures = path.join(repoRoot, 'test/importers/fixtures');

interface Log {
  readonly format: string;
  readonly files: readonly string[];
  readonly dialect: string;
  /** Importer options besides the dialect (a template's question marker). */
  readonly options?: Readonly<Record<string, string>>;
}

const rollouts = path.join(repoRoot, 'samples/search-r1/rollout');
const logs: readonly Log[] = [
  { format: 'verl', files: fs.readdirSync(rollouts).map((f) => path.join(rollouts, f)), dialect: 'search_r1' },
  { format: 'verl', files: [path.join(fixtures, 'verl-search-r1.jsonl')], dialect: 'search_r1' },
  { format: 'verl', files: [path.join(fixtures, 'verl-research.jsonl')], dialect: 'research' },
  { format: 'verl', files: [path.join(fixtures, 'verl-hermes.jsonl')], dialect: 'hermes' },
  { format: 'skyrl', files: [path.join(fixtures, 'skyrl-global_step_40_evals-hotpotqa.jsonl')], dialect: 'search_r1' },
  { format: 'r1_searcher', files: [path.join(fixtures, 'r1-searcher-eval.jsonl')], dialect: 'r1_searcher' },
  { format: 'verl', files: [path.join(fixtures, 'torture/verl-search-r1.jsonl')], dialect: 'search_r1' },
  { format: 'verl', files: [path.join(fixtures, 'torture/verl-zerosearch.jsonl')], dialect: 'zerosearch' },
  { format: 'verl', files: [path.join(fixtures, 'torture/verl-research.jsonl')], dialect: 'research' },
  { format: 'skyrl', files: [path.join(fixtures, 'torture/skyrl-global_step_1_evals-hermes.jsonl')], dialect: 'hermes' },
  { format: 'r1_searcher', files: [path.join(fixtures, 'torture/r1-searcher-eval.jsonl')], dialect: 'r1_searcher' },
  { format: 'verl', files: [path.join(fixtures, 'torture/verl-autorefine.jsonl')], dialect: 'autorefine' },
  { format: 'verl', files: [path.join(fixtures, 'torture/verl-asearcher.jsonl')], dialect: 'asearcher' },
  { format: 'verl', files: [path.join(fixtures, 'torture/verl-mmsearch-r1.jsonl')], dialect: 'mmsearch_r1', options: { question_marker: '<|vision_end|>' } },
  { format: 'verl', files: [path.join(fixtures, 'torture/verl-webthinker.jsonl')], dialect: 'webthinker' },
];

async function rowsOf(log: Log): Promise<Trajectory[]> {
  const importer = importerFor(log.format)!;
  const outcome = await importer.run(log.files.map((f) => ({ path: path.relative(repoRoot, f), bytes: fs.readFileSync(f) })), log.format === 'r1_searcher' ? {} : { dialect: log.dialect, ...log.options });
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.reason);
  return outcome.result.rows.map((r) => ({ ...r.trajectory, format: log.format }));
}

const name = (log: Log): string => `${log.format} ${path.relative(repoRoot, log.files[0]!)}${log.files.length > 1 ? ` (+${log.files.length - 1})` : ''}`;

function edited(row: Trajectory, stepOrigin: readonly number[], change: Partial<EditedRow> = {}): EditedRow {
  return { ...identityEdit(row), stepOrigin, ...change };
}

describe('tagged transcripts: the round trip', () => {
  for (const log of logs) {
    it(`${name(log)}: every record re-renders byte-identical`, async () => {
      const rows = await rowsOf(log);
      assert.ok(rows.length > 0);
      const { total, misses } = roundTrip(rows, taggedRenderer);
      assert.deepEqual(misses.map((m) => `${m.row.id}: ${m.reason ?? `${m.key} @${m.offset}`}`), []);
      assert.equal(total, rows.length);
      assert.equal(importerFor(log.format)!.renderer, taggedRenderer);
    });
  }
});

describe('tagged transcripts: an edited row is written as a response that reads back as the edit', () => {
  for (const log of logs) {
    it(`${name(log)}: each step deleted, each step repeated, every search deleted`, async () => {
      const dialect = dialectNamed(log.dialect)!;
      const unwritable: string[] = [];
      for (const row of await rowsOf(log)) {
        const steps = row.trace ?? row.steps;
        const all = steps.map((_s, i) => i);
        const edits = [
          ...all.map((i) => all.filter((j) => j !== i)),
          ...all.map((i) => all.flatMap((j) => (j === i ? [j, j] : [j]))),
          all.filter((i) => steps[i]!.type !== 'search'),
        ];
        for (const origin of edits) {
          const out = taggedRenderer.render(row, edited(row, origin));
          if (!out.ok) {
            unwritable.push(`${row.id} [${origin.join(',')}]: ${out.reason}`);
            continue;
          }
          const again = readTranscript(out.meta['transcript'] as string, dialect);
          const before = readTranscript(row.meta['transcript'] as string, dialect);
          assert.deepEqual(again.steps, origin.map((i) => before.steps[i]), `${row.id} [${origin.join(',')}]`);
          assert.deepEqual(out.meta['observations'], again.observations);
          // The final turn is kept whatever happened to the steps before it.
          assert.ok((out.meta['transcript'] as string).endsWith((row.meta['transcript'] as string).slice(before.layout.tailStart)));
        }
      }
      // Only a call of several queries cannot lose one of them (verl's search tool, query_list), and
      // nothing can follow a block the response was cut in.
      for (const miss of unwritable) assert.match(miss, /is one of 2 steps of one call block|was never closed \(the response was cut there\): no step can follow it/);
      if (log.files[0]!.includes('torture/skyrl')) assert.equal(unwritable.filter((m) => m.includes('one call block')).length, 4);
    });
  }

  it('deleting the searches of a well-formed Search-R1 response leaves two <think> blocks in a row, as the framework would log it', async () => {
    const [row] = await rowsOf(logs[6]!);
    assert.ok(row);
    const steps = row.trace!;
    const out = taggedRenderer.render(row, edited(row, steps.flatMap((s, i) => (s.type === 'search' ? [] : [i]))));
    assert.ok(out.ok);
    assert.equal(out.meta['transcript'], '<think> who? </think>\n\n<think> found </think>\n<answer> Lucca </answer>');
    assert.deepEqual(out.meta['observations'], []);
  });

  it('a repeated search repeats its <information> block: the same retriever answers the same query again', async () => {
    const row = (await rowsOf(logs[6]!)).find((r) => r.question === 'torture repeated search?')!;
    const out = taggedRenderer.render(row, edited(row, [0, 0, 1]));
    assert.ok(out.ok);
    assert.equal((out.meta['observations'] as string[]).length, 3);
  });

  it('an answer set by an edit is written into the last <answer> block, the whitespace around it kept; a boxed dialect writes it in the \\boxed{}', async () => {
    const row = (await rowsOf(logs[6]!))[0]!;
    const out = taggedRenderer.render(row, edited(row, identityEdit(row).stepOrigin, { answer: 'Rome' }));
    assert.ok(out.ok);
    assert.ok((out.meta['transcript'] as string).endsWith('<answer> Rome </answer>'));
    const boxed = (await rowsOf(logs[8]!))[0]!;
    const written = taggedRenderer.render(boxed, edited(boxed, identityEdit(boxed).stepOrigin, { answer: 'Pisa' }));
    assert.ok(written.ok);
    assert.ok((written.meta['transcript'] as string).endsWith('<answer> The answer is \\boxed{Pisa} </answer>'));
  });

  it('what cannot be written exactly is refused with why, never guessed', async () => {
    const rows = await rowsOf(logs[6]!);
    const noAnswer = rows.find((r) => r.question === 'torture unclosed think?')!;
    assert.deepEqual(taggedRenderer.render(noAnswer, edited(noAnswer, [0], { answer: 'x' })), { ok: false, reason: 'the edited answer has no <answer> block to be written in' });
    const tagged = rows[0]!;
    assert.deepEqual(taggedRenderer.render(tagged, edited(tagged, identityEdit(tagged).stepOrigin, { answer: 'a </answer> b' })), { ok: false, reason: 'the edited answer does not read back as written (it holds an answer tag, or whitespace the reader trims)' });
    const plain: Trajectory = { ...tagged, meta: { ...tagged.meta, dialect: undefined } };
    assert.deepEqual(taggedRenderer.render(plain, identityEdit(plain)), { ok: false, reason: 'the row names no dialect (meta.dialect)' });
  });
});

describe('tagged transcripts: the traps (docs/import.md)', () => {
  it('a call the response ends on was never executed: no step, not a search; the text keeps it', async () => {
    const rows = await rowsOf(logs[6]!);
    const ended = rows.find((r) => r.question === 'torture call never executed at max turns?')!;
    assert.deepEqual(ended.trace!.map((s) => s.type), ['reasoning', 'search', 'reasoning']);
    assert.deepEqual(ended.steps.map((s) => s.type), ['search']);
    const out = taggedRenderer.render(ended, edited(ended, [0, 2]));
    assert.ok(out.ok);
    assert.ok((out.meta['transcript'] as string).endsWith('<think> b </think>\n<search> q2 </search>'));
  });

  it('a closed call the framework answered with its invalid-action text was not executed: one invalid step, and the next search keeps its own results', async () => {
    const rows = await rowsOf(logs[6]!);
    const empty = rows.find((r) => r.question === 'torture empty search answered by invalid text?')!;
    assert.deepEqual(empty.trace!.map((s) => (s.type === 'invalid' ? `invalid ${s.text}` : s.type)), ['reasoning', 'invalid <search></search>', 'reasoning']);
    const last = rows.find((r) => r.question === 'torture invalid text last: its example answer is none?')!;
    assert.equal(last.final, null);
  });
});
