// Tagged transcripts, one dialect at a time (docs/import.md, "Tagged transcripts"): what steps,
// results and answer each framework's markup becomes. Transcripts follow the frameworks' documented
// output; every value is invented.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { colonDocs, numberedDocs, paragraphDocs, titledDocs } from '../../server/src/importers/tagged-documents.js';
import { dialectNamed, type Dialect } from '../../server/src/importers/tagged-dialects.js';
import { lastAnswer, readTranscript } from '../../server/src/importers/tagged-transcript.js';

function dialect(name: string): Dialect {
  const d = dialectNamed(name);
  if (d === undefined) assert.fail(`no dialect ${name}`);
  return d;
}

const invalidText = '\nMy previous action is invalid. If I want to search, I should put the query between <search> and </search>. If I want to give the final answer, I should put the answer between <answer> and </answer>. Let me try again.\n';

describe('Search-R1 transcripts', () => {
  const response = [
    '<think>Who directed it?</think>\n<search> Stone Kingdom director </search>',
    '\n\n<information>Doc 1(Title: "Tosca (opera)") Tosca is an opera.\nDoc 2(Title: Plain) Second text\nwith a wrapped line.\n</information>\n\n',
    'I will just guess.', invalidText,
    '<search> second query </search>\n\n<information>Doc 1(Title: Only) One.</information>\n\n',
    '<answer> Lupo </answer> then <answer> Toburn </answer>',
  ].join('');
  const t = readTranscript(response, dialect('search_r1'));

  it('reads reasoning, searches with their results, and invalid actions in order', () => {
    assert.deepEqual(t.steps.map((s) => s.type), ['reasoning', 'search', 'invalid', 'search']);
    assert.deepEqual(t.steps[0], { type: 'reasoning', text: 'Who directed it?' });
    assert.deepEqual(t.steps[1], {
      type: 'search', query: 'Stone Kingdom director',
      results: [{ rank: 1, title: 'Tosca (opera)', text: 'Tosca is an opera.' }, { rank: 2, title: 'Plain', text: 'Second text\nwith a wrapped line.' }],
    });
    assert.deepEqual(t.steps[2], { type: 'invalid', text: 'I will just guess.' });
    assert.equal(t.unanswered, 0);
  });

  it('cuts the response into the model\'s turns at the framework\'s blocks (observations, the invalid-action message); each step is in the turn its block starts in', () => {
    assert.deepEqual(t.turns, [
      '<think>Who directed it?</think>\n<search> Stone Kingdom director </search>',
      'I will just guess.',
      '<search> second query </search>',
      '<answer> Lupo </answer> then <answer> Toburn </answer>',
    ]);
    // reasoning and the first search: turn 0; the invalid step: turn 1 (before the message); the second search: turn 2.
    assert.deepEqual(t.stepTurns, [0, 0, 1, 2]);
  });

  it('takes the LAST <answer> of the response (qa_em), and the text after the last observation as the final text', () => {
    assert.equal(t.answer, 'Toburn');
    assert.equal(t.finalText, '<answer> Lupo </answer> then <answer> Toburn </answer>');
  });

  it('a response with no <answer> has none; an unclosed block runs to the end', () => {
    const cut = readTranscript('<search> q </search>\n\n<information>Doc 1(Title: T) text', dialect('search_r1'));
    assert.equal(cut.answer, null);
    assert.deepEqual(cut.steps, [{ type: 'search', query: 'q', results: [{ rank: 1, title: 'T', text: 'text' }] }]);
  });

  it('a search the response ends after was never executed: no step, counted; an observation with no call is counted', () => {
    const ended = readTranscript('<think>a</think><search> q </search>', dialect('search_r1'));
    assert.deepEqual(ended.steps, [{ type: 'reasoning', text: 'a' }]);
    assert.equal(ended.unexecuted, 1);
    // Its text is the tail: written back after the steps, whatever an edit does to them.
    assert.deepEqual(ended.layout, { pieces: [{ start: 0, end: 16, steps: [0], unclosed: false }], tailStart: 16, entangled: false });
    assert.equal(readTranscript('<information>Doc 1(Title: T) x</information>', dialect('search_r1')).unanswered, 1);
  });
});

