import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { formatSpec } from '../../server/src/format/format.js';
import { issueCodes } from '../../server/src/problems/issue-codes.js';
import * as limits from '../../server/src/problems/limits.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { parse } from '../../server/src/syntax/parse.js';
import { rewardLexer } from '../../server/src/syntax/tokens.js';
import { marked } from '../helpers/marked.js';

const { maxExpressionNesting: max } = limits;

/** The problems of a spec, as `code@start` with the text they start at, to read failures at a glance. */
function problemsOf(text: string): { code: string; span: { start: number; end: number } }[] {
  return analyze(text).problems.map((p) => ({ code: p.code, span: p.span }));
}

/** A signal whose body is `body`, used by a reward so nothing else is reported. */
const signal = (body: string): string => `signal s = ${body}\nreward R { a 1 * s }\n`;

describe('limits: nesting as written', () => {
  // Each case nests far past the limit, which exhausted the stack in the parser or the checker
  // (RangeError) before the limit existed; the marker is where the limit is crossed.
  const deep: [string, string][] = [
    ['300 parentheses', signal(`${'('.repeat(max)}⟦(⟧${'('.repeat(235)}1${')'.repeat(300)}`)],
    ['300 unclosed parentheses', signal(`${'('.repeat(max)}⟦(⟧${'('.repeat(235)}1`)],
    ['3,000 nots', signal(`${'not '.repeat(max)}⟦not⟧ ${'not '.repeat(2935)}true`)],
    ['3,000 unary minuses', signal(`${'-'.repeat(max)}⟦-⟧${'-'.repeat(2935)}1`)],
    ['1,000 nested quantifiers', signal(`${'any c in citations: '.repeat(max)}⟦any⟧ c in citations: ${'any c in citations: '.repeat(935)}true`)],
    ['1,000 nested aggregations', signal(`${'sum c in citations: '.repeat(max)}⟦sum⟧ c in citations: ${'sum c in citations: '.repeat(935)}1`)],
    ['1,000 nested filters', signal(`${'any c in citations where '.repeat(max)}⟦any⟧ c in citations where ${'any c in citations where '.repeat(935)}true${': true'.repeat(1000)}`)],
    ['a sum of 100,000 terms', signal(`${'1 + '.repeat(max)}1 ⟦+⟧ ${'1 + '.repeat(99_934)}1`)],
    ['100,000 member accesses', signal(`final${'.answer'.repeat(max)}⟦.⟧answer${'.answer'.repeat(99_934)}`)],
    ['a count call cut at its argument list', signal(`${'1 + '.repeat(max - 1)}- count⟦(⟧citations)`)],
    ['a cut that leaves an operator before the next term', `reward R { a 1 * ${'not '.repeat(max - 1)}⟦-⟧has_final  c 2 * has_final }\n`],
    ['deep calls', signal(`${'lower('.repeat(max)}lower⟦(⟧${'lower('.repeat(235)}question${')'.repeat(300)}`)],
    ['a deep argument among shallow ones', signal(`mean(1, ${'1 + '.repeat(max - 1)}1 ⟦+⟧ 1, 2)`)],
    ['a deep term of a reward block', `reward R { a -1 * search_calls  b 1 * ${'1 + '.repeat(max - 1)}1 ⟦+⟧ 1  c 2 * has_final }\n`],
  ];
  for (const [title, source] of deep) {
    it(`${title}: one nesting-too-deep error where the limit is crossed, never a throw`, () => {
      const { text, spans } = marked(source);
      const problems = problemsOf(text);
      assert.deepEqual(problems.filter((p) => p.code === issueCodes.nestingTooDeep).map((p) => p.span), spans);
      // The part left out costs no parse errors of its own.
      assert.deepEqual(problems.filter((p) => p.code === issueCodes.parseError), []);
    });
  }

  it('takes an expression nested exactly to the limit', () => {
    const exactly = [
      signal(`${'('.repeat(max)}1${')'.repeat(max)}`),
      signal(`${'1 + '.repeat(max)}1`),
      signal(`${'not '.repeat(max)}true`),
    ];
    for (const text of exactly) assert.deepEqual(problemsOf(text), [], text.slice(0, 40));
  });

  it('counts each argument, term and derived term on its own', () => {
    const many = (n: number, f: (i: number) => string): string => Array.from({ length: n }, (_, i) => f(i)).join('');
    const texts = [
      signal(`mean(${many(200, (i) => `${i} + 1, `)}1)`),
      `reward R {\n${many(200, (i) => `  t${i} -1 * search_calls\n`)}}\n`,
      `detector D "d" = has_final\nreward R0 { a 1 * has_final }\nreward R = R0${many(200, () => ' - 1 * D')}\n`,
    ];
    for (const text of texts) assert.deepEqual(problemsOf(text).filter((p) => p.code === issueCodes.nestingTooDeep), []);
  });

  it('keeps the declarations after a deep one', () => {
    const text = `${signal(`${'('.repeat(500)}1`)}detector D "d" = has_final\nreward R2 { d -1 * D }\n`;
    const { spec } = parse(text);
    assert.deepEqual(spec.decls.map((d) => d.name?.text), ['s', 'R', 'D', 'R2']);
  });

  it('leaves a deep spec unformatted, without throwing', () => {
    const text = signal(`${'('.repeat(300)}1${')'.repeat(300)}`);
    assert.equal(formatSpec(text), text);
  });
});

