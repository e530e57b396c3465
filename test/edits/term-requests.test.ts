// Issue 36: the command-term protocol as plain data. What a request holds (the framework's own
// arguments, the row, gold only for an oracle term), how a program's answers are read (every fault
// named by its output line), the two passes that send and read them, and the answers' cache file.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { AnsweredTerms, CollectingTerms, contentKey, parseTermAnswers, requestContent, requestLine, type CommandTermSpec, type TermAnswers } from '../../server/src/edits/term-requests.js';
import { cacheFolder } from '../../server/src/inputs/cache-folder.js';
import { cachedTermValues, keepTermValues, namedFiles, type TermCacheKey } from '../../server/src/inputs/term-cache.js';
import { EvaluationError } from '../../server/src/language/eval-error.js';
import { viewOf, withSteps, type TrajectoryView } from '../../server/src/language/view.js';
import type { Trajectory } from '../../server/src/pool/types.js';

const transcript = '<think> look it up </think>\n<search> river Paris </search>\n\n<information>Doc 1 the Seine</information>\n\n<answer> the Seine </answer>';

/** A row as the verl importer reads one: the rollout's text in meta, with the gold and score verl logged. */
function verlRow(id: string, gold: readonly string[], meta: Record<string, unknown> = {}): Trajectory {
  return {
    id, question_id: 'q1', question: 'Which river flows through Paris?',
    steps: [{ type: 'search', query: 'river Paris', results: ['w:1'] }],
    final: { answer: 'the Seine', citations: [], text: '<answer> the Seine </answer>' },
    gold: { answers: gold, support_ids: ['w:1'] },
    meta: {
      transcript, observations: ['Doc 1 the Seine'], prompt: 'Question: Which river flows through Paris?',
      ground_truth: { target: gold }, score: 1, data_source: 'nq', extra_info: { split: 'test', answer: gold[0] }, ...meta,
    },
    source: { pool: 'p', file: 'p.jsonl', line: 1 },
    format: 'verl',
  };
}

const parsed = (content: string): Record<string, unknown> => JSON.parse(content) as Record<string, unknown>;
const objectAt = (value: unknown, key: string): Record<string, unknown> => (value as Record<string, Record<string, unknown>>)[key]!;