describe('Search-R1 transcripts: a block the model never closed, then the invalid-action text (issue 34, the first trap)', () => {
  it('an unclosed <search> is one invalid step holding the model\'s text; the message\'s example tags are no query', () => {
    const t = readTranscript(`<think>Who?</think>\n<search> Stone Kingdom director${invalidText}<search> director </search>\n\n<information>Doc 1(Title: T) text</information>\n\n<answer> Lupo </answer>`, dialect('search_r1'));
    assert.deepEqual(t.steps, [
      { type: 'reasoning', text: 'Who?' },
      { type: 'invalid', text: '<search> Stone Kingdom director' },
      { type: 'search', query: 'director', results: [{ rank: 1, title: 'T', text: 'text' }] },
    ]);
    assert.equal(t.answer, 'Lupo');
  });

  it('the invalid-action text last in the response gives no answer: its "<answer> and </answer>" is the framework\'s example', () => {
    const t = readTranscript(`<search> q </search>\n\n<information>Doc 1(Title: T) x</information>\n\n<search> unfinished${invalidText}`, dialect('search_r1'));
    assert.equal(t.answer, null);
    assert.deepEqual(t.steps.map((s) => (s.type === 'search' ? `search ${s.query}` : s.type)), ['search q', 'invalid']);
    assert.equal(readTranscript(`I will just guess.${invalidText}`, dialect('search_r1')).answer, null);
  });

  it('an unclosed <answer> or <think> before the message is the model\'s invalid text too, and a later answer still counts', () => {
    const answer = readTranscript(`<answer> Paris${invalidText}<answer> London </answer>`, dialect('search_r1'));
    assert.deepEqual(answer.steps, [{ type: 'invalid', text: '<answer> Paris' }]);
    assert.equal(answer.answer, 'London');
    const think = readTranscript(`<think> hmm${invalidText}<think> ok </think><answer> Rome </answer>`, dialect('search_r1'));
    assert.deepEqual(think.steps, [{ type: 'invalid', text: '<think> hmm' }, { type: 'reasoning', text: 'ok' }]);
    assert.equal(think.answer, 'Rome');
  });

  it('lastAnswer alone (the qa_em rule without the transcript) still pairs the way the regular expression does', () => {
    assert.equal(lastAnswer(`x${invalidText}`, false), 'and');
  });
});

describe('ZeroSearch transcripts', () => {
  it("reads Search-R1's tags with untitled 'Doc k:' documents", () => {
    const t = readTranscript('<think>x</think><search> q </search><information>Doc 1: Lupo was born in Rome.\nDoc 2: Rome is a city.\n</information><answer> Rome </answer>', dialect('zerosearch'));
    assert.deepEqual(t.steps, [
      { type: 'reasoning', text: 'x' },
      { type: 'search', query: 'q', results: [{ rank: 1, text: 'Lupo was born in Rome.' }, { rank: 2, text: 'Rome is a city.' }] },
    ]);
    assert.equal(t.answer, 'Rome');
  });
});

describe('R1-Searcher transcripts', () => {
  it('reads <|begin_of_query|> calls and numbered documents without titles', () => {
    const t = readTranscript('Let me search. <|begin_of_query|>Stone Kingdom<|end_of_query|>\n\n<|begin_of_documents|>\n(1)First passage.\n(2)Second passage.\n<|end_of_documents|>\n\n<answer> Lupo </answer>', dialect('r1_searcher'));
    assert.deepEqual(t.steps, [{ type: 'search', query: 'Stone Kingdom', results: [{ rank: 1, text: 'First passage.' }, { rank: 2, text: 'Second passage.' }] }]);
    assert.equal(t.answer, 'Lupo');
  });

  it('a documents block that reads None has no results', () => {
    const t = readTranscript('<|begin_of_query|>q<|end_of_query|>\n\n<|begin_of_documents|>\nNone<|end_of_documents|>\n\n', dialect('r1_searcher'));
    assert.deepEqual(t.steps, [{ type: 'search', query: 'q', results: [] }]);
  });
});

