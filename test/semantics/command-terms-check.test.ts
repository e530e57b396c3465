// Issue 36: a field or reward computed by the user's program (`= command "…"`) and `conforms A to
// B within TOL`, as the parser, the checker and the formatter see them. Each case breaks one thing
// of a clean spec and says where the diagnostic must be with ⟦…⟧; the clean spec has no problem.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatSpec } from '../../server/src/format/format.js';
import { specCommands } from '../../server/src/inputs/spec-commands.js';
import { issueCodes, type IssueCode } from '../../server/src/problems/issue-codes.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { marked } from '../helpers/marked.js';

const clean = `corpus wiki = "c.jsonl"
pool p = "p.jsonl"
field judge "the judge's score" : number = command "node judge.mjs"
field short "a short answer" : boolean = command "node short.mjs --max 5"
oracle field gold_judge "the judge, shown gold" : number = command "node judge.mjs --gold"
field logged_score "the score the trainer logged" : number = meta.score
reward trained "the trainer's reward" = command "node reward.mjs"
detector L "cites unretrieved" = any c in citations: c in corpus and c not in retrieved
detector S "a short answer the judge likes" = short and judge > 0.5
reward R = trained - 1.2 * L
reward R_judged { em 1 * exact_match(answer, gold.answers)  judged 0.5 * gold_judge }
audit a {
  reward trained
  compare R, R_judged
  corpus wiki
  pools p
  attack launder targets L using lexical(4)
  attack same_final targets S
  lattice L = 1.2, S = 1
  conforms trained to logged_score within 1e-6
  conforms short to S
}
`;

function variant(from: string, to: string, base = clean): string {
  assert.ok(base.includes(from), `the clean spec has no '${from}'`);
  return base.replace(from, to);
}

const problemsOf = (text: string) => analyze(text, { specFile: '/specs/spec.reward' }).problems;

interface Case {
  readonly code: IssueCode;
  readonly title: string;
  /** The broken spec, with ⟦⟧ around where the diagnostic must be. */
  readonly bad: string;
  readonly severity?: 'error' | 'warning';
}

const cases: Case[] = [
  { code: issueCodes.badField, title: 'a command field of a type no JSON answer carries', bad: variant('field judge "the judge\'s score" : number', 'field judge "the judge\'s score" : ⟦text⟧') },
  { code: issueCodes.badField, title: 'a command field of ids', bad: variant('oracle field gold_judge "the judge, shown gold" : number', 'oracle field gold_judge "the judge, shown gold" : ⟦ids⟧') },
  { code: issueCodes.badField, title: 'a field whose program follows another word than command', bad: variant('= command "node judge.mjs"', '= ⟦program⟧ "node judge.mjs"') },
  { code: issueCodes.badField, title: 'a reward whose program follows another word than command', bad: variant('= command "node reward.mjs"', '= ⟦run⟧ "node reward.mjs"') },
  { code: issueCodes.badField, title: 'an empty command of a field', bad: variant('command "node short.mjs --max 5"', 'command ⟦""⟧') },
  { code: issueCodes.badField, title: 'a blank command of a reward', bad: variant('command "node reward.mjs"', 'command ⟦"   "⟧') },
  {
    code: issueCodes.commandInEdit, title: "an edit whose guard reads a command field",
    bad: variant('reward R = ', 'edit ⟦pad⟧ "pad a judged answer" when judge > 0.5 = set answer = concat(answer, " ", question)\nreward R = ')
      .replace('  attack same_final targets S\n', '  attack same_final targets S\n  attack padded = pad targets S\n'),
  },
  {
    code: issueCodes.commandInEdit, title: 'an edit whose value reads a command field through a detector',
    bad: variant('reward R = ', 'edit ⟦flag⟧ "answer the detector" = set answer = if S then "yes" else "no"\nreward R = ')
      .replace('  attack same_final targets S\n', '  attack same_final targets S\n  attack flagged = flag targets L\n'),
  },
  { code: issueCodes.badConformance, title: 'a pool as the subject of conforms', bad: variant('conforms trained to logged_score', 'conforms ⟦p⟧ to logged_score') },
  { code: issueCodes.badConformance, title: 'the corpus as the reference of conforms', bad: variant('conforms trained to logged_score', 'conforms trained to ⟦wiki⟧') },
  { code: issueCodes.badConformance, title: 'another word than to', bad: variant('conforms trained to logged_score', 'conforms trained ⟦foo⟧ logged_score') },
  { code: issueCodes.badConformance, title: 'another word than within', bad: variant('logged_score within 1e-6', 'logged_score ⟦upto⟧ 1e-6') },
  { code: issueCodes.badConformance, title: 'a negative tolerance', bad: variant('within 1e-6', 'within ⟦-0.5⟧') },
  {
    code: issueCodes.badConformance, title: 'a field of text compared',
    bad: variant('field logged_score', 'field answer_text "as logged" : text = meta.answer\nfield logged_score').replace('conforms short to S', 'conforms short to ⟦answer_text⟧'),
  },
  { code: issueCodes.badConformance, title: 'a value conforming to itself', bad: variant('  conforms short to S\n', '  ⟦conforms trained to trained⟧\n'), severity: 'warning' },
  { code: issueCodes.unknownName, title: 'an unknown name in conforms', bad: variant('conforms trained to logged_score', 'conforms trained to ⟦loged_score⟧') },
];

