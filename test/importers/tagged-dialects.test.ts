// The dialects with several kinds of call, observation or reasoning, and their own answer rules
// (docs/import.md, "Dialects"): AutoRefine, ASearcher, MMSearch-R1, WebThinker. Transcripts follow
// each framework's source (named in server/src/importers/tagged-dialects.ts); every value is invented.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { identityEdit } from '../../server/src/importers/render.js';
import { importerFor } from '../../server/src/importers/registry.js';
import { finalTurnAnswer, webThinkerAnswer } from '../../server/src/importers/tagged-answers.js';
import { dialectNamed, type Dialect } from '../../server/src/importers/tagged-dialects.js';
import { linkedDocs, rankedDocs, webThinkerDocs } from '../../server/src/importers/tagged-documents.js';
import { taggedRenderer } from '../../server/src/importers/tagged-render.js';
import { readTranscript } from '../../server/src/importers/tagged-transcript.js';
import type { Trajectory } from '../../server/src/pool/types.js';
import { cpuTimed } from './run-importer.js';

function dialect(name: string): Dialect {
  const d = dialectNamed(name);
  if (d === undefined) assert.fail(`no dialect ${name}`);
  return d;
}

const kinds = (steps: readonly { readonly type: string }[]): string[] => steps.map((s) => s.type);

describe('AutoRefine transcripts', () => {
  const response = '<think> who? </think>\n<search> Puccini </search>\n\n<documents>Doc 1(Title: Puccini) Born in Lucca.\n</documents>\n\n<refine> Puccini was born in Lucca. </refine>\n<answer> Lucca </answer>';

  it('reads <documents> as the observation and <refine> as a reasoning step, kept in order', () => {
    const t = readTranscript(response, dialect('autorefine'));
    assert.deepEqual(t.steps, [
      { type: 'reasoning', text: 'who?' },
      { type: 'search', query: 'Puccini', results: [{ rank: 1, title: 'Puccini', text: 'Born in Lucca.' }] },
      { type: 'reasoning', text: 'Puccini was born in Lucca.' },
    ]);
    assert.deepEqual(t.observations, ['Doc 1(Title: Puccini) Born in Lucca.\n']);
    assert.equal(t.answer, 'Lucca');
  });

  it('Search-R1 reads the same text otherwise: <documents> is no observation there and <refine> no step', () => {
    const t = readTranscript(response, dialect('search_r1'));
    assert.deepEqual(kinds(t.steps), ['reasoning']);
    assert.equal(t.unexecuted, 1);
  });

  it('keeps Search-R1\'s invalid-action text: an unclosed <refine> before it is the model\'s invalid text', () => {
    const invalid = '\nMy previous action is invalid. If I want to search, I should put the query between <search> and </search>. If I want to give the final answer, I should put the answer between <answer> and </answer>. Let me try again.\n';
    const t = readTranscript(`<refine> half${invalid}<answer> Lucca </answer>`, dialect('autorefine'));
    assert.deepEqual(t.steps, [{ type: 'invalid', text: '<refine> half' }]);
    assert.equal(t.answer, 'Lucca');
  });
});

describe('ASearcher transcripts', () => {
  it('a search and a page access, each answered in <information>: results from [Doc k](url), the page as the access step\'s output', () => {
    const t = readTranscript('<think>\na\n</think>\n<search>river</search>\n\n<information>\n[Doc 1](https://a.example/x_(y)):\nThe Arno.\n\n[Doc 2](https://b.example):\nFlorence.\n</information>\n<think>\nopen it\n</think>\n<access>https://a.example/x_(y)</access>\n\n<information>\n>>>> Page 1 >>>>\n\nA bridge.\n</information>\n<think>\nok\n</think>\n<answer>Arno</answer>', dialect('asearcher'));
    assert.deepEqual(t.steps, [
      { type: 'reasoning', text: 'a' },
      { type: 'search', query: 'river', results: [{ rank: 1, text: 'The Arno.' }, { rank: 2, text: 'Florence.' }] },
      { type: 'reasoning', text: 'open it' },
      { type: 'tool', tool: 'access', args: { url: 'https://a.example/x_(y)' }, output: '>>>> Page 1 >>>>\n\nA bridge.' },
      { type: 'reasoning', text: 'ok' },
    ]);
    assert.equal(t.answer, 'Arno');
  });

  it('a page\'s later parts answer no call: counted, kept in the observations; no results found is an empty search', () => {
    const t = readTranscript('<access>u</access>\n\n<information>\n>>>> Page 1 >>>>\n\none\n</information>\n<think>\ns\n</think>\n\n<information>\n>>>> Page 2 >>>>\n\ntwo\n</information>\n<think>\n</think><search>q</search>\n\n<information>\nNo search results are found.\n</information>', dialect('asearcher'));
    assert.deepEqual(kinds(t.steps), ['tool', 'reasoning', 'reasoning', 'search']);
    assert.equal(t.unanswered, 1);
    assert.equal(t.observations.length, 3);
    assert.deepEqual(t.steps[3], { type: 'search', query: 'q', results: [] });
  });

  it('linkedDocs: a url with parentheses stays in its header; text before the first header is no result', () => {
    assert.deepEqual(linkedDocs('intro\n[Doc 1](https://x.example/a_(b)):\nOne.\n\n[Doc 2](u):\nTwo\nlines.'), [{ rank: 1, text: 'One.' }, { rank: 2, text: 'Two\nlines.' }]);
    assert.deepEqual(linkedDocs('No search results are found.'), []);
  });
});