describe('requestContent: what a program is sent for one trajectory', () => {
  const view = viewOf(verlRow('t1', ['Seine']));

  it("an oracle term's request: verl's compute_score arguments as logged, and the row with its gold and whole meta", () => {
    const request = parsed(requestContent(view, true));
    assert.deepEqual(Object.keys(request), ['trajectory_id', 'format', 'verl', 'row']);
    assert.equal(request['trajectory_id'], 't1');
    assert.equal(request['format'], 'verl');
    assert.deepEqual(request['verl'], {
      data_source: 'nq', solution_str: transcript, ground_truth: { target: ['Seine'] }, extra_info: { split: 'test', answer: 'Seine' },
      prompt_str: 'Question: Which river flows through Paris?',
    });
    const row = objectAt(request, 'row');
    assert.deepEqual(Object.keys(row), ['id', 'question_id', 'question', 'steps', 'final', 'gold', 'meta']);
    assert.deepEqual(row['gold'], { answers: ['Seine'], support_ids: ['w:1'] });
    assert.deepEqual(row['final'], { answer: 'the Seine', citations: [], text: '<answer> the Seine </answer>' });
    assert.equal(objectAt(row, 'meta')['score'], 1);
  });

  it("a visible term's request: no gold key in the row, verl's ground_truth and extra_info null, only the rollout's text from meta", () => {
    const request = parsed(requestContent(view, false));
    const verl = objectAt(request, 'verl');
    assert.equal(verl['ground_truth'], null);
    assert.equal(verl['extra_info'], null);
    assert.equal(verl['solution_str'], transcript);
    assert.equal(verl['prompt_str'], 'Question: Which river flows through Paris?');
    const row = objectAt(request, 'row');
    assert.ok(!Object.hasOwn(row, 'gold'));
    assert.deepEqual(Object.keys(objectAt(row, 'meta')).sort(), ['observations', 'prompt', 'transcript']);
  });

  it('a visible request never reads gold: rows differing only in gold, score or extra_info send the same bytes, and sealed ones are not read', () => {
    const other = viewOf(verlRow('t1', ['GOLD-ONLY'], { score: 0, extra_info: { answer: 'GOLD-ONLY' } }));
    const sealedMeta = { ...view.meta };
    for (const key of ['ground_truth', 'score', 'extra_info']) Object.defineProperty(sealedMeta, key, { enumerable: true, get() { throw new Error(`a visible request read meta.${key}`); } });
    const sealed = Object.defineProperty({ ...view, meta: sealedMeta }, 'gold', { get() { throw new Error('a visible request read gold'); } }) as TrajectoryView;
    const content = requestContent(view, false);
    assert.equal(requestContent(other, false), content);
    assert.equal(requestContent(sealed, false), content);
    assert.ok(!content.includes('GOLD-ONLY') && !content.includes('"gold"'), content);
    assert.notEqual(requestContent(other, true), requestContent(view, true), 'an oracle request does carry the gold');
  });

  it('an edited view sends its own steps and rendered text, under its original id', () => {
    const edited = { ...withSteps(view, []), meta: { ...view.meta, transcript: '<think> look it up </think>\n\n<answer> the Seine </answer>' } };
    const request = parsed(requestContent(edited, false));
    assert.equal(request['trajectory_id'], 't1');
    assert.deepEqual(objectAt(request, 'row')['steps'], []);
    assert.ok(!String(objectAt(request, 'verl')['solution_str']).includes('<search>'));
    assert.notEqual(contentKey(requestContent(edited, false)), contentKey(requestContent(view, false)));
  });

  it('a row read from a pool file: format null and no framework key; a TRL row: its prompt and completion', () => {
    const plain: Trajectory = { ...verlRow('t2', ['Seine'], { completion: 'x' }) };
    delete (plain as { format?: string }).format;
    const request = parsed(requestContent(viewOf(plain), false));
    assert.deepEqual(Object.keys(request), ['trajectory_id', 'format', 'row']);
    assert.equal(request['format'], null);
    assert.deepEqual(Object.keys(objectAt(request, 'row')['meta'] as object), ['prompt']);
    const trl = parsed(requestContent(viewOf({ ...verlRow('t3', ['Seine'], { completion: [{ role: 'assistant', content: 'the Seine' }] }), format: 'trl' }), false));
    assert.deepEqual(trl['trl'], { prompt: 'Question: Which river flows through Paris?', completion: [{ role: 'assistant', content: 'the Seine' }] });
    assert.ok(!Object.hasOwn(trl, 'verl'));
  });

  it('requestLine puts the request number first and ends the line', () => {
    const content = requestContent(view, false);
    const line = requestLine(7, content);
    assert.ok(line.endsWith('}\n') && !line.slice(0, -1).includes('\n'));
    const request = parsed(line);
    assert.equal(Object.keys(request)[0], 'request');
    assert.equal(request['request'], 7);
    assert.deepEqual({ ...parsed(content), request: 7 }, request);
  });
});

describe('the two passes: collecting requests, then reading answers', () => {
  const specs = new Map<string, CommandTermSpec>([
    ['judge', { name: 'judge', command: 'node judge.mjs', type: 'number', oracle: false }],
    ['ok', { name: 'ok', command: 'node ok.mjs', type: 'boolean', oracle: false }],
    ['trained', { name: 'trained', command: 'node r.mjs', type: 'number', oracle: true }],
  ]);
  const a = viewOf(verlRow('a', ['Seine']));
  const b = viewOf(verlRow('b', ['Seine']));
  const aGold = viewOf(verlRow('a', ['Loire']));

  it('records each distinct request once per term, in the order met, and answers a stand-in', () => {
    const collecting = new CollectingTerms(specs);
    assert.equal(collecting.value('judge', a), 0);
    assert.equal(collecting.value('ok', a), false);
    collecting.value('judge', a);
    collecting.value('judge', aGold);
    collecting.value('judge', b);
    collecting.value('trained', a);
    collecting.value('trained', aGold);
    collecting.value('nobody', a);
    assert.deepEqual([...collecting.requests.keys()], ['judge', 'ok', 'trained']);
    // Gold is no part of a visible request: a and aGold are one request of judge, two of trained.
    assert.deepEqual([...collecting.requests.get('judge')!.values()].map((c) => parsed(c)['trajectory_id']), ['a', 'b']);
    assert.equal(collecting.requests.get('trained')!.size, 2);
    for (const [key, content] of collecting.requests.get('trained')!) assert.equal(key, contentKey(content));
  });

  it("reads each trajectory's answer by its request, and refuses a trajectory no request was sent for", () => {
    const answers = new Map<string, TermAnswers>([
      ['judge', new Map([[contentKey(requestContent(a, false)), 0.25], [contentKey(requestContent(b, false)), 0.75]])],
      ['ok', new Map([[contentKey(requestContent(a, false)), true]])],
    ]);
    const terms = new AnsweredTerms(specs, answers);
    assert.equal(terms.value('judge', a), 0.25);
    assert.equal(terms.value('judge', aGold), 0.25);
    assert.equal(terms.value('judge', b), 0.75);
    assert.equal(terms.value('ok', a), true);
    assert.throws(() => terms.value('ok', b), (e: unknown) => e instanceof EvaluationError && /'ok': no answer of its command for this trajectory/.test(e.message));
    assert.throws(() => terms.value('trained', a), EvaluationError);
  });
});

