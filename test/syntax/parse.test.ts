import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type * as A from '../../server/src/syntax/ast.js';
import { LineIndex } from '../../server/src/problems/line-index.js';
import { parse } from '../../server/src/syntax/parse.js';
import { marked } from '../helpers/marked.js';

function parseClean(text: string): A.Spec {
  const result = parse(text);
  assert.deepEqual(result.problems, [], `unexpected problems: ${JSON.stringify(result.problems)}`);
  return result.spec;
}

function only<K extends A.Decl['kind']>(spec: A.Spec, kind: K): Extract<A.Decl, { kind: K }> {
  const decl = spec.decls[0];
  assert.equal(decl?.kind, kind);
  return decl as Extract<A.Decl, { kind: K }>;
}

/** Renders an expression with explicit parentheses, to check precedence and associativity. */
function show(e: A.Expr | undefined): string {
  if (e === undefined) return '?';
  switch (e.kind) {
    case 'number':
      return String(e.value);
    case 'string':
      return JSON.stringify(e.value);
    case 'bool':
      return String(e.value);
    case 'name':
      return e.name.text;
    case 'member':
      return `${show(e.object)}.${e.property?.text ?? '?'}`;
    case 'call':
      return `${e.callee.text}(${e.args.map(show).join(', ')})`;
    case 'unary':
      return `(${e.op} ${show(e.operand)})`;
    case 'binary':
      return `(${show(e.left)} ${e.op} ${show(e.right)})`;
    case 'quantifier':
      return `(${e.quantifier} ${e.variable?.text ?? '?'} in ${show(e.collection)}: ${show(e.body)})`;
    case 'if':
      return `(if ${show(e.condition)} then ${show(e.whenTrue)} else ${show(e.whenFalse)})`;
  }
}

function body(expression: string): string {
  return show(only(parseClean(`signal s = ${expression}`), 'signal').body);
}

