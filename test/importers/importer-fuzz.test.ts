// Every text importer on random truncations and mutations of its sample log (seeded, so a failure
// replays): no throw escapes the importer, no case runs past its time bound, the heap stays
// bounded, and every row it hands over can be written as JSON. The counts are printed as
// diagnostics (cases, crashes, hangs, peak heap) so a run can be quoted.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { ImportFile } from '../../server/src/importers/importer.js';
import { isRecord } from '../../server/src/importers/jsonl-records.js';
import { importerFor } from '../../server/src/importers/registry.js';

/** A sample log of each text importer, as its files and options. */
interface Sample {
  readonly name: string;
  readonly format: string;
  readonly options: Record<string, string>;
  readonly files: readonly { readonly path: string; readonly text: string }[];
}

const fixture = (name: string): { path: string; text: string } => ({ path: name, text: readFileSync(`test/importers/fixtures/${name}`, 'utf8') });

const chatMessages = [
  { role: 'system', content: 'Answer with \\boxed{}.' },
  { role: 'user', content: 'Who wrote The Winter Fever?' },
  { role: 'assistant', content: '<think>Look it up.</think>', tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'search', arguments: '{"query": "The Winter Fever"}' } }] },
  { role: 'tool', tool_call_id: 'call_0', content: '[Document 1] (ID: w:2, Score: 0.88)\nThe Winter Fever is a novel by Jubre Nekaikras.\n\n[Document 2] (ID: w:1, Score: 0.41)\nOther text.' },
  { role: 'assistant', content: '<think>Found it.</think> The author is \\boxed{Jubre Nekaikras} [w:2]. <answer>Jubre Nekaikras</answer>' },
];

const rllmEpisode = {
  training_step: 12, episode_id: 'task7:0', task: { question: 'Who wrote The Winter Fever?', ground_truth: ['Jubre Nekaikras'] }, task_hash: '9c2f61ab',
  is_correct: true, termination_reason: 'ENV_DONE',
  trajectories: [{ name: 'search_agent', uid: 'traj-0', reward: 1, steps: [{ thought: '', action: '', reward: 0, done: false, chat_completions: chatMessages.slice(0, 3) }, { reward: 1, done: true, chat_completions: chatMessages }] }],
};

const artGroup = { trajectories: [0, 1].map((i) => ({ reward: i, metrics: { turns: 2 }, metadata: { question_id: 'q7', answers: ['Jubre Nekaikras'] }, messages_and_choices: chatMessages })) };

const samples: readonly Sample[] = [
  { name: 'verl (search_r1)', format: 'verl', options: { dialect: 'search_r1' }, files: [fixture('verl-search-r1.jsonl')] },
  { name: 'verl (hermes)', format: 'verl', options: { dialect: 'hermes' }, files: [fixture('verl-hermes.jsonl')] },
  { name: 'verl (research)', format: 'verl', options: { dialect: 'research' }, files: [fixture('verl-research.jsonl')] },
  { name: 'verl (autorefine)', format: 'verl', options: { dialect: 'autorefine' }, files: [fixture('torture/verl-autorefine.jsonl')] },
  { name: 'verl (asearcher)', format: 'verl', options: { dialect: 'asearcher' }, files: [fixture('torture/verl-asearcher.jsonl')] },
  { name: 'verl (mmsearch_r1)', format: 'verl', options: { dialect: 'mmsearch_r1', question_marker: '<|vision_end|>' }, files: [fixture('torture/verl-mmsearch-r1.jsonl')] },
  { name: 'verl (webthinker)', format: 'verl', options: { dialect: 'webthinker' }, files: [fixture('torture/verl-webthinker.jsonl')] },
  { name: 'skyrl', format: 'skyrl', options: {}, files: [fixture('skyrl-global_step_40_evals-hotpotqa.jsonl')] },
  { name: 'r1_searcher', format: 'r1_searcher', options: {}, files: [fixture('r1-searcher-eval.jsonl')] },
  { name: 'rllm', format: 'rllm', options: {}, files: [{ path: 'episodes/train_step_12_epoch_0/episode_id7_0.json', text: JSON.stringify(rllmEpisode, null, 2) }] },
  { name: 'art (JSONL)', format: 'art', options: {}, files: [{ path: '0012.jsonl', text: `${JSON.stringify(artGroup)}\n${JSON.stringify(artGroup)}\n` }] },
  {
    name: 'browsecomp_plus', format: 'browsecomp_plus', options: {},
    files: [
      { path: 'run_hqa-0001.json', text: readFileSync('samples/deep-research/runs/hqa-0001.json', 'utf8') },
      { path: 'queries.jsonl', text: readFileSync('samples/deep-research/queries.jsonl', 'utf8').split('\n').slice(0, 3).join('\n') },
      { path: 'qrels.txt', text: 'hqa-0001 Q0 1408 1\nhqa-0001 Q0 614 1\n' },
    ],
  },
];