describe('command terms and conforms: the checker', () => {
  it('the clean spec, with every new form, has no problem', () => {
    assert.deepEqual(problemsOf(clean), []);
  });

  for (const c of cases) {
    it(`${c.code}: ${c.title}`, () => {
      const { text, spans } = marked(c.bad);
      const all = problemsOf(text);
      const problems = all.filter((p) => p.code === c.code);
      assert.deepEqual(problems.map((p) => p.span), spans, JSON.stringify(all));
      assert.deepEqual(problems.map((p) => p.severity), spans.map(() => c.severity ?? 'error'));
    });
  }

  it('types a command field as declared and sees gold only in an oracle field and a command reward', () => {
    const { model } = analyze(clean);
    const info = (name: string): string => {
      const i = model.declInfo.get(model.globals.get(name)!.decl);
      return `${i?.type}/${i?.visibility}`;
    };
    assert.equal(info('judge'), 'number/visible');
    assert.equal(info('short'), 'boolean/visible');
    assert.equal(info('gold_judge'), 'number/oracle');
    assert.equal(info('trained'), 'number/oracle');
    assert.equal(info('R'), 'number/oracle');
    assert.equal(info('S'), 'boolean/visible');
  });

  it('a detector that reads an oracle command field reads gold', () => {
    const { text, spans } = marked(variant('= short and judge > 0.5', '= short and ⟦gold_judge⟧ > 0.5'));
    assert.deepEqual(problemsOf(text).filter((p) => p.code === issueCodes.oracleDetector).map((p) => p.span), spans);
  });

  it('a term that reads a command field is never frozen: its program is sent the edits', () => {
    // The same term over a logged field keeps its logged value under the edits (frozen-field).
    const { text, spans } = marked(variant('command "node judge.mjs --gold"', 'meta.gj').replace('judged 0.5 * gold_judge', '⟦judged 0.5 * gold_judge⟧'));
    assert.deepEqual(problemsOf(text).filter((p) => p.code === issueCodes.frozenField).map((p) => p.span), spans);
    assert.ok(!problemsOf(clean).some((p) => p.code === issueCodes.frozenField));
  });

  it('lists every program the spec runs, with the string that holds it', () => {
    const { parsed } = analyze(clean);
    const commands = specCommands(parsed.spec);
    assert.deepEqual(commands.map((c) => `${c.owner} ${c.command}`), [
      'field judge: command node judge.mjs',
      'field short: command node short.mjs --max 5',
      'field gold_judge: command node judge.mjs --gold',
      'reward trained: command node reward.mjs',
    ]);
    for (const c of commands) assert.equal(clean.slice(c.link.span.start, c.link.span.end), JSON.stringify(c.command));
  });
});

describe('command terms and conforms: the formatter', () => {
  const assertStable = (input: string, expected: string): void => {
    const formatted = formatSpec(input);
    assert.equal(formatted, expected);
    assert.equal(formatSpec(formatted), formatted, 'formatting the output again changes it');
  };

  it('formats the clean spec into a spec that means the same and formats to itself', () => {
    const formatted = formatSpec(clean);
    assert.equal(formatSpec(formatted), formatted);
    assert.deepEqual(problemsOf(formatted), []);
    assert.deepEqual(specCommands(analyze(formatted).parsed.spec).map((c) => c.command), specCommands(analyze(clean).parsed.spec).map((c) => c.command));
  });

  it('spaces a command field and a command reward canonically, keeping the program as written', () => {
    assertStable(
      'field  j "d":number=command   "node x.mjs  --a \\"b\\""\noracle   field o "d" :boolean = command "node y.mjs"\nreward t "d"=command "node r.mjs"\nreward R = t-1.2*L\n',
      'field j "d": number = command "node x.mjs  --a \\"b\\""\noracle field o "d": boolean = command "node y.mjs"\nreward t "d" = command "node r.mjs"\nreward R = t - 1.2 * L\n',
    );
  });

  it('keeps a long command on its own line under its declaration', () => {
    const long = 'reward trained "the function the trainer ran, through the verl adapter" =\n  command "python3 -m herald_adapters.verl qa_em_format.py --solution prompt+response --reward-kwargs \'{\\"retrieval_score\\": 0.1}\'"\n';
    assertStable(long, long);
  });

  it('writes a conforms line with single spaces, its tolerance signed as written', () => {
    assertStable(
      'audit a {\n  reward t\n   conforms   t  to   logged  within 1e-6\n  conforms t to j\n  conforms t to j within -1\n  conforms t to j within +0.5\n}\n',
      'audit a {\n  reward t\n  conforms t to logged within 1e-6\n  conforms t to j\n  conforms t to j within -1\n  conforms t to j within +0.5\n}\n',
    );
  });
});
