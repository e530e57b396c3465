// Extraction and counting by pattern (first_match, last_match, all_matches, count_matches) and by
// substring (count_of): the values docs/language.md gives, Python's re and str.count where RE2 agrees
// (the expected values below are what CPython 3 gives), the check-time errors, and the bound.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { describe, it } from 'node:test';
import { builtinFunctionsByName, type Literal } from '../../server/src/language/builtins.js';
import { corpusEnv } from '../../server/src/language/eval-env.js';
import { EvaluationError } from '../../server/src/language/eval-error.js';
import { kinds, type TypedEval, type ValueOf } from '../../server/src/language/values.js';
import { viewOf, type TrajectoryView } from '../../server/src/language/view.js';
import { parsePoolRow } from '../../server/src/pool/schemas.js';
import type { Trajectory } from '../../server/src/pool/types.js';
import { maxPatternWork } from '../../server/src/problems/limits.js';
import { RewardCompiler } from '../../server/src/reward/compile.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { marked } from '../helpers/marked.js';
import { fileOf, runImporter } from '../importers/run-importer.js';

const env = corpusEnv({ file: 'corpus.jsonl', passages: new Map() });
const view = viewOf({ id: 't', question_id: 'q', question: 'Where?', steps: [], final: { answer: 'Paris', text: 'Paris', citations: [] }, gold: { answers: ['Paris'], support_ids: [] } } as unknown as Trajectory);

/** A call of the built-in `name` on constant texts, the literals as a spec writes them: through the registry's evaluator. */
function call<K extends keyof ValueOf>(name: string, result: K, text: string, ...literals: Literal[]): ValueOf[K] {
  const fn = builtinFunctionsByName.get(name)!;
  const args: TypedEval[] = [kinds.text.wrap(() => text), ...literals.map((l) => (typeof l === 'number' ? kinds.number.wrap(() => l) : kinds.text.wrap(() => l ?? '')))];
  const compiled = fn.compile(args, [undefined, ...literals]);
  assert.ok(compiled !== undefined, `${name} compiles`);
  assert.equal(compiled.type, result);
  return compiled.run(view, env) as ValueOf[K];
}

/** The problems of a spec with ⟦marked⟧ spans, as [code, span]. */
function problems(spec: string) {
  const { text, spans } = marked(spec);
  return { found: analyze(text).problems.map((p) => [p.code, p.span]), spans };
}

/** A signal's type and visibility as the checker infers them. */
function typeOf(spec: string, name: string): string {
  const { model, problems: found } = analyze(spec);
  assert.deepEqual(found, []);
  const info = model.declInfo.get(model.globals.get(name)!.decl);
  return `${info?.type}/${info?.visibility}`;
}

