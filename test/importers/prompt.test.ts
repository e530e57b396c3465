// The prompt is data (docs/import.md, "The prompt"): each importer keeps the prompt as the model saw
// it in `meta.prompt`, the built-in field `prompt` reads it and no edit changes it, and a reward that
// reads prompt + response as Search-R1's `qa_em` does sees the template's two `<answer>` pairs.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { describe, it } from 'node:test';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { ImportedRow, ImportFile } from '../../server/src/importers/importer.js';
import { builtinFieldsByName } from '../../server/src/language/builtins.js';
import { editVerbs, writesOf } from '../../server/src/language/edit-vocabulary.js';
import { corpusEnv } from '../../server/src/language/eval-env.js';
import { EvaluationError } from '../../server/src/language/eval-error.js';
import { kinds } from '../../server/src/language/values.js';
import { viewOf, withSteps, type TrajectoryView } from '../../server/src/language/view.js';
import { parsePoolRow } from '../../server/src/pool/schemas.js';
import type { Trajectory } from '../../server/src/pool/types.js';
import { RewardCompiler } from '../../server/src/reward/compile.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { trlParquet } from './parquet-fixtures.js';
import { fileOf, runImporter } from './run-importer.js';

const fixture = (name: string) => fileOf(`test/importers/fixtures/${name}`, fs.readFileSync(`test/importers/fixtures/${name}`, 'utf8'));
/** The field `key` of each line of a fixture, by line number from 1 (a line that is no JSON object has none). */
function loggedBy(name: string, key: string): Map<number, unknown> {
  const lines = fs.readFileSync(`test/importers/fixtures/${name}`, 'utf8').split('\n');
  const values = new Map<number, unknown>();
  lines.forEach((line, i) => {
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === 'object' && value !== null && key in value) values.set(i + 1, (value as Record<string, unknown>)[key]);
    } catch {
      // A damaged line of the fixture: the importer skips it.
    }
  });
  return values;
}
const metaOf = (row: ImportedRow): Record<string, unknown> => row.row.meta as Record<string, unknown>;