describe('limits: nesting through declarations', () => {
  // Each signal adds a level to the one it uses: the compiled evaluator recurses through the chain.
  const chain = (n: number, order: 'forward' | 'reverse'): string[] => {
    const lines = Array.from({ length: n }, (_, i) => (i === 0 ? 'signal d0 = search_calls' : `signal d${i} = d${i - 1} + 1`));
    lines.push(`reward R { a 1 * d${n - 1} }`);
    return order === 'forward' ? lines : [lines[n]!, ...lines.slice(0, n).reverse()];
  };

  it('reports the use that makes a chain of declarations too deep', () => {
    const lines = chain(300, 'forward');
    // d_i nests i + 1 levels: d256's use of d255 is the first past 256.
    lines[256] = 'signal d256 = ⟦d255⟧ + 1';
    const { text, spans } = marked(`${lines.join('\n')}\n`);
    assert.deepEqual(problemsOf(text).filter((p) => p.code === issueCodes.nestingTooDeep).map((p) => p.span), spans);
  });

  it('checks a chain of 20,000 declarations written backwards without exhausting the stack', () => {
    const problems = problemsOf(`${chain(20_000, 'reverse').join('\n')}\n`);
    assert.ok(problems.some((p) => p.code === issueCodes.nestingTooDeep));
    assert.deepEqual(problems.filter((p) => p.code !== issueCodes.nestingTooDeep), []);
  });

  it('reports a chain of 20,000 bare uses (each a name for the next) without exhausting the stack', () => {
    const chain = Array.from({ length: 20_000 }, (_, i) => (i === 0 ? 'signal s0 = search_calls' : `signal s${i} = s${i - 1}`)).reverse();
    const lines = ['reward R { a 1 * s19999 }', ...chain];
    const problems = problemsOf(`${lines.join('\n')}\n`);
    assert.ok(problems.some((p) => p.code === issueCodes.nestingTooDeep));
    assert.deepEqual(problems.filter((p) => p.code !== issueCodes.nestingTooDeep), []);
    assert.deepEqual(problemsOf(`${['reward R { a 1 * s199 }', ...chain.slice(-200)].join('\n')}\n`), [], 'a chain of 200 is within the limit');
  });

  it('checks 20,000 derived rewards in a chain, in linear time', () => {
    const lines = ['detector D "d" = has_final', 'reward R0 { a -1 * D }'];
    for (let i = 1; i < 20_000; i++) lines.push(`reward R${i} = R${i - 1} - 1 * D`);
    const problems = problemsOf(`${lines.join('\n')}\n`);
    assert.equal(problems.filter((p) => p.code === issueCodes.nestingTooDeep).length, 1);
  });

  it('takes a chain within the limit', () => {
    assert.deepEqual(problemsOf(`${chain(250, 'forward').join('\n')}\n`), []);
    assert.deepEqual(problemsOf(`${chain(250, 'reverse').join('\n')}\n`), []);
  });
});