describe('first_match, last_match, all_matches', () => {
  const tags = 'a <answer> x </answer> b <answer>y</answer>';

  it('give the first, the last and every non-overlapping match, or a capture group of each', () => {
    assert.equal(call('first_match', 'text', tags, '<answer>(.*?)</answer>'), '<answer> x </answer>');
    assert.equal(call('first_match', 'text', tags, '<answer>(.*?)</answer>', 1), ' x ');
    assert.equal(call('last_match', 'text', tags, '<answer>(.*?)</answer>', 1), 'y');
    assert.equal(call('last_match', 'text', tags, '<answer>(.*?)</answer>', 0), '<answer>y</answer>');
    assert.deepEqual(call('all_matches', 'texts', tags, '<answer>(.*?)</answer>'), ['<answer> x </answer>', '<answer>y</answer>']);
    assert.deepEqual(call('all_matches', 'texts', tags, '<answer>(.*?)</answer>', 1), [' x ', 'y']);
  });

  it('give "" (all_matches: none) when nothing matches, and "" for a group that takes no part', () => {
    assert.equal(call('first_match', 'text', tags, '<refine>(.*?)</refine>', 1), '');
    assert.equal(call('last_match', 'text', '', 'x'), '');
    assert.deepEqual(call('all_matches', 'texts', tags, '<refine>'), []);
    // Python: re.search('(a)|b', 'b').group(1) is None; findall gives ''.
    assert.equal(call('first_match', 'text', 'b', '(a)|b', 1), '');
    assert.deepEqual(call('all_matches', 'texts', 'ab', '(a)|b', 1), ['a', '']);
  });

  it('let . cross a newline only under (?s), as Python\'s re.DOTALL', () => {
    const multiline = '<answer>multi\nline</answer>';
    assert.equal(call('first_match', 'text', multiline, '<answer>(.*?)</answer>', 1), '');
    assert.equal(call('first_match', 'text', multiline, '(?s)<answer>(.*?)</answer>', 1), 'multi\nline');
  });

  it('step over an empty match to the next character, and let a match abut the one before (Python 3.7+)', () => {
    assert.deepEqual(call('all_matches', 'texts', 'baaa', 'a*'), ['', 'aaa', '']);
    assert.equal(call('count_matches', 'number', 'baaa', 'a*'), 3);
  });

  it('match characters, not UTF-16 halves; \\w is ASCII (Python\'s is Unicode: write [\\pL\\pN_])', () => {
    assert.deepEqual(call('all_matches', 'texts', '😀é', '.'), ['😀', 'é']);
    assert.deepEqual(call('all_matches', 'texts', 'héllo wörld', '\\w+'), ['h', 'llo', 'w', 'rld']);
    assert.deepEqual(call('all_matches', 'texts', 'héllo wörld', '[\\pL\\pN_]+'), ['héllo', 'wörld']);
  });

  it('are texts (all_matches a text set), as visible as their text', () => {
    const spec = 'signal A "a" = first_match(answer, "[A-Z]\\\\w+") == "Paris"\n'
      + 'signal G "g" = any a in gold.answers: last_match(a, "\\\\w+") == answer\n'
      + 'signal N "n" = count(all_matches(final_text, "<answer>"))\nreward R { a 1 * A  g 1 * G  n 1 * N }\n';
    assert.equal(typeOf(spec, 'A'), 'boolean/visible');
    assert.equal(typeOf(spec, 'G'), 'boolean/oracle');
    assert.equal(typeOf(spec, 'N'), 'number/visible');
  });

  it('report a bad pattern, and a group that is not a whole-number literal or not in the pattern, as bad-pattern at the argument', () => {
    const cases = [
      'signal S = first_match(answer, "⟦<a>(⟧") == ""\nreward R { x 1 * S }\n',
      'signal S = last_match(answer, "<a>(.*)</a>", ⟦2⟧) == ""\nreward R { x 1 * S }\n',
      'signal S = last_match(answer, "<a>.*</a>", ⟦1⟧) == ""\nreward R { x 1 * S }\n',
      'signal S = first_match(answer, "(a)", ⟦-1⟧) == ""\nreward R { x 1 * S }\n',
      'signal S = first_match(answer, "(a)", ⟦0.5⟧) == ""\nreward R { x 1 * S }\n',
      'signal S = first_match(answer, "(a)", ⟦search_calls⟧) == ""\nreward R { x 1 * S }\n',
      'signal S = count(all_matches(answer, ⟦question⟧))\nreward R { x 1 * S }\n',
    ];
    for (const spec of cases) {
      const { found, spans } = problems(spec);
      assert.deepEqual(found, [['bad-pattern', spans[0]]], spec);
    }
    assert.deepEqual(problems('signal S = first_match(answer, "(a)(?P<b>b)", 2) == ""\nreward R { x 1 * S }\n').found, []);
  });

  it('refuse a text past the matching bound, charging each search the text from where it starts', () => {
    const long = 'ab'.repeat(maxPatternWork / 16);
    assert.throws(() => call('first_match', 'text', long + long, 'a[ab]{20}$'), (e: unknown) => e instanceof EvaluationError && /^first_match\(…/.test(e.message));
    // One search over the text fits; a match at every other character does not.
    const text = 'a'.repeat(Math.floor(maxPatternWork / 8 / 4));
    assert.equal(call('first_match', 'text', text, 'a'), 'a');
    assert.throws(() => call('count_matches', 'number', text, 'a'), (e: unknown) => e instanceof EvaluationError && /^count_matches\(…, "a"\) on a text of/.test(e.message));
    assert.equal(call('count_matches', 'number', 'x'.repeat(1000) + 'aaa', 'a'), 3);
  });
});

describe('count_matches and count_of', () => {
  it('count non-overlapping matches (len(re.findall)) and occurrences (str.count)', () => {
    assert.equal(call('count_matches', 'number', 'aaaa', 'aa'), 2);
    assert.equal(call('count_matches', 'number', '<think>a</think><think>', '<think>'), 2);
    assert.equal(call('count_matches', 'number', '', 'x'), 0);
    assert.equal(call('count_of', 'number', 'aaaa', 'aa'), 2);
    assert.equal(call('count_of', 'number', 'ababab', 'aba'), 1);
    assert.equal(call('count_of', 'number', '<think></think><think>', '<think>'), 2);
    assert.equal(call('count_of', 'number', 'Paris', 'paris'), 0, 'as written: case counts');
  });

  it('count the empty part once more than the text has characters, as Python (code points)', () => {
    assert.equal(call('count_of', 'number', 'abc', ''), 4);
    assert.equal(call('count_of', 'number', '😀a', ''), 3);
    assert.equal(call('count_of', 'number', '', ''), 1);
  });

  it('compare tag counts through the checker (R1-Searcher\'s and DeepResearcher\'s tag balance)', () => {
    const spec = 'detector D "unbalanced think tags" = count_of(final_text, "<think>") != count_of(final_text, "</think>")\nreward R { d -1 * D }\n';
    assert.equal(typeOf(spec, 'D'), 'boolean/visible');
    const { model } = analyze(spec);
    const feature = new RewardCompiler(model).reward('R').terms[0]!.feature;
    assert.equal(feature({ ...view, finalText: '<think>a</think><think>' }, env), 1);
    assert.equal(feature({ ...view, finalText: '<think>a</think>' }, env), 0);
  });
});

// Search-R1's qa_em (verl/utils/reward_score/qa_em.py): the last <answer> of prompt + response,
// when there are at least two (the prompt's template holds an example), must equal a gold answer
// after SQuAD normalisation. samples/generator/search-r1-dump.ts computed the logged score from its
// own implementation: EM gives 1 or 0.8 there, anything else at most 0.3.
describe('qa_em, written exactly', () => {
  const spec = `field response "the response as generated" : text = meta.transcript
signal answers_seen "qa_em's <answer> pairs in prompt + response" = count_matches(concat(prompt, response), "(?s)<answer>(.*?)</answer>")
signal qa_em "Search-R1's qa_em" = if answers_seen >= 2 then exact_match(last_match(concat(prompt, response), "(?s)<answer>(.*?)</answer>", 1), gold.answers) else 0
reward R { em 1 * qa_em }
`;

  async function rows(files: readonly string[]): Promise<TrajectoryView[]> {
    const result = await runImporter('verl', files.map((f) => fileOf(f, fs.readFileSync(f, 'utf8'))));
    return result.rows.map((r) => {
      const parsed = parsePoolRow(r.row, { pool: 'p', file: r.at.file, line: r.at.line });
      if (!parsed.ok) assert.fail(parsed.reason);
      return viewOf(parsed.value as Trajectory);
    });
  }

  it('agrees with the score logged on every sample rollout of samples/search-r1', async () => {
    const dir = 'samples/search-r1/rollout';
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => `${dir}/${f}`);
    const logged = files.flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => (JSON.parse(l) as { score: number }).score));
    const all = await rows(files);
    assert.equal(all.length, logged.length, 'every rollout imported');
    const { model, problems: found } = analyze(spec);
    assert.deepEqual(found, []);
    const feature = new RewardCompiler(model).reward('R').terms[0]!.feature;
    const em = all.map((row) => feature(row, env));
    em.forEach((value, i) => assert.equal(value, logged[i]! >= 0.8 ? 1 : 0, `rollout ${i + 1}`));
    assert.ok(em.filter((v) => v === 1).length >= 20 && em.filter((v) => v === 0).length >= 20, 'both outcomes occur');
  });

  it('scores the template\'s example answer when the response writes none, and nothing below two pairs', async () => {
    const input = '<|im_start|>user\nAnswer inside <answer> and </answer>, for example <answer> Beijing </answer>. Question: Which city?\n<|im_end|>\n<|im_start|>assistant\n';
    const rollout = async (output: string, gold: string) => {
      const record = JSON.stringify({ input, output, gts: { target: [gold] }, score: 0, step: 1 });
      const result = await runImporter('verl', [fileOf('1.jsonl', record)]);
      const parsed = parsePoolRow(result.rows[0]!.row, { pool: 'p', file: '1.jsonl', line: 1 });
      if (!parsed.ok) assert.fail(parsed.reason);
      return viewOf(parsed.value as Trajectory);
    };
    const { model } = analyze(spec);
    const feature = new RewardCompiler(model).reward('R').terms[0]!.feature;
    assert.equal(feature(await rollout('<think> no idea </think>', 'Beijing'), env), 1, 'the example is the last pair');
    assert.equal(feature(await rollout('<think> ok </think>\n<answer> Shanghai\n</answer>', 'Shanghai'), env), 1);
    assert.equal(feature(await rollout('<think> ok </think>\n<answer> Shanghai </answer>', 'Beijing'), env), 0);
  });
});
