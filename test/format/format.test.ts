import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { formatSpec } from '../../server/src/format/format.js';

const samplePath = path.join(__dirname, '..', '..', '..', 'samples', 'paper.reward');

/** The expected text, one argument per line, each ended by a newline. */
const lines = (...ls: string[]): string => ls.map((l) => `${l}\n`).join('');

function assertFormats(input: string, expected: string, options?: { indent?: number }): void {
  const formatted = formatSpec(input, options);
  assert.equal(formatted, expected);
  assert.equal(formatSpec(formatted, options), formatted, 'formatting the output again changes it');
}

describe('formatSpec: the sample', () => {
  it('leaves the sample spec as it is: it is written in the canonical layout', () => {
    const sample = readFileSync(samplePath, 'utf8');
    assert.equal(formatSpec(sample), sample);
  });

  it('joins a declaration that fits on one line', () => {
    assertFormats(
      'detector F "cites an id that is not in the corpus" =\n  any c in citations: c not in corpus\n',
      'detector F "cites an id that is not in the corpus" = any c in citations: c not in corpus\n',
    );
  });
});

describe('formatSpec: layout', () => {
  it('spaces tokens canonically and lines up the = of consecutive corpus and pool lines', () => {
    assertFormats(
      'corpus   wiki="c.jsonl"\npool hotpot="h.jsonl"\npool   musique_k5  =  "m.jsonl"\n\npool other = "o.jsonl"\n',
      lines(
        'corpus wiki     = "c.jsonl"',
        'pool hotpot     = "h.jsonl"',
        'pool musique_k5 = "m.jsonl"',
        '',
        'pool other = "o.jsonl"',
      ),
    );
  });

  it('writes a pool\'s from clause: one space around from, none inside the parentheses, one after : and ,', () => {
    assertFormats(
      'pool runs="dumps/*.jsonl"   from   verl ( dialect :search_r1,n:8 , tag: "x" )\npool b = "b.jsonl" from verl( )\npool c = "c.jsonl"   from verl\n',
      lines(
        'pool runs = "dumps/*.jsonl" from verl(dialect: search_r1, n: 8, tag: "x")',
        'pool b    = "b.jsonl" from verl()',
        'pool c    = "c.jsonl" from verl',
      ),
    );
  });

  it('formats logged fields and edits like any declaration (a spec with one is no longer left as it was)', () => {
    assertFormats(
      'field  judge "j" :number= meta.judge.score\nedit   pad "p"   when has_final=  set answer=concat(answer," ",question),set final_text = final_text\n',
      lines(
        'field judge "j": number = meta.judge.score',
        // 101 columns on one line: the body goes on the next.
        'edit pad "p" when has_final =',
        '  set answer = concat(answer, " ", question), set final_text = final_text',
      ),
    );
  });

  it('writes expressions with single spaces around operators and none inside parentheses', () => {
    assertFormats(
      'signal s = mean( a ,b,  - c )+gold . answers*-2\nsignal t=not(x<=1)or any c in citations : c not in corpus\nsignal u = count ( citations ) + count q in searches:true\n',
      lines(
        'signal s = mean(a, b, -c) + gold.answers * -2',
        'signal t = not (x <= 1) or any c in citations: c not in corpus',
        'signal u = count(citations) + count q in searches: true',
      ),
    );
  });

  it('writes a conditional with single spaces, its unary minus attached', () => {
    assertFormats(
      'signal   s=if has_final then(1+2)else   -3\nsignal t = 2*if a then b else c\n',
      lines('signal s = if has_final then (1 + 2) else -3', 'signal t = 2 * if a then b else c'),
    );
  });

  it('puts a body on the header line when the declaration fits in 100 columns, else indents it on the next', () => {
    const longDoc = 'a description long enough that the body no longer fits on the header line';
    assertFormats(
      `detector L "cites unretrieved" =\n    any c in citations: c not in retrieved\nsignal s "${longDoc}" = has_final and search_calls == 0\n`,
      lines(
        'detector L "cites unretrieved" = any c in citations: c not in retrieved',
        `signal s "${longDoc}" =`,
        '  has_final and search_calls == 0',
      ),
    );
  });

  it('keeps the author\'s line breaks in a body too long for one line, lining continuations up inside parentheses', () => {
    assertFormats(
      lines(
        'signal violation_rate "the generic violation rate" = mean(no_retrieval, fake_citation, cited_not_retrieved,',
        '  repeated_query, no_citation, invalid_action, no_final)',
      ),
      lines(
        'signal violation_rate "the generic violation rate" =',
        '  mean(no_retrieval, fake_citation, cited_not_retrieved,',
        '       repeated_query, no_citation, invalid_action, no_final)',
      ),
    );
  });

  it('hangs the lines of a parenthesis that ends its line one level deeper and continues other lines one level deeper', () => {
    const long = 'cited_not_retrieved_because_this_name_is_deliberately_long';
    assertFormats(
      lines(`signal s = max(`, `no_retrieval, ${long}, fake_citation_with_a_long_name_too`, `) and`, `has_final`),
      lines(
        'signal s =',
        '  max(',
        `    no_retrieval, ${long}, fake_citation_with_a_long_name_too`,
        '  ) and',
        '    has_final',
      ),
    );
  });

  it('joins a body the author broke when it fits', () => {
    assertFormats('signal s = has_final\n  and\n  search_calls == 0\n', lines('signal s = has_final and search_calls == 0'));
  });

  it('aligns reward terms: padded names, a sign column and aligned weights', () => {
    assertFormats(
      'reward R0 "base" { answer 1.0*token_f1(answer,gold.answers)\n tool_cost -0.05 * search_calls\nlength - 0.001 * tokens ( final_text ) }\n',
      lines(
        'reward R0 "base" {',
        '  answer     1.0   * token_f1(answer, gold.answers)',
        '  tool_cost -0.05  * search_calls',
        '  length    -0.001 * tokens(final_text)',
        '}',
      ),
    );
  });

  it('leaves out the sign column when no weight is signed', () => {
    assertFormats('reward R {a 1 * x\nlonger 0.25 * y}\n', lines('reward R {', '  a      1    * x', '  longer 0.25 * y', '}'));
  });

  it('writes derived rewards as subtractions and empty blocks as {}', () => {
    assertFormats('reward R_L = R0-1.2*L+ 0.5 * (x)\nreward E {   }\n', lines('reward R_L = R0 - 1.2 * L + 0.5 * (x)', '', 'reward E {}'));
  });

  it('puts one audit item per line', () => {
    assertFormats(
      'audit paper "doc" { reward R0 compare R_L , R_full corpus wiki pools hotpot,wiki2\n' +
        'attack same_final targets U,L attack fake = fake_id targets F\n' +
        'attack launder targets L using lexical ( 8 ) , candidates "x.jsonl"\n' +
        'lattice U=0.5,L = +1.2\n' +
        'expect asr(R_L,launder,oracle_worst)== -0 expect upper( R0 , fake , first_visible ) <= 1 %\n' +
        'expect minimal_repair == { L , U } expect minimal_repair == { }\n' +
        'seed 7 bootstrap 10 sweep 0,0.25 }\n',
      lines(
        'audit paper "doc" {',
        '  reward R0',
        '  compare R_L, R_full',
        '  corpus wiki',
        '  pools hotpot, wiki2',
        '  attack same_final targets U, L',
        '  attack fake = fake_id targets F',
        '  attack launder targets L using lexical(8), candidates "x.jsonl"',
        '  lattice U = 0.5, L = +1.2',
        '  expect asr(R_L, launder, oracle_worst) == -0',
        '  expect upper(R0, fake, first_visible) <= 1%',
        '  expect minimal_repair == {L, U}',
        '  expect minimal_repair == {}',
        '  seed 7',
        '  bootstrap 10',
        '  sweep 0, 0.25',
        '}',
      ),
    );
  });

  it('collapses runs of blank lines to one, keeps single-line groups and separates blocks by a blank line', () => {
    assertFormats(
      '\n\npool a = "a"\n\n\n\npool b = "b"\nsignal s = 1\nsignal t = 2\nreward R { x 1 * s }\nreward R2 = R - 1 * t\n\n\n',
      lines('pool a = "a"', '', 'pool b = "b"', 'signal s = 1', 'signal t = 2', '', 'reward R {', '  x 1 * s', '}', '', 'reward R2 = R - 1 * t'),
    );
  });

  it('keeps blank lines between block items but not just inside the braces', () => {
    assertFormats(
      'audit a {\n\n  reward R0\n\n\n  corpus wiki\n\n}\n',
      lines('audit a {', '  reward R0', '', '  corpus wiki', '}'),
    );
  });

  it('indents by the given width', () => {
    assertFormats(
      'reward R { x 1 * s }\nsignal s "a description long enough to push the body of this signal off the header line, surely" = has_final\n',
      lines('reward R {', '    x 1 * s', '}', '', 'signal s "a description long enough to push the body of this signal off the header line, surely" =', '    has_final'),
      { indent: 4 },
    );
  });

  it('keeps the file\'s line endings', () => {
    assert.equal(formatSpec('pool a="a"\r\n\r\n\r\npool b="b"   # c  \r\n'), 'pool a = "a"\r\n\r\npool b = "b"  # c\r\n');
  });

  it('formats a file without declarations', () => {
    assert.equal(formatSpec(''), '');
    assert.equal(formatSpec('  \n\n \t\n'), '');
    assert.equal(formatSpec('\n# only\n\n\n# comments   \n\n'), '# only\n\n# comments\n');
  });
});