describe('limits: long text', () => {
  it('lexes a 10 MB string literal (the regular expression exhausted the stack)', () => {
    // A spec that long is refused before lexing (below); the lexer itself must still hold.
    const doc = 'a'.repeat(10_000_000);
    const { tokens, errors } = rewardLexer.tokenize(`signal s "${doc}" = 1`);
    assert.deepEqual(errors, []);
    assert.deepEqual(tokens.map((t) => [t.tokenType.name, t.image.length]), [['Signal', 6], ['Identifier', 1], ['StringLiteral', doc.length + 2], ['Equals', 1], ['NumberLiteral', 1]]);
    const { problems } = parse(`signal s "${doc}" = 1\nreward R { a 1 * s }\n`);
    assert.deepEqual(problems.map((p) => p.code), [issueCodes.specTooLarge]);
  });

  it('lexes strings exactly as the regular expressions it replaces', () => {
    const closed = /"(?:[^"\\\r\n]|\\.)*"/y;
    const open = /"(?:[^"\\\r\n]|\\.)*/y;
    const alphabet = ['"', '\\', 'a', '\n', '\r', '\u2028', ' '];
    // Every string of up to five characters over the alphabet, after an opening quote.
    let texts = [''];
    for (let length = 0; length < 5; length++) texts = [...texts, ...texts.filter((t) => t.length === length).flatMap((t) => alphabet.map((c) => t + c))];
    for (const rest of texts) {
      const text = `"${rest}`;
      closed.lastIndex = 0;
      open.lastIndex = 0;
      const match = closed.exec(text);
      const expected = match === null ? ['UnterminatedString', open.exec(text)![0]] : ['StringLiteral', match[0]];
      const first = rewardLexer.tokenize(text).tokens[0];
      assert.deepEqual([first?.tokenType.name, first?.image], expected, JSON.stringify(text));
    }
  });

  it('quotes at most the start of a long token in a parse error', () => {
    const { problems } = parse(`signal s = 1 "${'x'.repeat(100_000)}"`);
    assert.equal(problems.length, 1);
    assert.ok(problems[0]!.message.length < 200, problems[0]!.message.slice(0, 300));
  });

  it('refuses a spec past the size limit with one problem at its start', () => {
    const text = `signal s = 1\n${'#'.repeat(limits.maxSpecLength)}\n`;
    const { problems, model, parsed } = analyze(text);
    assert.deepEqual(problems.map((p) => [p.code, p.span]), [[issueCodes.specTooLarge, { start: 0, end: 0 }]]);
    assert.deepEqual([parsed.tokens.length, model.spec.decls.length], [0, 0]);
    assert.equal(formatSpec(text), text);
    const justUnder = `signal s = 1\nreward R { a 1 * s }\n${'#'.repeat(limits.maxSpecLength - 40)}`;
    assert.deepEqual(problemsOf(justUnder), []);
  });

  it('builds a block of 240,000 items within the size limit (spreading them into a call overflowed)', () => {
    const text = `audit A { lattice ${'a=1,'.repeat(239_999)}a=1 }`;
    assert.ok(text.length <= limits.maxSpecLength);
    const { spec } = parse(text);
    const item = spec.decls[0]?.kind === 'audit' ? spec.decls[0].items[0] : undefined;
    assert.equal(item?.kind === 'lattice' ? item.entries.length : undefined, 240_000);
  });
});

describe('limits: the table in docs/language.md', () => {
  const doc = readFileSync(path.join(__dirname, '../../../docs/language.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Limits'), doc.indexOf('\n## ', doc.indexOf('## Limits') + 1));
  const rows = section.split('\n').filter((line) => line.startsWith('| '));
  const expected: [string, number, string][] = [
    ['maxSpecLength', limits.maxSpecLength, issueCodes.specTooLarge],
    ['maxExpressionNesting', limits.maxExpressionNesting, issueCodes.nestingTooDeep],
    ['maxDependencyNesting', limits.maxDependencyNesting, issueCodes.nestingTooDeep],
    ['maxLatticeDetectors', limits.maxLatticeDetectors, issueCodes.latticeTooLarge],
    ['maxBootstrapResamples', limits.maxBootstrapResamples, issueCodes.settingTooLarge],
    ['maxSweepPoints', limits.maxSweepPoints, issueCodes.settingTooLarge],
    ['maxCitationsPerRow', limits.maxCitationsPerRow, 'bad-rows'],
    ['maxPatternInstructions', limits.maxPatternInstructions, issueCodes.badPattern],
    ['maxPatternWork', limits.maxPatternWork, 'audit-failed'],
    ['maxEditOperations', limits.maxEditOperations, issueCodes.badEdit],
    ['maxEditAddedElements', limits.maxEditAddedElements, 'audit-failed'],
    ['maxEditAddedCharacters', limits.maxEditAddedCharacters, 'audit-failed'],
    ['maxListedRows', limits.maxListedRows, 'bad-rows'],
    ['maxRowDiagnostics', limits.maxRowDiagnostics, 'bad-rows'],
    ['maxGlobAlternatives', limits.maxGlobAlternatives, issueCodes.unreadableFile],
    ['maxGlobWork', limits.maxGlobWork, issueCodes.unreadableFile],
    ['maxImportNesting', limits.maxImportNesting, 'bad-rows'],
    ['maxImportedSteps', limits.maxImportedSteps, 'bad-rows'],
    ['maxImportedResults', limits.maxImportedResults, 'bad-rows'],
    ['maxImportedToolCalls', limits.maxImportedToolCalls, 'bad-rows'],
    ['maxTranscriptTags', limits.maxTranscriptTags, 'bad-rows'],
    ['maxParquetRows', limits.maxParquetRows, 'bad-rows'],
    ['maxParquetValues', limits.maxParquetValues, 'bad-rows'],
    ['maxParquetDecodedBytes', limits.maxParquetDecodedBytes, 'bad-rows'],
    ['maxParquetExpansion', limits.maxParquetExpansion, 'bad-rows'],
  ];

  it('lists every limit with its value and code', () => {
    assert.deepEqual(Object.keys(limits).sort(), expected.map(([name]) => name).sort());
    for (const [name, value, code] of expected) {
      const shown = value.toLocaleString('en-US');
      assert.ok(rows.some((row) => row.includes(`| ${shown} `) && row.includes(`\`${code}\``)), `${name}: no row with ${shown} and ${code}`);
    }
  });
});