/** Text that matters to the importers: tags of every dialect, JSON structure, numbers JSON cannot write. */
const pieces = [
  '<think>', '</think>', '<answer>', '</answer>', '<search>', '</search>', '<information>', '</information>', '<tool_call>', '</tool_call>',
  '<tool_response>', '</tool_response>', '[[[[[[[[[[', '{"a":{"a":{"a":{"a":{"a":', '<result>', '</result>', '<|begin_of_query|>', '<|end_of_documents|>', '\\boxed{', '}', '{', '[', ']', '"',
  ',', ':', '\n', '\\n', '1e999', '-1e999', 'NaN', 'null', '"tool_calls": [', '"results": ', 'Doc 1(Title: ', '[Document 1] (ID: ', '\u0000', '\uFEFF', 'Exact Answer: ',
  '<refine>', '</refine>', '<documents>', '</documents>', '<access>', '</access>', '>>>> Page 2 >>>>', '<reason>', '<text_search>', '</text_search>', '\nassistant\n',
  '<|begin_search_query|>', '<|end_search_query|>', '<|begin_click_result|>', '<|end_search_result|>', '***Web Page 1:***\n', 'ANSWER:',
];

type TextMutation = { readonly kind: 'truncate' | 'delete' | 'insert' | 'repeat'; readonly at: number; readonly length: number; readonly piece: string; readonly times: number };
/** An edit of one string or number inside one JSON record, so the record still parses and reaches the importer's own reading. */
type LeafMutation = { readonly kind: 'leaf'; readonly record: number; readonly leaf: number; readonly edit: TextMutation; readonly number: string };
type Mutation = TextMutation | LeafMutation | { readonly kind: 'bad-byte'; readonly at: number };

const fraction = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });
const textMutation: fc.Arbitrary<TextMutation> = fc.record({
  kind: fc.constantFrom('truncate', 'delete', 'insert', 'repeat'),
  at: fraction,
  length: fc.integer({ min: 1, max: 64 }),
  piece: fc.constantFrom(...pieces),
  // A repeat grows a piece or a slice up to thousands of times: the hostile inputs were of this kind.
  times: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 100, max: 5_000 })),
});

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  textMutation,
  fc.record({ kind: fc.constant('leaf' as const), record: fraction, leaf: fraction, edit: textMutation, number: fc.constantFrom('1e999', '-1e999', '1e308', '9007199254740993', '"7"', 'null', '[]', '{}', `${'['.repeat(70)}${']'.repeat(70)}`, `${'{"a":'.repeat(70)}1${'}'.repeat(70)}`) }),
  fc.record({ kind: fc.constant('bad-byte' as const), at: fraction }),
);

function mutateText(text: string, m: TextMutation): string {
  const at = Math.floor(m.at * (text.length + 1));
  switch (m.kind) {
    case 'truncate':
      return text.slice(0, at);
    case 'delete':
      return text.slice(0, at) + text.slice(at + m.length);
    case 'insert':
      return text.slice(0, at) + m.piece + text.slice(at);
    case 'repeat': {
      const slice = m.times > 8 ? m.piece : text.slice(at, at + m.length);
      return text.slice(0, at) + slice.repeat(m.times) + text.slice(at);
    }
  }
}

/** The strings and numbers of a JSON value, each with a way to replace it (by raw JSON text). */
function leaves(root: unknown): { readonly value: string | number; readonly set: (raw: string) => void }[] {
  const found: { value: string | number; set: (raw: string) => void }[] = [];
  const stack: { value: unknown; set: (raw: string) => void }[] = [{ value: root, set: () => undefined }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value } = item;
    if (typeof value === 'string' || typeof value === 'number') found.push({ value, set: item.set });
    else if (Array.isArray(value)) value.forEach((v: unknown, i) => stack.push({ value: v, set: (raw) => (value[i] = rawMarker(raw)) }));
    else if (isRecord(value)) for (const [key, v] of Object.entries(value)) stack.push({ value: v, set: (raw) => Reflect.set(value, key, rawMarker(raw)) });
  }
  return found;
}