/** A TRL completions file of one row whose prompt is a message list (a conversational dataset). */
function trlMessagePrompt(path: string, prompt: readonly { role: string; content: string }[], completion: string): ImportFile {
  const utf8 = { type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' } as const;
  const buffer = parquetWriteBuffer({
    columnData: [{ name: 'prompt', data: [prompt] }, { name: 'completion', data: [completion] }],
    schema: [
      { name: 'root', num_children: 2 },
      { name: 'prompt', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      { name: 'element', repetition_type: 'OPTIONAL', num_children: 2 },
      { name: 'role', ...utf8 },
      { name: 'content', ...utf8 },
      { name: 'completion', ...utf8 },
    ],
  });
  return { path, bytes: new Uint8Array(buffer) };
}

describe('meta.prompt, per importer', () => {
  it('verl: `input`, as logged', async () => {
    const result = await runImporter('verl', [fixture('verl-search-r1.jsonl')]);
    const inputs = loggedBy('verl-search-r1.jsonl', 'input');
    assert.ok(result.rows.length > 0);
    for (const row of result.rows) {
      assert.equal(typeof metaOf(row).prompt, 'string');
      assert.equal(metaOf(row).prompt, inputs.get(row.at.line));
    }
  });

  it('SkyRL: `input_prompt`, as logged', async () => {
    const result = await runImporter('skyrl', [fixture('skyrl-global_step_40_evals-hotpotqa.jsonl')]);
    const prompts = loggedBy('skyrl-global_step_40_evals-hotpotqa.jsonl', 'input_prompt');
    assert.ok(result.rows.length > 0);
    for (const row of result.rows) {
      assert.equal(typeof metaOf(row).prompt, 'string');
      assert.equal(metaOf(row).prompt, prompts.get(row.at.line));
    }
  });

  it('R1-Searcher: none (its output logs the question, not the prompt)', async () => {
    const result = await runImporter('r1_searcher', [fixture('r1-searcher-eval.jsonl')]);
    assert.ok(result.rows.length > 0);
    for (const row of result.rows) assert.equal('prompt' in metaOf(row), false);
  });

  it('TRL: a text prompt as logged; a message-list prompt as its contents joined with line feeds', async () => {
    const text = await runImporter('trl', [trlParquet('completions_00001.parquet', [{ step: 1, prompt: 'System text.\nQuestion: who?', completion: '<answer>x</answer>', accuracy: 1 }])]);
    assert.equal(metaOf(text.rows[0]!).prompt, 'System text.\nQuestion: who?');
    const listed = await runImporter('trl', [trlMessagePrompt('completions_00002.parquet', [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Who?' }], '<answer>x</answer>')]);
    assert.equal(metaOf(listed.rows[0]!).prompt, 'Be brief.\nWho?');
  });

  const conversation = [
    { role: 'system', content: 'Answer inside <answer> and </answer>, for example <answer> Paris </answer>.' },
    { role: 'user', content: 'Which city?' },
    { role: 'assistant', content: '<answer>Lyon</answer>' },
    { role: 'user', content: 'a later turn is no prompt' },
  ];
  const joined = 'Answer inside <answer> and </answer>, for example <answer> Paris </answer>.\nWhich city?';

  it('rllm: the messages before the first assistant message, joined with line feeds', async () => {
    const episode = { episode_id: 't:0', task: { question: 'Which city?' }, trajectories: [{ steps: [{ chat_completions: conversation.slice(0, 3) }] }] };
    const result = await runImporter('rllm', [fileOf('episodes/train_step_1_epoch_0/episode_id_t_0.json', episode)], { answer: 'answer_tag' });
    assert.equal(metaOf(result.rows[0]!).prompt, joined);
  });

  it('ART: the same, replacing a metadata key `prompt`', async () => {
    const group = { trajectories: [{ reward: 1, metadata: { prompt: 'the user\'s own' }, messages_and_choices: conversation }] };
    const result = await runImporter('art', [fileOf('0001.jsonl', JSON.stringify(group))], { answer: 'answer_tag' });
    assert.equal(metaOf(result.rows[0]!).prompt, joined);
  });

  it('BrowseComp-Plus: none (run files log no prompt), and the import says so', async () => {
    const run = { query_id: '1', status: 'completed', result: [{ type: 'output_text', output: 'Exact Answer: Paris' }] };
    const result = await runImporter('browsecomp_plus', [fileOf('runs/run_1.json', run)]);
    assert.equal('prompt' in metaOf(result.rows[0]!), false);
    assert.ok(result.notes.some((n) => n.startsWith('run files log no prompt')));
  });
});

const view = (meta: Record<string, unknown>): TrajectoryView => viewOf({
  id: 't', question_id: 'q', question: 'Which city?', steps: [], final: null, gold: { answers: [], support_ids: [] }, meta,
  source: { pool: 'p', file: 'p.jsonl', line: 1 },
});
const env = corpusEnv({ file: 'corpus.jsonl', passages: new Map() });

describe('the built-in field prompt', () => {
  const prompt = builtinFieldsByName.get('prompt')!;
  const read = (v: TrajectoryView): string => kinds.text.read(prompt.evaluator)!(v, env);

  it('is visible text, and reads meta.prompt', () => {
    assert.equal(prompt.type, 'text');
    assert.equal(prompt.visibility, 'visible');
    assert.equal(evaluate('matches(prompt, "Question: who\\\\?$")', view({ prompt: 'Question: who?' })), 1);
    assert.equal(evaluate('tokens(prompt)', view({ prompt: 'Question: who?' })), 2);
  });

  it('reads "" on a row without meta.prompt', () => {
    assert.equal(evaluate('prompt == ""', view({})), 1);
    assert.equal(read(view({})), '');
  });

  it('refuses a meta.prompt that is not a text, naming it', () => {
    assert.throws(() => evaluate('tokens(prompt)', view({ prompt: [{ role: 'user', content: 'q' }] })), (e: unknown) => e instanceof EvaluationError && /meta\.prompt, which is a list in this row, not a text/.test(e.message));
  });

  it('reads a part no edit writes, so an edited view reads the prompt its original did', () => {
    assert.equal(prompt.reads, 'prompt');
    for (const verb of Object.keys(editVerbs) as (keyof typeof editVerbs)[]) {
      for (const target of ['steps', 'citations', 'answer', 'final_text'] as const) assert.ok(!writesOf(verb, target).includes('prompt'), `${verb} ${target}`);
    }
    const original = view({ prompt: 'P' });
    assert.equal(evaluate('prompt == "P"', withSteps(original, [{ type: 'invalid', text: 'x' }])), 1);
  });
});

/** The value of a one-term reward over `expr`, declared after `decls`, through the checker and the compiler. */
function evaluate(expr: string, on: TrajectoryView, decls = ''): number {
  const { model, problems } = analyze(`${decls}signal s = ${expr}\nreward R { x 1 * s }\n`);
  assert.deepEqual(problems.filter((p) => p.severity === 'error'), [], expr);
  return new RewardCompiler(model).reward('R').terms[0]!.feature(on, env);
}

describe('qa_em on a response without an answer', () => {
  // Search-R1's template (scripts/data_process/nq_search.py, make_prefix) in Qwen's chat template.
  const template = '<|im_start|>user\nAnswer the given question. You must conduct reasoning inside <think> and </think> first every time you get new information. '
    + 'After reasoning, if you find you lack some knowledge, you can call a search engine by <search> query </search> and it will return the top searched results between <information> and </information>. '
    + 'You can search as many times as your want. If you find no further external knowledge needed, you can directly provide the answer inside <answer> and </answer>, without detailed illustrations. '
    + 'For example, <answer> Beijing </answer>. Question: Which city hosted the 2008 Summer Olympics?\n<|im_end|>\n<|im_start|>assistant\n';
  const unanswered = '<think> I should search. </think>\n<search> 2008 Summer Olympics host city </search>\n\n<information>Doc 1(Title: 2008 Summer Olympics) The games were held in Beijing.</information>\n\n<think> I ran out of turns. </think>';
  const answered = `${unanswered}\n<answer> Shanghai </answer>`;

  // qa_em: the last <answer> of prompt + response, when there are two: the spec docs/import.md ("The
  // answer") shows, line for line, and the two counts it rests on.
  const spec = `field response "the response as generated" : text = meta.transcript
signal two_pairs "qa_em finds two <answer> pairs" = count_matches(concat(prompt, response), "(?s)<answer>(.*?)</answer>") >= 2
signal own_answer "the response writes an <answer> pair" = matches(response, "(?s)<answer>.*?</answer>")
signal qa_em "Search-R1's qa_em" =
  if count_matches(concat(prompt, response), "(?s)<answer>(.*?)</answer>") >= 2
  then exact_match(last_match(concat(prompt, response), "(?s)<answer>(.*?)</answer>", 1), gold.answers)
  else 0
`;

  async function rollout(output: string, gold: string): Promise<TrajectoryView> {
    const record = JSON.stringify({ input: template, output, gts: { target: [gold] }, score: 0, step: 1 });
    const result = await runImporter('verl', [fileOf('1.jsonl', record)]);
    const parsed = parsePoolRow(result.rows[0]!.row, { pool: 'p', file: '1.jsonl', line: 1 });
    if (!parsed.ok) assert.fail(parsed.reason);
    return viewOf(parsed.value as Trajectory);
  }

  it('is scored on the template\'s example answer: 1 when a gold answer is "Beijing", though the rollout has no answer', async () => {
    const row = await rollout(unanswered, 'Beijing');
    assert.equal(row.hasFinal, false, 'the importer reads no answer from the prompt');
    assert.equal(evaluate('two_pairs', row, spec), 1);
    assert.equal(evaluate('own_answer', row, spec), 0);
    assert.equal(evaluate('qa_em', row, spec), 1);
    assert.equal(evaluate('exact_match(answer, gold.answers)', row, spec), 0, 'the model\'s own answer (none) scores 0');
    assert.equal(evaluate('qa_em', await rollout(unanswered, 'Paris'), spec), 0);
  });

  it('takes the response\'s own last answer when it writes one', async () => {
    assert.equal(evaluate('qa_em', await rollout(answered, 'Shanghai'), spec), 1);
    assert.equal(evaluate('qa_em', await rollout(answered, 'Beijing'), spec), 0);
  });

  it('finds no two pairs without the prompt: the response alone has at most one', async () => {
    const row = await rollout(answered, 'Shanghai');
    assert.equal(evaluate('matches(response, "(?s)<answer>.*?</answer>.*?<answer>.*?</answer>")', row, spec), 0);
  });
});