describe('parse: declarations', () => {
  it('reads corpus and pool links with their spans', () => {
    const { text, spans } = marked('corpus ⟦wiki⟧ = ⟦"pools/corpus.jsonl"⟧\npool hotpot = "pools/hotpot.jsonl"');
    const spec = parseClean(text);
    const corpus = only(spec, 'corpus');
    assert.equal(corpus.name?.text, 'wiki');
    assert.deepEqual(corpus.name?.span, spans[0]);
    assert.equal(corpus.path?.value, 'pools/corpus.jsonl');
    assert.deepEqual(corpus.path?.span, spans[1]);
    const pool = spec.decls[1] as A.PoolDecl;
    assert.equal(pool.kind, 'pool');
    assert.equal(pool.path?.value, 'pools/hotpot.jsonl');
  });

  it('reads a pool\'s from clause: format, options (names, strings, numbers, booleans), empty or left out', () => {
    const { text, spans } = marked('pool runs = "dumps/*.jsonl" ⟦from⟧ ⟦verl⟧(⟦dialect⟧: ⟦search_r1⟧, n: 8, tag: "a b", flag: true)\npool b = "b.jsonl" from verl\npool c = "c.jsonl" from verl()\npool d = "d.jsonl"');
    const spec = parseClean(text);
    const [runs, b, c, d] = spec.decls as A.PoolDecl[];
    assert.deepEqual(runs!.source?.from.span, spans[0]);
    assert.deepEqual(runs!.source?.format?.span, spans[1]);
    assert.deepEqual(runs!.source?.options[0]?.name.span, spans[2]);
    assert.deepEqual(runs!.source?.options[0]?.value?.span, spans[3]);
    const value = (o: A.ImportOption): unknown => (o.value !== undefined && 'kind' in o.value ? o.value.value : o.value?.text);
    assert.deepEqual(runs!.source?.options.map((o) => [o.name.text, value(o)]), [['dialect', 'search_r1'], ['n', 8], ['tag', 'a b'], ['flag', 'true']]);
    assert.equal(runs!.span.end, text.indexOf('\n'));
    assert.deepEqual([b!.source?.format?.text, b!.source?.options], ['verl', []]);
    assert.deepEqual([c!.source?.format?.text, c!.source?.options], ['verl', []]);
    assert.equal(d!.source, undefined);
  });

  it('keeps `from` free as a name, and `oracle field` after a pool a declaration', () => {
    const spec = parseClean('pool from = "f.jsonl"\noracle field judge "j" : number = meta.judge\nsignal from2 = 1\npool p = "p.jsonl"\noracle field k "k" : number = meta.k\nsignal from = 2');
    assert.deepEqual(spec.decls.map((d) => d.kind), ['pool', 'logged', 'signal', 'pool', 'logged', 'signal']);
    assert.equal((spec.decls[3] as A.PoolDecl).source, undefined);
  });

  it('reports a from clause without its format', () => {
    const result = parse('pool p = "p.jsonl" from\nsignal s = 1');
    assert.equal(result.problems[0]?.code, 'parse-error');
    assert.deepEqual(result.spec.decls.map((d) => d.kind), ['pool', 'signal']);
  });

  it('reads signals and detectors with and without a doc string', () => {
    const spec = parseClean('signal s "a rate" = mean(a, b)\ndetector D = has_final\ndetector E "cites fakes" = any c in citations: c not in corpus');
    const [s, d, e] = spec.decls as [A.SignalDecl, A.DetectorDecl, A.DetectorDecl];
    assert.equal(s.doc?.value, 'a rate');
    assert.equal(show(s.body), 'mean(a, b)');
    assert.equal(d.doc, undefined);
    assert.equal(show(d.body), 'has_final');
    assert.equal(show(e.body), '(any c in citations: (c not in corpus))');
  });

  it('unescapes strings', () => {
    const spec = parseClean('signal s "say \\"hi\\" \\\\ bye" = 1');
    assert.equal(only(spec, 'signal').doc?.value, 'say "hi" \\ bye');
  });

  it('reads reward blocks with signed weights', () => {
    const { text, spans } = marked('reward R0 "base" {\n  answer ⟦1.0⟧ * token_f1(answer, gold.answers)\n  cost ⟦-0.05⟧ * search_calls\n  bonus ⟦+2⟧ * has_final\n}');
    const reward = only(parseClean(text), 'reward');
    assert.equal(reward.doc?.value, 'base');
    assert.equal(reward.base, undefined);
    assert.deepEqual(reward.terms.map((t) => [t.name.text, t.weight, t.derived]), [['answer', 1], ['cost', -0.05], ['bonus', 2]].map((x) => [...x, false]));
    assert.deepEqual(reward.terms.map((t) => t.weightSpan), spans);
    assert.equal(show(reward.terms[0]?.body), 'token_f1(answer, gold.answers)');
  });

  it('reads derived rewards term by term, naming terms after what they weigh', () => {
    const reward = only(parseClean('reward R_full = R0 - 1.2 * L + 0.5 * U - 0.8 * misses(citations, gold.support) - 2 * (a + b)'), 'reward');
    assert.equal(reward.base?.text, 'R0');
    assert.deepEqual(reward.terms.map((t) => [t.name.text, t.weight, t.derived]), [
      ['L', -1.2, true], ['U', 0.5, true], ['misses', -0.8, true], ['(expression)', -2, true],
    ]);
    assert.equal(show(reward.terms[3]?.body), '(a + b)');
  });

  it('reads every kind of audit item', () => {
    const spec = parseClean(`audit paper "doc" {
  reward R0
  compare R_L, R_full
  corpus wiki
  pools a, b
  attack same_final targets U, L
  attack lx = launder targets L using lexical(8), bm25(16), candidates "dense.jsonl"
  lattice U = 0.5, L = 1.2
  expect asr(R_L, lx, oracle_worst) == 0
  expect upper(R0, same_final, first_visible) <= 0.5%
  expect mean_margin(R0, lx, oracle_worst) < -0.4
  expect minimal_repair == {L}
  seed 7
  bootstrap 2000
  sweep 0, 0.25, 2
}`);
    const audit = only(spec, 'audit');
    assert.equal(audit.doc?.value, 'doc');
    assert.deepEqual(audit.items.map((i) => i.kind), [
      'audit-reward', 'audit-compare', 'audit-corpus', 'audit-pools', 'attack', 'attack', 'lattice',
      'expect-metric', 'expect-metric', 'expect-metric', 'expect-minimal', 'setting', 'setting', 'setting',
    ]);
    const [, compare, , pools, same, lx, lattice, asr, upper, margin, minimal, seed, , sweep] = audit.items as [
      A.AuditRewardItem, A.AuditCompareItem, A.AuditCorpusItem, A.AuditPoolsItem, A.AttackItem, A.AttackItem, A.LatticeItem,
      A.ExpectMetricItem, A.ExpectMetricItem, A.ExpectMetricItem, A.ExpectMinimalItem, A.SettingItem, A.SettingItem, A.SettingItem,
    ];
    assert.deepEqual(compare.rewards.map((n) => n.text), ['R_L', 'R_full']);
    assert.deepEqual(pools.pools.map((n) => n.text), ['a', 'b']);
    assert.equal(same.name?.text, 'same_final');
    assert.equal(same.attackKind, same.name, 'the short form names the attack after its kind');
    assert.deepEqual(same.targets.map((n) => n.text), ['U', 'L']);
    assert.equal(lx.name?.text, 'lx');
    assert.equal(lx.attackKind?.text, 'launder');
    assert.deepEqual(lx.generators.map((g) => (g.kind === 'generator' ? `${g.generator.text}(${g.budget?.value})` : g.kind === 'candidates-file' ? `file ${g.path?.value}` : `command ${g.command?.value}`)), [
      'lexical(8)', 'bm25(16)', 'file dense.jsonl',
    ]);
    assert.deepEqual(lattice.entries.map((e) => [e.detector.text, e.lambda?.value]), [['U', 0.5], ['L', 1.2]]);
    assert.deepEqual([asr.metric.text, asr.args.map((n) => n.text), asr.op, asr.value?.value, asr.percent], ['asr', ['R_L', 'lx', 'oracle_worst'], '==', 0, false]);
    assert.deepEqual([upper.op, upper.value?.value, upper.percent], ['<=', 0.5, true]);
    assert.deepEqual([margin.op, margin.value?.value], ['<', -0.4]);
    assert.deepEqual(minimal.detectors.map((n) => n.text), ['L']);
    assert.deepEqual([seed.key, seed.values.map((v) => v.value)], ['seed', [7]]);
    assert.deepEqual(sweep.values.map((v) => v.value), [0, 0.25, 2]);
  });

  it('reads training and comparison blocks: audit items and `key value, …` options', () => {
    const spec = parseClean(`training t "doc" {
  reward R_L
  log a, b
  normalize std
  min_groups 5
}
comparison m {
  base eval_a
  margin 2%
  attack launder targets L using lexical(8)
  claim -1
}`);
    const [training, comparison] = spec.decls;
    assert.equal(training?.kind, 'training');
    assert.equal(comparison?.kind, 'comparison');
    if (training?.kind !== 'training' || comparison?.kind !== 'comparison') return;
    assert.equal(training.doc?.value, 'doc');
    assert.deepEqual(training.items.map((i) => i.kind), ['audit-reward', 'option', 'option', 'option']);
    const options = (items: readonly A.BlockItem[]) => items.flatMap((i) => (i.kind === 'option'
      ? [`${i.key.text}=${i.values.map((v) => (v.kind === 'name' ? v.name.text : `${v.value}${v.percent ? '%' : ''}`)).join('|')}`]
      : []));
    assert.deepEqual(options(training.items), ['log=a|b', 'normalize=std', 'min_groups=5']);
    assert.deepEqual(options(comparison.items), ['base=eval_a', 'margin=2%', 'claim=-1']);
    assert.equal(comparison.items[2]?.kind, 'attack');
  });

  it('recovers inside a training block and keeps the items after a broken one', () => {
    const result = parse('training t {\n  min_groups ,\n  log a\n}\nreward R { x 1 * search_calls }');
    assert.ok(result.problems.length > 0);
    const training = result.spec.decls[0];
    assert.equal(training?.kind, 'training');
    assert.equal(result.spec.decls[1]?.kind, 'reward');
  });

  it('reads logged fields, oracle or not, and leaves `oracle` free as a name', () => {
    const spec = parseClean('field judge "j" : number = meta.judge.score\noracle field g : ids = meta.gold_docs\nreward oracle { x 1 * judge }');
    const [visible, oracle, reward] = spec.decls;
    assert.equal(visible?.kind, 'logged');
    assert.deepEqual(visible?.kind === 'logged' ? [visible.modifier, visible.fieldType?.text, visible.path.map((n) => n.text)] : [], [undefined, 'number', ['meta', 'judge', 'score']]);
    assert.deepEqual(oracle?.kind === 'logged' ? [oracle.modifier?.text, oracle.doc, oracle.fieldType?.text] : [], ['oracle', undefined, 'ids']);
    assert.equal(reward?.name?.text, 'oracle');
  });

  it('reads a key of the row\'s meta spelled like a keyword (rllm and ART log meta.reward)', () => {
    const spec = parseClean('field logged "the logged reward" : number = meta.reward\nfield s : number = meta.audit.pool.score\nreward R { x 1 * logged }');
    const paths = spec.decls.flatMap((d) => (d.kind === 'logged' ? [d.path.map((n) => n.text)] : []));
    assert.deepEqual(paths, [['meta', 'reward'], ['meta', 'audit', 'pool', 'score']]);
  });

  it('parses the sample spec without problems', () => {
    const text = readFileSync('samples/paper.reward', 'utf8');
    const spec = parseClean(text);
    assert.deepEqual(spec.decls.filter((d) => d.kind === 'reward').map((d) => d.name?.text), ['R0', 'R_L', 'R_full']);
    assert.ok(spec.comments.length > 5);
  });
});

