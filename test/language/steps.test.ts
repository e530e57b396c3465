// The language's generic steps (docs/language.md, "Steps"): `steps` and its members, `calls`,
// `reasoning`, `final_status`, and `retrieved` with tool results, on v2 rows and on v1 rows.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { builtinFields, builtinFunctions, membersOf } from '../../server/src/language/builtins.js';
import { viewOf } from '../../server/src/language/view.js';
import { evaluate, parsed, toolRow, toolView, v1Row, v1View } from './v2-rows.js';

describe('steps: every logged step in order', () => {
  it('lists searches, tool calls, reasoning and invalid actions in log order, each with its type', () => {
    const view = toolView();
    assert.deepEqual(view.steps.map((s) => s.type), ['reasoning', 'search', 'tool', 'reasoning', 'tool', 'tool', 'invalid']);
    assert.equal(evaluate('count(steps)', view), 7);
    assert.equal(evaluate('count s in steps: s.type == "tool"', view), 3);
    assert.equal(evaluate('count s in steps: s.type == "reasoning"', view), 2);
    assert.equal(evaluate('count s in steps: s.type == "invalid"', view), invalidCount(view));
    assert.equal(evaluate('search_calls', view), 1);
  });

  it('is exactly the searches and invalid actions of a v1 row', () => {
    const view = v1View();
    assert.deepEqual(view.steps, parsed(v1Row).steps);
    assert.equal(evaluate('count(steps)', view), 3);
    assert.equal(evaluate('count s in steps: s.type == "search"', view), evaluate('search_calls', view));
    assert.equal(evaluate('count s in steps: s.type == "invalid"', view), evaluate('invalid_actions', view));
    assert.equal(evaluate('all s in steps: s.has_step_reward == false and s.step_reward == 0 and count(s.titles) == 0', view), 1);
  });
});

function invalidCount(view: ReturnType<typeof toolView>): number {
  return view.invalidActions;
}

describe('step members', () => {
  const view = toolView();

  it('`s.tool`: the tool\'s name, "search" for a search step, "" for reasoning and invalid steps', () => {
    assert.equal(evaluate('count s in steps: s.tool == "get_document"', view), 1);
    assert.equal(evaluate('count s in steps: s.tool == "search"', view), 1);
    assert.equal(evaluate('count s in steps: s.tool == ""', view), 3);
  });

  it('`s.args.NAME`: a string as logged, other JSON as compact JSON text, "" when missing or null', () => {
    assert.equal(evaluate('any s in steps: s.args.docid == "w:3"', view), 1);
    assert.equal(evaluate('any s in steps: s.args.top_k == "5"', view), 1);
    assert.equal(evaluate('any s in steps: s.args.verbose == "true"', view), 1);
    assert.equal(evaluate('any s in steps: s.args.filters == "{\\"lang\\":[\\"en\\",\\"de\\"]}"', view), 1);
    assert.equal(evaluate('count s in steps: s.args.note == ""', view), 7, 'null reads as ""');
    assert.equal(evaluate('count s in steps: s.args.docid == ""', view), 6, 'a missing argument, and every non-tool step, reads as ""');
    assert.equal(evaluate('any s in steps: s.tool == "visit" and starts_with(s.args.url, "https://")', view), 1);
    assert.equal(evaluate('any s in steps: s.args.toString == ""', view), 1, 'only the call\'s own keys are arguments');
  });

  it('`s.query`, `s.results`: a search\'s query; results of searches and tool calls, ids only', () => {
    assert.equal(evaluate('count s in steps: s.query == "newarn river"', view), 1);
    assert.equal(evaluate('count s in steps: s.query == ""', view), 6);
    assert.equal(evaluate('any s in steps: s.tool == "get_document" and count(s.results) == 1 and all r in s.results: r in citations', view), 1);
    assert.equal(evaluate('any s in steps: s.tool == "visit" and count(s.results) == 0', view), 1, 'a url result without an id (not resolved here) has no id');
    assert.equal(evaluate('count s in steps: count(s.results) > 0', view), 2);
  });

  it('`s.titles`, `s.urls`: as logged with the results, in order; a bare id has none', () => {
    assert.equal(evaluate('any s in steps: s.type == "search" and count(s.titles) == 1 and "Newarn (river)" in s.titles', view), 1);
    assert.equal(evaluate('any s in steps: s.tool == "visit" and "https://example.org/page" in s.urls and "Page" in s.titles', view), 1);
    assert.equal(evaluate('count s in steps: count(s.urls) > 0', view), 2);
  });

  it('`s.text`: reasoning and invalid text, a tool call\'s output, "" for a search', () => {
    assert.equal(evaluate('any s in steps: s.type == "reasoning" and contains(s.text, "birthplace")', view), 1);
    assert.equal(evaluate('any s in steps: s.tool == "calculator" and s.text == "4"', view), 1);
    assert.equal(evaluate('any s in steps: s.tool == "visit" and s.text == ""', view), 1);
    assert.equal(evaluate('any s in steps: s.type == "invalid" and s.text == "<serach>"', view), 1);
    assert.equal(evaluate('any s in steps: s.type == "search" and s.text == ""', view), 1);
  });

  it('`s.step_reward` as logged, 0 when the step logs none (`null` too); `s.has_step_reward` tells them apart', () => {
    assert.equal(evaluate('count s in steps: s.has_step_reward', view), 2);
    assert.equal(evaluate('any s in steps: s.type == "search" and s.step_reward == 0.1', view), 1);
    assert.equal(evaluate('any s in steps: s.tool == "get_document" and s.step_reward == -0.05', view), 1);
    assert.equal(evaluate('all s in steps: s.has_step_reward or s.step_reward == 0', view), 1);
  });
});