const imagePrompt = "Please extract the visual element… If a text search is needed, output the string <text_search>your query here</text_search> at the end of your response. … place it inside <answer> and </answer>.\nFor example: <answer>Titanic</answer>";

describe('MMSearch-R1 transcripts', () => {
  const turn = (results: string): string => `user\nSearched results: <information>${results}</information>\nOriginal user's question: Which river?\n${imagePrompt}\nassistant\n`;
  const images = "[Image Search Results] The result of the image search consists of…:\n1. image: \ntitle: Ponte Vecchio\n2. image: \ntitle: Florence\n";

  it('an image search and a text search, both search steps; the framework\'s turn (its example tags) is read for nothing', () => {
    const t = readTranscript(`<reason>which bridge?</reason>\n<search><img></search>${turn(images)}<reason>Ponte Vecchio</reason>\n<text_search>Ponte Vecchio river</text_search>${turn('[Text Search Results] Below are…:\n1. (https://a) It spans the Arno.\n')}<reason>Arno</reason>\n<answer>Arno</answer>`, dialect('mmsearch_r1'));
    assert.deepEqual(t.steps, [
      { type: 'reasoning', text: 'which bridge?' },
      { type: 'search', query: '<img>', results: [{ rank: 1, title: 'Ponte Vecchio', text: 'image:' }, { rank: 2, title: 'Florence', text: 'image:' }] },
      { type: 'reasoning', text: 'Ponte Vecchio' },
      { type: 'search', query: 'Ponte Vecchio river', results: [{ rank: 1, text: '(https://a) It spans the Arno.' }] },
      { type: 'reasoning', text: 'Arno' },
    ]);
    assert.equal(t.answer, 'Arno');
    assert.equal(t.unexecuted, 0);
    assert.equal(t.finalText, '<reason>Arno</reason>\n<answer>Arno</answer>');
  });

  it('the answer is only the last turn\'s: the instructions\' <answer>Titanic</answer> is none, nor an answer of an earlier turn', () => {
    const t = readTranscript(`<reason>a</reason><answer>Po</answer><search><img></search>${turn(images)}<reason>b</reason>\n<text_search>q</text_search>`, dialect('mmsearch_r1'));
    assert.equal(t.answer, null);
    assert.equal(t.unexecuted, 1);
    assert.deepEqual(finalTurnAnswer.at('x <answer> A </answer>', []), { start: 10, end: 13 });
    assert.equal(finalTurnAnswer.at('x <answer> A </answer>', [{ start: 0, end: 12 }]), undefined);
  });

  it('with the chat template\'s special tokens kept, the turn runs to <|im_start|>assistant', () => {
    const t = readTranscript(`<search><img></search><|im_end|>\n<|im_start|>user\nSearched results: <information>${images}</information>\n${imagePrompt}<|im_end|>\n<|im_start|>assistant\n<answer>Arno</answer><|im_end|>`, dialect('mmsearch_r1'));
    assert.equal(t.answer, 'Arno');
    assert.deepEqual(kinds(t.steps), ['search']);
  });

  it('rankedDocs: numbered results after the header line; an error message has none', () => {
    assert.deepEqual(rankedDocs('[Text Search Results] There is an error encountered in performing search.'), []);
    assert.deepEqual(rankedDocs('[Image Search Results] …:\n1. image: <|vision_start|><|image_pad|><|vision_end|>\ntitle: T\n'), [{ rank: 1, title: 'T', text: 'image: <|vision_start|><|image_pad|><|vision_end|>' }]);
  });
});