// A replacement is written as raw JSON text (`1e999` has no JavaScript value JSON.stringify writes back).
const raws: string[] = [];
function rawMarker(raw: string): string {
  raws.push(raw);
  return `\u0001raw${raws.length - 1}\u0001`;
}
function withRaws(json: string): string {
  return json.replace(/"\\u0001raw(\d+)\\u0001"/gu, (_, i: string) => raws[Number(i)] ?? 'null');
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** One record (a JSONL line, or the whole file when it is one JSON document) with one leaf changed. */
function mutateLeaf(text: string, m: LeafMutation): string {
  const lines = parses(text) ? [text] : text.split('\n');
  const index = Math.floor(m.record * lines.length);
  const line = lines[index] ?? '';
  if (!parses(line)) return text;
  const value: unknown = JSON.parse(line);
  const all = leaves(value);
  const leaf = all[Math.floor(m.leaf * all.length)];
  if (leaf === undefined) return text;
  leaf.set(typeof leaf.value === 'number' ? m.number : JSON.stringify(mutateText(leaf.value, m.edit)));
  lines[index] = withRaws(JSON.stringify(value));
  return lines.join('\n');
}

/** A sample's files after the mutations, each applied to one file (chosen by its place in the list). */
function mutated(sample: Sample, mutations: readonly { readonly file: number; readonly m: Mutation }[]): ImportFile[] {
  const texts = sample.files.map((f) => f.text);
  const bad = new Map<number, number>();
  for (const { file, m } of mutations) {
    const i = file % texts.length;
    if (m.kind === 'bad-byte') bad.set(i, m.at);
    else if (m.kind === 'leaf') texts[i] = mutateLeaf(texts[i] ?? '', m);
    else texts[i] = mutateText(texts[i] ?? '', m);
  }
  return sample.files.map((f, i) => {
    const bytes = new TextEncoder().encode(texts[i]);
    const at = bad.get(i);
    if (at === undefined) return { path: f.path, bytes };
    const k = Math.floor(at * (bytes.length + 1));
    return { path: f.path, bytes: new Uint8Array([...bytes.subarray(0, k), 0xff, ...bytes.subarray(k)]) };
  });
}

const casesPerSample = 800;
/** CPU time per case: the samples are a few KB and a mutation adds at most ~100 KB, which a linear importer reads in milliseconds. */
const caseBoundMs = 2_000;
const heapBoundMb = 512;

describe('importer fuzz: truncations and mutations of each sample log', () => {
  for (const [index, sample] of samples.entries()) {
    it(`${sample.name}: ${casesPerSample} mutated logs, no throw, no case past ${caseBoundMs} ms, heap under ${heapBoundMb} MB`, { timeout: 120_000 }, async (t) => {
      const importer = importerFor(sample.format);
      assert.ok(importer !== undefined);
      const cases = fc.sample(fc.array(fc.record({ file: fc.nat(8), m: mutation }), { minLength: 1, maxLength: 4 }), { seed: 0x1e5 + index, numRuns: casesPerSample });
      let crashes = 0;
      let hangs = 0;
      let rows = 0;
      let skipped = 0;
      let peakHeap = process.memoryUsage().heapUsed;
      let slowest = 0;
      const failures: string[] = [];
      for (const [n, mutations] of cases.entries()) {
        const files = mutated(sample, mutations);
        const start = process.cpuUsage();
        try {
          const outcome = await importer.run(files, sample.options);
          assert.ok(outcome.ok, outcome.ok ? '' : outcome.reason);
          rows += outcome.result.rows.length;
          skipped += outcome.result.counts.skipped;
          // What is handed over is written and read back unchanged: no value JSON would turn into null.
          for (const { row } of outcome.result.rows) assert.deepEqual(JSON.parse(JSON.stringify(row)), row);
        } catch (error) {
          crashes++;
          failures.push(`case ${n} (${JSON.stringify(mutations).slice(0, 300)}): ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
        }
        // CPU time, not wall time: a case is a hang by the work it did, whatever else loads the machine.
        const used = process.cpuUsage(start);
        const ms = (used.user + used.system) / 1000;
        slowest = Math.max(slowest, ms);
        if (ms > caseBoundMs) {
          hangs++;
          failures.push(`case ${n} took ${Math.round(ms)} ms (${JSON.stringify(mutations).slice(0, 300)})`);
        }
        peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
      }
      const peakMb = Math.round(peakHeap / 2 ** 20);
      // The process's peak resident memory so far (a true peak, where the heap is sampled between cases).
      const maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
      t.diagnostic(`${sample.name}: ${cases.length} cases, ${crashes} crashes, ${hangs} hangs, peak heap ${peakMb} MB (peak RSS ${maxRssMb} MB), slowest case ${Math.round(slowest)} ms, ${rows} rows imported, ${skipped} records skipped`);
      assert.deepEqual(failures.slice(0, 3), []);
      assert.equal(crashes + hangs, 0);
      assert.ok(peakMb < heapBoundMb, `peak heap ${peakMb} MB`);
    });
  }
});