describe("parseTermAnswers: a program's output", () => {
  const fault = (output: string, requests: number, type: 'number' | 'boolean' = 'number'): { error: string; request?: number } => {
    const result = parseTermAnswers(output, requests, type);
    assert.equal(result.ok, false, output);
    return result.ok ? { error: '' } : { error: result.error, ...(result.request === undefined ? {} : { request: result.request }) };
  };

  it('answers in any order, blank lines and \\r\\n line ends skipped, each value at its request', () => {
    assert.deepEqual(parseTermAnswers('\n{"request": 2, "value": 0.5}\r\n\n   \n{"request":0,"value":-3}\n{"request":1,"value":1e-9}\n\n', 3, 'number'), { ok: true, values: [-3, 1e-9, 0.5] });
    assert.deepEqual(parseTermAnswers('', 0, 'number'), { ok: true, values: [] });
  });

  it('a boolean field accepts only true and false', () => {
    assert.deepEqual(parseTermAnswers('{"request":1,"value":false}\n{"request":0,"value":true}\n', 2, 'boolean'), { ok: true, values: [true, false] });
    for (const value of ['1', '0', '"true"', 'null']) {
      assert.deepEqual(fault(`{"request":0,"value":${value}}\n`, 1, 'boolean'), { error: `output line 1: "value" must be true or false, not ${value}`, request: 0 }, value);
    }
  });

  it('a number field refuses strings, null, booleans and a missing value, naming the line and the request', () => {
    for (const value of ['"0.5"', 'null', 'true', '[1]']) {
      assert.deepEqual(fault(`{"request":0,"value":1}\n{"request":1,"value":${value}}\n`, 2), { error: `output line 2: "value" must be a finite number, not ${value}`, request: 1 }, value);
    }
    assert.deepEqual(fault('{"request":0}\n', 1), { error: 'output line 1: "value" must be a finite number, not missing', request: 0 });
  });

  it("Python's NaN and Infinity are no JSON", () => {
    assert.deepEqual(fault('{"request":0,"value":NaN}\n', 1), { error: 'output line 1: not JSON: "{\\"request\\":0,\\"value\\":NaN}"' });
    assert.match(fault('{"request":0,"value":1}\n\n{"request":1,"value":Infinity}\n', 2).error, /^output line 3: not JSON/);
  });

  it('an error answer is the error, about its request, its message shortened past 80 characters', () => {
    assert.deepEqual(fault('{"request":1,"value":1}\n{"request":0,"error":"ZeroDivisionError: division by zero (qa.py:41)"}\n', 2), { error: 'the program failed on it: ZeroDivisionError: division by zero (qa.py:41)', request: 0 });
    // A null error is no error: a program that writes every key on every line still answers.
    assert.deepEqual(parseTermAnswers('{"request":0,"value":1,"error":null}\n', 1, 'number'), { ok: true, values: [1] });
    const long = fault(`{"request":0,"error":${JSON.stringify(`KeyError: ${'x'.repeat(200)}`)}}\n`, 1).error;
    assert.equal(long, `the program failed on it: KeyError: ${'x'.repeat(67)}…`);
  });

  it('every request answered exactly once: twice, out of range, not a number, missing', () => {
    assert.deepEqual(fault('{"request":0,"value":1}\n{"request":0,"value":1}\n', 2), { error: 'output line 2: request 0 is answered twice' });
    assert.deepEqual(fault('{"request":2,"value":1}\n', 2), { error: 'output line 1: "request" must be a request number from 0 to 1, not 2' });
    assert.deepEqual(fault('{"request":-1,"value":1}\n', 2), { error: 'output line 1: "request" must be a request number from 0 to 1, not -1' });
    assert.deepEqual(fault('{"request":0.5,"value":1}\n', 2), { error: 'output line 1: "request" must be a request number from 0 to 1, not 0.5' });
    assert.deepEqual(fault('{"request":"0","value":1}\n', 2), { error: 'output line 1: "request" must be a request number from 0 to 1, not "0"' });
    assert.deepEqual(fault('{"value":1}\n', 2), { error: 'output line 1: "request" must be a request number from 0 to 1, not missing' });
    assert.deepEqual(fault('[0, 1]\n', 2), { error: 'output line 1: expected an object {"request": N, "value": V}' });
    assert.deepEqual(fault('{"request":2,"value":1}\n{"request":0,"value":1}\n', 4), { error: 'no line answers request 1; 2 of 4 unanswered', request: 1 });
    assert.deepEqual(fault('', 1), { error: 'no line answers request 0; 1 of 1 unanswered', request: 0 });
  });

  it('the first fault in output order is the one told', () => {
    assert.deepEqual(fault('oops\n{"request":0,"error":"later"}\n', 1), { error: 'output line 1: not JSON: "oops"' });
  });
});