describe('parse: expressions', () => {
  it('binds or < and < not < comparison < additive < multiplicative < unary < member', () => {
    assert.equal(body('a or b and not c'), '(a or (b and (not c)))');
    assert.equal(body('not a == b'), '(not (a == b))');
    assert.equal(body('a + b * c - d / e'), '((a + (b * c)) - (d / e))');
    assert.equal(body('-a * b'), '((- a) * b)');
    assert.equal(body('x + 1 >= y - 2'), '((x + 1) >= (y - 2))');
    assert.equal(body('(a + b) * c'), '((a + b) * c)');
    assert.equal(body('gold.answers'), 'gold.answers');
    assert.equal(body('a - b - c'), '((a - b) - c)', 'left associative');
  });

  it('reads membership, quantifiers and counts', () => {
    assert.equal(body('c in corpus'), '(c in corpus)');
    assert.equal(body('c not in retrieved'), '(c not in retrieved)');
    assert.equal(body('all s in searches: count(s.results) > 0'), '(all s in searches: (count(s.results) > 0))');
    assert.equal(body('count c in citations: c in gold.support'), '(count c in citations: (c in gold.support))');
    assert.equal(body('mean(any c in citations: c in corpus, has_final)'), 'mean((any c in citations: (c in corpus)), has_final)');
    assert.equal(body('repeated_queries()'), 'repeated_queries()');
  });

  it('reads conditionals, whose else branch reaches as far right as it can', () => {
    assert.equal(body('if a then 1 else 0'), '(if a then 1 else 0)');
    assert.equal(body('if a and b then x + 1 else y * 2'), '(if (a and b) then (x + 1) else (y * 2))');
    assert.equal(body('if a then 1 else 0 + 2'), '(if a then 1 else (0 + 2))');
    assert.equal(body('(if a then 1 else 0) + 2'), '((if a then 1 else 0) + 2)');
    assert.equal(body('if a then if b then 1 else 2 else 3'), '(if a then (if b then 1 else 2) else 3)');
    assert.equal(body('2 * if a then 1 else 0'), '(2 * (if a then 1 else 0))');
  });

  it('reads literals', () => {
    assert.equal(body('1e-3 + 2.5'), '(0.001 + 2.5)');
    assert.equal(body('answer != ""'), '(answer != "")');
    assert.equal(body('true and false'), '(true and false)');
  });

  it('gives every node a span inside its declaration', () => {
    const text = 'detector L "x" = any c in citations: c in corpus and c not in retrieved';
    const detector = only(parseClean(text), 'detector');
    assert.deepEqual(detector.span, { start: 0, end: text.length });
    assert.equal(text.slice(detector.body!.span.start, detector.body!.span.end), 'any c in citations: c in corpus and c not in retrieved');
  });
});

