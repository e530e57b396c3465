// A logged field's `depends on`, its read set, and the frozen-field rule: which fields a pool
// cannot recompute after an edit, which (reward, attack) pairs that freezes, and the checker's
// warning at the term that reads such a field.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatSpec } from '../../server/src/format/format.js';
import { writableParts } from '../../server/src/language/edit-vocabulary.js';
import { issueCodes } from '../../server/src/problems/issue-codes.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { frozenFields, frozenPairs, poolsFreezing } from '../../server/src/semantics/frozen-fields.js';
import type { FieldDecl } from '../../server/src/syntax/ast.js';
import { parse } from '../../server/src/syntax/parse.js';

/** A spec whose rewards read a logged judge; `dependsOn` is written after its path. */
function spec(dependsOn = ''): string {
  return `corpus wiki = "c.jsonl"
pool p = "p.jsonl"
field judge "the grader's verdict" : number = meta.judge.score${dependsOn}
detector U "no search" = has_final and search_calls == 0
detector F "cites fakes" = any c in citations: c not in corpus
signal verdict "the judge, as a signal" = judge
reward R0 {
  correct 1 * verdict
  cost -0.1 * search_calls
}
reward R_F = R0 - 1 * F
audit a {
  reward R0
  compare R_F
  corpus wiki
  pools p
  attack same_final targets U
  attack fake_id targets F
}
`;
}

const fieldOf = (text: string, name = 'judge'): FieldDecl => {
  const decl = parse(text).spec.decls.find((d) => d.kind === 'logged' && d.name?.text === name);
  assert.ok(decl?.kind === 'logged');
  return decl;
};

describe('depends on: grammar and formatter', () => {
  it('parses the parts after the path, with their spans', () => {
    const text = spec(' depends on answer, citations');
    const parsed = parse(text);
    assert.deepEqual(parsed.problems, []);
    const field = fieldOf(text);
    assert.deepEqual(field.dependsOn?.parts.map((p) => p.text), ['answer', 'citations']);
    assert.equal(text.slice(field.dependsOn!.span.start, field.dependsOn!.span.end), 'depends on answer, citations');
    assert.equal(text.slice(field.span.start, field.span.end), 'field judge "the grader\'s verdict" : number = meta.judge.score depends on answer, citations');
  });

  it('leaves dependsOn undefined when unsaid, and a declaration may still be named depends', () => {
    const text = `${spec()}signal depends = search_calls\n`;
    assert.deepEqual(parse(text).problems, []);
    assert.equal(fieldOf(text).dependsOn, undefined);
  });

  it('the formatter keeps the clause, spaced as the language writes lists', () => {
    const formatted = formatSpec('field  judge "j" : number = meta.judge.score   depends  on answer ,citations\nsignal s = judge\n');
    assert.equal(formatted, 'field judge "j": number = meta.judge.score depends on answer, citations\nsignal s = judge\n');
    assert.equal(formatSpec(formatted), formatted);
  });
});

describe('depends on: read sets', () => {
  it('unsaid: meta and every part an edit can write', () => {
    const { model } = analyze(spec());
    assert.deepEqual([...model.readSets.ofDecl(fieldOf(spec()))].sort(), ['meta', ...writableParts].sort());
    assert.deepEqual([...writableParts].sort(), ['answer', 'citations', 'final_text', 'steps']);
    // The same decl object as the model's: read sets are keyed by declaration.
    const judge = model.globals.get('judge')!.decl;
    assert.deepEqual([...model.readSets.ofDecl(judge)].sort(), ['answer', 'citations', 'final_text', 'meta', 'steps']);
  });

  it('said: meta and the named parts, through a signal that reads the field', () => {
    const { model } = analyze(spec(' depends on answer'));
    assert.deepEqual([...model.readSets.ofDecl(model.globals.get('judge')!.decl)].sort(), ['answer', 'meta']);
    assert.deepEqual([...model.readSets.ofDecl(model.globals.get('verdict')!.decl)].sort(), ['answer', 'meta']);
  });

  it('a reward reads the logged fields of its terms and of its base', () => {
    const { model } = analyze(spec());
    const fields = (name: string) => [...model.readSets.fieldsOfDecl(model.globals.get(name)!.decl)].map((f) => f.name?.text);
    assert.deepEqual(fields('R0'), ['judge']);
    assert.deepEqual(fields('R_F'), ['judge']);
  });
});