describe('ReSearch transcripts', () => {
  it('reads <result> passages (first line the title) and the \\boxed{} inside the last <answer>', () => {
    const t = readTranscript('<think>x</think>\n<search> q </search>\n\n<result>\n"Title A"\nText a.\n\n"Title B"\nText b.\n</result>\n\n<answer> so \\boxed{Lupo {City}} </answer>', dialect('research'));
    assert.deepEqual(t.steps[1], { type: 'search', query: 'q', results: [{ rank: 1, title: 'Title A', text: 'Text a.' }, { rank: 2, title: 'Title B', text: 'Text b.' }] });
    assert.equal(t.answer, 'Lupo {City}');
  });

  it('an <answer> with no \\boxed{} is no answer', () => {
    assert.equal(readTranscript('<answer> Lupo </answer>', dialect('research')).answer, null);
  });
});

describe('Hermes tool-call transcripts', () => {
  const call = (value: unknown): string => `<tool_call>\n${JSON.stringify(value)}\n</tool_call>`;
  const response = (value: unknown): string => `<tool_response>\n${JSON.stringify(value)}\n</tool_response>`;

  it('one search call with several queries becomes one search step per query, results split at ---', () => {
    const t = readTranscript([
      call({ name: 'search', arguments: { query_list: ['a', 'b'] } }), 'user\n',
      response({ result: 'Doc 1 (Title: A1)\ntext a1\n\nDoc 2 (Title: A2)\ntext a2\n---\nDoc 1 (Title: B1)\ntext b1' }),
      '<answer> x </answer>',
    ].join(''), dialect('hermes'));
    assert.deepEqual(t.steps, [
      { type: 'search', query: 'a', results: [{ rank: 1, title: 'A1', text: 'text a1' }, { rank: 2, title: 'A2', text: 'text a2' }] },
      { type: 'search', query: 'b', results: [{ rank: 1, title: 'B1', text: 'text b1' }] },
    ]);
    assert.equal(t.answer, 'x');
  });

  it('another tool is a tool step with its arguments and output; a call that is not JSON is an invalid step', () => {
    const t = readTranscript([call({ name: 'visit', arguments: { url: 'https://example.org/a' } }), '<tool_response>page text</tool_response>', '<tool_call>{"name": </tool_call>'].join(''), dialect('hermes'));
    assert.deepEqual(t.steps, [{ type: 'tool', tool: 'visit', args: { url: 'https://example.org/a' }, output: 'page text' }, { type: 'invalid', text: '{"name":' }]);
  });

  it('more result blocks than queries: the extra ones are counted, not imported', () => {
    const t = readTranscript(call({ name: 'search', arguments: { query_list: ['a', 'b'] } }) + response({ result: 'Doc 1 (Title: A)\na\n---\nDoc 1 (Title: B)\nb\n---\nDoc 1 (Title: C)\nc' }), dialect('hermes'));
    assert.equal(t.unanswered, 1);
  });
});

describe('passage blocks', () => {
  it('Doc k headers only at a line start; a title with parentheses stays whole; one pair of quotes is dropped', () => {
    assert.deepEqual(titledDocs('Doc 1(Title: "A (b) c") text mentions Doc 2(Title: x) inline\nDoc 2(Title: D) more'), [
      { rank: 1, title: 'A (b) c', text: 'text mentions Doc 2(Title: x) inline' },
      { rank: 2, title: 'D', text: 'more' },
    ]);
  });

  it('numbered and paragraph passages', () => {
    assert.deepEqual(numberedDocs('(1)a\n(2)b'), [{ rank: 1, text: 'a' }, { rank: 2, text: 'b' }]);
    assert.deepEqual(colonDocs('Doc 1: a\nsecond line\nDoc 2:b and Doc 3: inline'), [{ rank: 1, text: 'a\nsecond line' }, { rank: 2, text: 'b and Doc 3: inline' }]);
    assert.deepEqual(paragraphDocs('one line\n\nTitle\nbody'), [{ rank: 1, text: 'one line' }, { rank: 2, title: 'Title', text: 'body' }]);
  });

  it('lastAnswer spans lines and trims, and pairs tags as the regex does (each open with the first close after it)', () => {
    assert.equal(lastAnswer('<answer>\n multi\nline </answer>', false), 'multi\nline');
    assert.equal(lastAnswer('<answer>a<answer>b</answer> <answer>c', false), 'a<answer>b');
    assert.equal(lastAnswer('<answer>'.repeat(100_000), false), null);
  });
});