describe("the answers' cache", () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'herald-term-cache-')));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const work = path.join(dir, 'spec');
  const cache = path.join(dir, 'cache');
  fs.mkdirSync(path.join(work, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(work, 'reward.py'), 'def compute_score(): return 1\n');
  fs.writeFileSync(path.join(work, 'judge.py'), 'x = 1\n');
  fs.writeFileSync(path.join(work, 'qa.py'), 'y = 2\n');

  it('namedFiles hashes every file a word of the command names: a bare word, --opt=FILE, FILE:function; not folders or missing files', () => {
    const named = namedFiles('python3 -m herald_adapters.verl reward.py --file=judge.py qa.py:compute_score sub missing.py', work).split('\n');
    assert.deepEqual(named.map((l) => l.split(' ')[0]), ['judge.py', 'qa.py', 'reward.py']);
    for (const line of named) assert.match(line, /^\S+ [0-9a-f]{64}$/);
    const before = namedFiles('python3 reward.py', work);
    fs.appendFileSync(path.join(work, 'reward.py'), '# changed\n');
    assert.notEqual(namedFiles('python3 reward.py', work), before);
    assert.equal(namedFiles('echo nothing', work), '');
  });

  const key: TermCacheKey = { command: 'python3 reward.py', cwd: work, oracle: true, files: namedFiles('python3 reward.py', work) };

  it('keeps answers per request and gives them back under the same key only', () => {
    keepTermValues(cache, key, new Map<string, number | boolean>([['k1', 0.5], ['k2', true], ['k3', -2]]));
    assert.deepEqual([...cachedTermValues(cache, key)], [['k1', 0.5], ['k2', true], ['k3', -2]]);
    assert.equal(cachedTermValues(cache, { ...key, oracle: false }).size, 0, 'a visible term of the same command has its own answers');
    assert.equal(cachedTermValues(cache, { ...key, command: 'python3 reward.py --v 2' }).size, 0);
    assert.equal(cachedTermValues(cache, { ...key, files: 'reward.py 00' }).size, 0);
  });

  it('a cache file edited by hand is not used at all', () => {
    const [file] = fs.readdirSync(cacheFolder(cache)).filter((f) => f.startsWith('terms-'));
    const at = path.join(cacheFolder(cache), file!);
    fs.writeFileSync(at, fs.readFileSync(at, 'utf8').replace('\t0.5\n', '\t0.75\n'));
    assert.equal(cachedTermValues(cache, key).size, 0);
  });
});