describe('WebThinker transcripts', () => {
  it('searches and clicks, each answered by its own result tags; the framework\'s refusals are searches with no results', () => {
    const t = readTranscript('Hmm.\n\n<|begin_search_query|>Ponte Vecchio river<|end_search_query|>\n\n<|begin_search_result|>It spans the Arno.<|end_search_result|>\n\n<|begin_click_link|>https://a.example<|end_click_link|>\n<|begin_click_result|>\nThe Arno.\n<|end_click_result|>\n<|begin_search_query|>Ponte Vecchio river<|end_search_query|>\n\n<|begin_search_result|>You have already searched for this query.<|end_search_result|>\n\nOkay, \\boxed{Arno}.', dialect('webthinker'));
    assert.deepEqual(t.steps, [
      { type: 'search', query: 'Ponte Vecchio river', results: [{ rank: 1, text: 'It spans the Arno.' }] },
      { type: 'tool', tool: 'click_link', args: { url: 'https://a.example' }, output: 'The Arno.' },
      { type: 'search', query: 'Ponte Vecchio river', results: [] },
    ]);
    assert.equal(t.answer, 'Arno');
  });

  it('webThinkerDocs: the explorer\'s ***Web Page k:*** JSON pages are titled results', () => {
    assert.deepEqual(webThinkerDocs('\n***Web Page 1:***\n{\n  "title": "Ponte Vecchio",\n  "snippet": "A bridge."\n}\n***Web Page 2:***\nnot json\n'), [
      { rank: 1, title: 'Ponte Vecchio', text: 'A bridge.' }, { rank: 2, text: 'not json' },
    ]);
    assert.deepEqual(webThinkerDocs('You have reached the search limit. You are not allowed to search.'), []);
  });

  it('the answer as WebThinker\'s greedy one-line \\boxed{(.*)} finds it, with no <answer>; else after the last ANSWER:', () => {
    const answer = (text: string): string | null => readTranscript(text, dialect('webthinker')).answer;
    assert.equal(answer('\\boxed{Po}\nthen \\boxed{\\frac{1}{2}} and \\boxed{x} (y}\n\\boxed{ never closed'), '\\frac{1}{2}} and \\boxed{x} (y');
    assert.equal(answer('<answer>Po</answer> \\boxed{Arno}'), 'Arno');
    assert.equal(answer('ANSWER: Po\nANSWER: **Arno**'), '**Arno');
    assert.equal(answer('<answer>Arno</answer>'), null);
    assert.equal(answer('\\boxed{}'), '');
    assert.deepEqual(webThinkerAnswer.at('a \\boxed{b}', []), { start: 9, end: 10 });
  });

  it('an edited answer is written into the span the rule found, the whitespace around it kept; no span, refused', async () => {
    const text = 'Thinking.\n\n<|begin_search_query|>q long enough<|end_search_query|>\n\n<|begin_search_result|>r<|end_search_result|>\n\nSo \\boxed{ Po }.';
    const importer = importerFor('verl')!;
    const record = JSON.stringify({ input: 'Question: which river?\n', output: text, gts: { target: ['Arno'] }, score: 0, step: 1 });
    const outcome = await importer.run([{ path: 'wt.jsonl', bytes: Buffer.from(`${record}\n`) }], { dialect: 'webthinker' });
    assert.ok(outcome.ok);
    const row: Trajectory = { ...outcome.result.rows[0]!.trajectory, format: 'verl' };
    const out = taggedRenderer.render(row, { ...identityEdit(row), answer: 'Arno' });
    assert.ok(out.ok);
    assert.ok((out.meta['transcript'] as string).endsWith('So \\boxed{ Arno }.'));
    const none: Trajectory = { ...row, meta: { ...row.meta, transcript: text.replace('\\boxed{ Po }', 'Po') }, final: null };
    const refused = taggedRenderer.render(none, { ...identityEdit(none), answer: 'Arno' });
    assert.equal(refused.ok, false);
  });
});

describe('the new rules read each text once', () => {
  it('9,000 MMSearch-R1 turns (one of the two turn ends never written: searched for once), and 200,000 lines of unclosed \\boxed{, each in under 2 s', async () => {
    const observations = `${'<search><img></search><information>1. x</information>\nassistant\n'.repeat(9_000)}${'y'.repeat(1_000_000)}`;
    const read = await cpuTimed(() => readTranscript(observations, dialect('mmsearch_r1')));
    assert.equal(read.result.steps.length, 9_000);
    assert.ok(read.ms < 2_000, `${read.ms} ms`);
    const boxed = 'a \\boxed{ b\n'.repeat(200_000);
    const answered = await cpuTimed(() => [webThinkerAnswer.at(boxed, []), webThinkerAnswer.at(`${boxed}\\boxed{x}`, [])]);
    assert.deepEqual(answered.result, [undefined, { start: boxed.length + 7, end: boxed.length + 8 }]);
    assert.ok(answered.ms < 2_000, `${answered.ms} ms`);
  });
});