describe('calls, reasoning, final_status', () => {
  const view = toolView();

  it('`calls(tool)` counts the calls named so; `calls("search")` counts the search steps too; never `""`', () => {
    assert.equal(evaluate('calls("visit")', view), 1);
    assert.equal(evaluate('calls("get_document")', view), 1);
    assert.equal(evaluate('calls("calculator") + calls("browse")', view), 1);
    assert.equal(evaluate('calls("search")', view), 1);
    assert.equal(evaluate('calls("")', view), 0, 'reasoning and invalid steps are no calls');
    assert.equal(evaluate('calls("search")', v1View()), 2);
    assert.equal(evaluate('calls("visit")', v1View()), 0);
    assert.equal(evaluate('-0.01 * calls("visit") - 0.02 * calls("get_document")', view), -0.03);
  });

  it('`reasoning`: the reasoning steps\' texts in order', () => {
    assert.equal(evaluate('count(reasoning)', view), 2);
    assert.equal(evaluate('"Now check the page." in reasoning', view), 1);
    assert.equal(evaluate('any r in reasoning: matches(r, "^I need")', view), 1);
    assert.equal(evaluate('count(reasoning)', v1View()), 0);
  });

  it('`final_status`: `final.status` as logged, "" when there is none, kept when the answer is null', () => {
    assert.equal(evaluate('final_status == "stop"', view), 1);
    assert.equal(evaluate('final_status == ""', v1View()), 1);
    const stopped = viewOf(parsed({ ...toolRow, final: { answer: null, status: 'length' } }));
    assert.equal(evaluate('final_status == "length" and not has_final', stopped), 1);
  });
});

describe('retrieved: the results of searches and tool calls', () => {
  it('counts a document opened with a tool as retrieved', () => {
    const view = toolView();
    assert.deepEqual([...view.retrieved].sort(), ['w:1', 'w:2', 'w:3']);
    assert.equal(evaluate('all c in citations: c in retrieved', view), 1);
  });

  it('is unchanged for a v1 row: every id its searches returned', () => {
    assert.deepEqual([...v1View().retrieved], ['w:1', 'w:2', 'w:4']);
  });
});

describe('docs/language.md documents every built-in', () => {
  const doc = readFileSync('docs/language.md', 'utf8');
  const section = (heading: string): string => {
    const start = doc.indexOf(`### ${heading}\n`);
    assert.ok(start >= 0, heading);
    const end = doc.indexOf('\n### ', start + 1);
    return doc.slice(start, end < 0 ? undefined : end);
  };

  it('each field in the fields table, each step member in the steps table, each function in the functions table', () => {
    const fields = section('Trajectory fields (built in)');
    for (const f of builtinFields) assert.ok(fields.includes(`| \`${f.name}\` | ${f.type} | ${f.visibility} |`), f.name);
    const steps = section('Steps');
    for (const m of membersOf('step')) assert.ok(new RegExp(`\`s\\.${m.name}[\`.]`).test(steps), m.name);
    const functions = section('Functions (built in)');
    for (const fn of builtinFunctions) assert.ok(functions.includes(`\`${fn.name}(`), fn.name);
  });
});

it('the TextMate grammar colours every built-in field and function', () => {
  const grammar = JSON.parse(readFileSync('syntaxes/reward.tmLanguage.json', 'utf8')) as { repository: Record<string, { match?: string }> };
  const words = (rule: string): string[] => /\(\?:([a-z0-9_|]+)\)/.exec(grammar.repository[rule]?.match ?? '')?.[1]?.split('|').sort() ?? [];
  assert.deepEqual(words('builtin-field'), builtinFields.map((f) => f.name).sort());
  assert.deepEqual(words('builtin-function'), builtinFunctions.map((f) => f.name).sort());
});