describe('frozen fields', () => {
  it('a field is rendered by a pool whose format renders its first key under meta; else frozen', () => {
    assert.deepEqual(poolsFreezing(['meta', 'transcript'], [{ name: 'rollouts', rendered: ['transcript', 'observations'] }]), []);
    assert.deepEqual(poolsFreezing(['meta', 'judge', 'score'], [{ name: 'rollouts', rendered: ['transcript', 'observations'] }]), ['rollouts']);
    assert.deepEqual(poolsFreezing(['meta', 'transcript'], [{ name: 'a', rendered: ['transcript'] }, { name: 'file', rendered: [] }]), ['file']);
    const transcript = fieldOf('field response "r" : text = meta.transcript depends on steps, final_text', 'response');
    assert.deepEqual(frozenFields([transcript], [{ name: 'rollouts', rendered: ['transcript'] }]), []);
    const [frozen] = frozenFields([transcript], [{ name: 'plain', rendered: [] }]);
    assert.deepEqual({ ...frozen, decl: undefined }, { name: 'response', path: 'meta.transcript', dependsOn: ['final_text', 'steps'], declared: true, pools: ['plain'], decl: undefined });
  });

  it('unsaid, every attack freezes every reward that reads the field', () => {
    const { model } = analyze(spec());
    const pairs = frozenPairs(model, { rewards: ['R0', 'R_F'], pools: ['p'], attacks: [{ name: 'same_final', kind: 'same_final' }, { name: 'fake_id', kind: 'fake_id' }] });
    assert.deepEqual(pairs.map((p) => [p.reward, p.attack, p.writes.join(' ')]), [
      ['R0', 'same_final', 'steps'], ['R0', 'fake_id', 'citations final_text'],
      ['R_F', 'same_final', 'steps'], ['R_F', 'fake_id', 'citations final_text'],
    ]);
  });

  it('depends on answer: neither the steps-only attack nor the citation one is frozen; depends on citations: only the citation one', () => {
    const attacks = [{ name: 'same_final', kind: 'same_final' }, { name: 'fake_id', kind: 'fake_id' }];
    const onAnswer = analyze(spec(' depends on answer')).model;
    assert.deepEqual(frozenPairs(onAnswer, { rewards: ['R0'], pools: ['p'], attacks }), []);
    const onCitations = analyze(spec(' depends on answer, citations')).model;
    assert.deepEqual(frozenPairs(onCitations, { rewards: ['R0'], pools: ['p'], attacks }).map((p) => [p.attack, p.writes]), [['fake_id', ['citations']]]);
  });

  it('depends on question: a label of the question (augmented gold), which no edit writes, is never frozen', () => {
    const attacks = [{ name: 'same_final', kind: 'same_final' }, { name: 'fake_id', kind: 'fake_id' }];
    const { model, problems } = analyze(spec(' depends on question'));
    assert.deepEqual(problems.filter((p) => p.code === 'bad-field'), []);
    assert.deepEqual(frozenPairs(model, { rewards: ['R0'], pools: ['p'], attacks }), []);
    const misspelt = analyze(spec(' depends on questoin')).problems.filter((p) => p.code === 'bad-field');
    assert.match(misspelt[0]?.message ?? '', /'questoin' is not a part a logged value can depend on \(answer, final_text, citations, steps, question\); did you mean 'question'\?/);
  });
});

describe('frozen-field: the checker warning', () => {
  const frozenWarnings = (text: string) => analyze(text).problems.filter((p) => p.code === issueCodes.frozenField);

  it('is one warning for a term that reads several frozen fields, naming the first and listing the others', () => {
    const text = spec().replace('signal verdict "the judge, as a signal" = judge', 'field rubric "a logged metric" : number = meta.metrics.rubric\nfield turns_logged "a logged count" : number = meta.metrics.turns\nsignal verdict "the judge and two metrics" = judge + rubric + turns_logged');
    const warnings = frozenWarnings(text);
    assert.equal(warnings.length, 1);
    assert.equal(text.slice(warnings[0]!.span.start, warnings[0]!.span.end), 'correct 1 * verdict');
    assert.deepEqual(warnings[0]!.data?.['fields'], ['judge', 'rubric', 'turns_logged']);
    assert.match(warnings[0]!.message, /\. The term also reads 2 more logged fields frozen under these attacks: rubric \(meta\.metrics\.rubric\), turns_logged \(meta\.metrics\.turns\)$/);
  });

  it('is at the term that reads the field (through a signal), once per term, naming field, pool, attacks, writes and what to do', () => {
    const text = spec();
    const [warning, ...rest] = frozenWarnings(text);
    assert.deepEqual(rest, []);
    assert.ok(warning);
    assert.equal(warning.severity, 'warning');
    assert.equal(text.slice(warning.span.start, warning.span.end), 'correct 1 * verdict');
    assert.equal(warning.message,
      "term 'correct' reads logged field 'judge' (meta.judge.score), which pool p (a pool file: nothing of its meta follows an edit) cannot recompute after an edit: it keeps its logged value. " +
      "judge may depend on the whole trajectory (no 'depends on'), and in audit a same_final writes steps; fake_id writes citations and final_text: " +
      'their figures under R0 and R_F are marked frozen and not counted. ' +
      "If judge cannot change under these edits, say so with 'depends on'; otherwise link a format that renders meta.judge, or recompute it by a command");
    assert.deepEqual(warning.data, { audit: 'a', field: 'judge', fields: ['judge'], attacks: ['same_final', 'fake_id'], rewards: ['R0', 'R_F'] });
  });

  it('names only the attacks that write what the field depends on', () => {
    const [warning] = frozenWarnings(spec(' depends on citations'));
    assert.ok(warning);
    assert.match(warning.message, /judge depends on citations, and in audit a fake_id writes citations: their figures under R0 and R_F/);
    assert.deepEqual(warning.data, { audit: 'a', field: 'judge', fields: ['judge'], attacks: ['fake_id'], rewards: ['R0', 'R_F'] });
  });

  it('says nothing when no attack writes what the field depends on, or no audited reward reads it', () => {
    assert.deepEqual(frozenWarnings(spec(' depends on answer')), []);
    assert.deepEqual(frozenWarnings(spec().replace('correct 1 * verdict', 'correct 1 * has_final')), []);
  });
});