describe('parse: errors and recovery', () => {
  it('recovers from a missing closing brace and keeps the declarations after it', () => {
    const { text, spans } = marked('reward R { a 1 * x\n⟦detector⟧ D "d" = has_final');
    const result = parse(text);
    assert.equal(result.problems.length, 1);
    assert.equal(result.problems[0]?.code, 'parse-error');
    assert.deepEqual(result.problems[0]?.span, spans[0]);
    const reward = result.spec.decls[0] as A.RewardDecl;
    assert.deepEqual(reward.terms.map((t) => t.name.text), ['a']);
  });

  it('keeps a half-typed term and reports where the expression is missing', () => {
    const { text, spans } = marked('reward R {\n  a 1 * x\n  b 2 *\n⟦}⟧\nsignal s = 1');
    const result = parse(text);
    assert.deepEqual(result.problems.map((p) => [p.code, p.span]), [['parse-error', spans[0]]]);
    assert.match(result.problems[0]!.message, /expected an expression but found '}'/);
    const reward = result.spec.decls[0] as A.RewardDecl;
    assert.deepEqual(reward.terms.map((t) => [t.name.text, t.weight, t.body === undefined]), [['a', 1, false], ['b', 2, true]]);
    assert.equal(result.spec.decls[1]?.kind, 'signal');
  });

  it('reports a stray token and parses on', () => {
    const { text, spans } = marked('signal a = 1\n⟦)⟧\nsignal b = 2');
    const result = parse(text);
    assert.deepEqual(result.problems.map((p) => [p.code, p.span]), [['parse-error', spans[0]]]);
    assert.deepEqual(result.spec.decls.map((d) => d.name?.text), ['a', 'b']);
  });

  it('reports an error at the end of the file after the last token', () => {
    const text = 'detector D "d" =';
    const result = parse(text);
    assert.equal(result.problems[0]?.code, 'parse-error');
    assert.deepEqual(result.problems[0]?.span, { start: text.length, end: text.length });
    assert.match(result.problems[0]!.message, /the end of the file/);
    assert.equal(result.spec.decls[0]?.name?.text, 'D');
  });

  it('reports characters no token starts with', () => {
    const { text, spans } = marked('signal a = 1 ⟦@⟧ 2');
    const result = parse(text);
    assert.deepEqual(result.problems.filter((p) => p.code === 'lex-error').map((p) => p.span), [spans[0]]);
  });

  it('reads a UTF-16 spec, with and without a byte order mark, as one error at its start', () => {
    const spec = '# a spec saved by a Windows editor\nsignal s = search_calls > 1\nreward R { a -1 * s }\n';
    const bom = Buffer.from([0xff, 0xfe]);
    const saved = {
      'UTF-16LE with a mark': Buffer.concat([bom, Buffer.from(spec, 'utf16le')]),
      'UTF-16BE with a mark': Buffer.concat([bom, Buffer.from(spec, 'utf16le')]).swap16(),
      'UTF-16LE': Buffer.from(spec, 'utf16le'),
      'UTF-16BE': Buffer.from(spec, 'utf16le').swap16(),
    };
    for (const [how, bytes] of Object.entries(saved)) {
      const result = parse(bytes.toString('utf8'));
      assert.deepEqual(result.problems.map((p) => [p.code, p.span, p.message]), [['lex-error', { start: 0, end: 0 }, 'the spec is UTF-16 text; save it as UTF-8']], how);
      assert.deepEqual([result.spec.decls.length, result.tokens.length], [0, 0], how);
    }
    const binary = parse('\u0000\u0000\u0001a\u0000b\u0002\u0000\nreward R { a 1 * has_final }\n');
    assert.deepEqual(binary.problems.map((p) => [p.code, p.span, p.message]), [['lex-error', { start: 0, end: 0 }, 'the spec is not text: its first line holds NUL characters (binary content); save it as UTF-8 text']]);
    const strayNul = parse('reward R { a 1 * has_final }\n\u0000\n');
    assert.deepEqual(strayNul.problems.map((p) => [p.code, p.span]), [['lex-error', { start: 29, end: 30 }]], 'a NUL after a first line of text is a character like any other');
    assert.deepEqual(parse(`\ufeff${spec}`).problems, [], 'UTF-8 with a byte order mark is UTF-8');
  });

  it('reports an unterminated string once and keeps its text', () => {
    const { text, spans } = marked('detector D ⟦"flags things⟧\n  = has_final');
    const result = parse(text);
    assert.deepEqual(result.problems.map((p) => [p.code, p.span]), [['unterminated-string', spans[0]]]);
    assert.equal((result.spec.decls[0] as A.DetectorDecl).doc?.value, 'flags things');
  });

  it('never reports inserted tokens as real names', () => {
    const result = parse('audit a { attack = launder targets }');
    assert.ok(result.problems.length > 0);
    for (const decl of result.spec.decls) assert.ok(decl.span.end <= 'audit a { attack = launder targets }'.length);
  });
});

describe('LineIndex', () => {
  it('maps offsets to lines and back with CRLF, CR and LF endings', () => {
    const text = 'a\r\nbc\rd\ne';
    const index = new LineIndex(text);
    assert.equal(index.lineCount, 4);
    assert.deepEqual(index.position(0), { line: 0, character: 0 });
    assert.deepEqual(index.position(4), { line: 1, character: 1 });
    assert.deepEqual(index.position(6), { line: 2, character: 0 });
    assert.deepEqual(index.position(text.length), { line: 3, character: 1 });
    assert.equal(index.offset({ line: 1, character: 1 }), 4);
    assert.equal(index.offset({ line: 9, character: 0 }), text.length);
  });
});