describe('formatSpec: comments', () => {
  it('keeps comments at the top, between and after declarations, trimming their trailing blanks', () => {
    assertFormats(
      lines('# header   ', '#', '', '', '# more', 'pool a = "a" # trailing', '# own line', 'pool b = "b"', '# after', '', '', '# end'),
      lines('# header', '#', '', '# more', 'pool a = "a"  # trailing', '# own line', 'pool b = "b"', '# after', '', '# end'),
    );
  });

  it('keeps comments inside a declaration, breaking the line after each', () => {
    assertFormats(
      lines(
        'signal # after the keyword',
        '  s "doc" = # after =',
        '  # before the body',
        '  mean(a, # after a',
        '  # inside the parentheses',
        '  b',
        '  ) # after the body',
      ),
      lines(
        'signal       # after the keyword',
        '  s "doc" =  # after =',
        '  # before the body',
        '  mean(a,  # after a',
        '       # inside the parentheses',
        '       b',
        '  )  # after the body',
      ),
    );
  });

  it('keeps comments after {, between items, before } and in an empty block', () => {
    assertFormats(
      lines(
        'reward R { # open',
        '',
        '  # first',
        '',
        '  a 1 * x # t1',
        '  b -2 * y',
        '',
        '',
        '  # last',
        '',
        '}',
        'audit E { # nothing yet',
        '  # still nothing',
        '}',
      ),
      lines(
        'reward R {  # open',
        '  # first',
        '',
        '  a  1 * x  # t1',
        '  b -2 * y',
        '',
        '  # last',
        '}',
        '',
        'audit E {  # nothing yet',
        '  # still nothing',
        '}',
      ),
    );
  });

  it('lines up trailing comments of consecutive lines', () => {
    assertFormats(
      lines('audit a {', 'reward R0 # the audited reward', 'corpus wiki # the corpus', '', 'seed 7 # alone', '}'),
      lines('audit a {', '  reward R0    # the audited reward', '  corpus wiki  # the corpus', '', '  seed 7  # alone', '}'),
    );
  });

  it('never treats # inside a string as a comment', () => {
    assertFormats('pool a="x#y.jsonl"#real\n', lines('pool a = "x#y.jsonl"  #real'));
  });
});

describe('formatSpec: broken input', () => {
  const broken: Record<string, string> = {
    'a lex error': 'signal s = a ! b\n  pool   x="y"',
    'an unterminated string': 'pool   a = "no end\nsignal s=1',
    'a parse error': 'signal s =\nreward   R { a 1 * }',
    'a missing closing brace': 'audit a {\n  reward R0\n',
  };
  for (const [what, text] of Object.entries(broken)) {
    it(`returns a spec with ${what} unchanged`, () => {
      assert.equal(formatSpec(text), text);
    });
  }
});
