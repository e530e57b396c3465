// Issue 33, item 5: a glob link is matched in linear time. picomatch compiled `*a*a*a*a*b.jsonl`
// to a regular expression that backtracked exponentially on a long name (24.8 s per name with four
// stars), freezing `check` and the language server; `globPattern` matches the same four forms with
// the same results, and the property test holds it to picomatch where picomatch is quick.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import picomatch from 'picomatch';
import { globFiles } from '../../server/src/inputs/glob-files.js';
import { globPattern } from '../../server/src/inputs/glob-pattern.js';
import { WorkspaceTrust } from '../../server/src/inputs/trust.js';
import { maxGlobAlternatives, maxGlobWork } from '../../server/src/problems/limits.js';
import { workspace } from './workspace.js';

const herald = path.resolve('dist/herald.js');

/** picomatch as glob-files.ts used it: the four forms the docs name, hidden names only when written. */
const picomatchOptions = { nobracket: true, noextglob: true, nonegate: true, dot: false } as const;

function matcher(glob: string): (relative: string) => boolean {
  const compiled = globPattern(glob);
  assert.ok(compiled.ok, glob);
  return compiled.matches;
}

/** Long names that a backtracking matcher of `*a*a…*b` tries every split of, and one that matches. */
function longNames(ws: ReturnType<typeof workspace>): void {
  for (let i = 0; i < 4; i++) ws.write(`runs/${'a'.repeat(220 + i)}.jsonl`, '{}\n');
  ws.write(`runs/${'a'.repeat(200)}b.jsonl`, '{}\n');
}

describe('glob patterns match in linear time', () => {
  const ws = workspace();
  longNames(ws);
  const stars = (n: number): string => `runs/${'*a'.repeat(n)}*b.jsonl`;

  it('`runs/*a*a*a*a*…*b.jsonl` over long names finishes at once, with the right files', () => {
    for (const n of [4, 8, 32]) {
      const started = performance.now();
      const listed = globFiles(path.join(ws.dir, stars(n)), WorkspaceTrust.everything);
      const took = performance.now() - started;
      assert.ok(listed.ok);
      assert.deepEqual(listed.files, [path.join(ws.dir, `runs/${'a'.repeat(200)}b.jsonl`)], `${n} stars`);
      // The regular expression took 24.8 s per name at four stars; a generous bound for a loaded machine.
      assert.ok(took < 2000, `${n} stars: ${took.toFixed(0)} ms`);
    }
  });

  it('`herald check` on a spec with such a glob returns promptly', () => {
    ws.write('glob.reward', `pool p = "${stars(6)}"\nreward R { a 1 * has_final }\n`);
    const started = performance.now();
    const result = spawnSync(process.execPath, [herald, 'check', 'glob.reward'], { cwd: ws.dir, encoding: 'utf8', timeout: 30_000 });
    const took = performance.now() - started;
    assert.equal(result.signal, null, `killed after ${took.toFixed(0)} ms: the check hung`);
    assert.equal(result.stdout, "glob.reward:1:6: warning unused-declaration pool 'p' is never used\n");
    assert.equal(result.status, 0, result.stderr);
    assert.ok(took < 15_000, `${took.toFixed(0)} ms`);
  });

  it(`a walk whose matching passes ${maxGlobWork.toLocaleString('en-US')} comparisons stops with the reason, within seconds`, () => {
    // Each of 256 patterns tries its 128-character block at every place in each 250-character name.
    const costly = workspace();
    for (let i = 0; i < 100; i++) costly.write(`w/${'a'.repeat(240)}${String(i).padStart(10, 'a')}`, '');
    const started = performance.now();
    const listed = globFiles(path.join(costly.dir, `w/*${'a'.repeat(120)}${'{a,c}'.repeat(8)}`), WorkspaceTrust.everything);
    assert.deepEqual(listed, { ok: false, reason: `matching the glob against the names it passes takes more than ${maxGlobWork.toLocaleString('en-US')} comparisons (see Limits in docs/language.md): narrow it` });
    assert.ok(performance.now() - started < 20_000);
  });

  it('a pattern of a hundred thousand characters against a long name costs nothing', () => {
    const name = 'a'.repeat(255);
    for (const glob of [`${'*a'.repeat(50_000)}*b`, `*${'a'.repeat(100_000)}`, `${'?'.repeat(100_000)}`, `${'*'.repeat(100_000)}b`]) {
      const started = performance.now();
      assert.equal(matcher(glob)(name), false);
      assert.ok(performance.now() - started < 1000, glob.slice(0, 20));
    }
  });
});

describe('glob patterns: the four forms', () => {
  const cases: [glob: string, name: string, matches: boolean][] = [
    ['*.jsonl', 'a.jsonl', true],
    ['*.jsonl', 'sub/a.jsonl', false],
    ['*.jsonl', '.hidden.jsonl', false],
    ['.*.jsonl', '.hidden.jsonl', true],
    ['?.jsonl', 'a.jsonl', true],
    ['?.jsonl', 'ab.jsonl', false],
    ['?jsonl', '.jsonl', false],
    ['**/*.jsonl', 'a.jsonl', true],
    ['**/*.jsonl', 'x/y/a.jsonl', true],
    ['**/*.jsonl', 'x/.git/a.jsonl', false],
    ['.git/**/*.jsonl', '.git/x/a.jsonl', true],
    ['a**b', 'axyb', true],
    ['a**b', 'ax/yb', false],
    ['{a,b}.jsonl', 'b.jsonl', true],
    ['{a,b}.jsonl', 'c.jsonl', false],
    ['{a,{b,c}}/x', 'c/x', true],
    ['d/{a,e/f}.jsonl', 'd/e/f.jsonl', true],
    ['{,x}a', 'a', true],
    ['{.a,b}', '.a', true],
    ['a{b}', 'a{b}', true],
    ['{a,b', '{a,b', true],
    ['{1..3}', '2', false],
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'axb', false],
    ['run[1].jsonl', 'run[1].jsonl', true],
    ['x/**', 'x/a/b', true],
    ['x/**', 'x', false],
    ['*/**', 'a', false],
    ['*.*', 'a.', true],
  ];
  for (const [glob, name, matches] of cases) {
    it(`${glob} ${matches ? 'matches' : 'does not match'} ${name}`, () => assert.equal(matcher(glob)(name), matches));
  }

  it(`{a,b} lists multiplied out past ${maxGlobAlternatives} patterns are refused with the reason, before any is made`, () => {
    const within = '{a,b}'.repeat(Math.log2(maxGlobAlternatives));
    assert.ok(globPattern(within).ok);
    for (const glob of [`${within}{a,b}`, '{a,b}'.repeat(100_000), `${'{a,'.repeat(100_000)}b${'}'.repeat(100_000)}`]) {
      const compiled = globPattern(glob);
      assert.deepEqual(compiled, { ok: false, reason: `the glob's {a,b} lists make more than ${maxGlobAlternatives} patterns (see Limits in docs/language.md): narrow it` });
    }
  });

  it('a glob past the limit is unreadable, naming the limit, and lists nothing', () => {
    const ws = workspace();
    ws.write('x/a.jsonl', '{}\n');
    assert.deepEqual(globFiles(path.join(ws.dir, `x/${'{a,b}'.repeat(9)}.jsonl`), WorkspaceTrust.everything).ok, false);
    assert.ok(fs.existsSync(path.join(ws.dir, 'x/a.jsonl')));
  });
});

describe('glob patterns agree with picomatch', () => {
  // Small patterns over a few characters, the shapes picomatch reads the same way: `**` only as a
  // whole name (picomatch reads a leading `**.x` across folders), no star beside a list (after
  // expansion `{*,b}*` would be a whole-name `**`), no `.` or `..` folders (a glob is a resolved
  // path: it has none), no `**` at the end (picomatch matches the file `a` with `a/**` and `?/**`
  // but not with `*/**`; here a trailing `**` takes at least one name, as its `/` asks for a folder),
  // no name `*.*` (picomatch's shortcut for it refuses `a.`, which `?.*` and `x*.*` take).
  const atom = fc.constantFrom('a', 'b', '.', '*', '?', '{a,b}', '{a,.b}', '{,a}b', '{a/b,b}', '{b,{a,.a}}');
  const segment = fc.oneof(
    { weight: 1, arbitrary: fc.constant('**') },
    { weight: 5, arbitrary: fc.array(atom, { minLength: 1, maxLength: 3 }).map((atoms) => atoms.join('')) },
  );
  const glob = fc.array(segment, { minLength: 1, maxLength: 3 }).map((segments) => segments.join('/'))
    .filter((g) => !/[^/]\*\*|\*\*[^/]|\*\{|\}\*/.test(g) && !g.split('/').some((s) => s === '.' || s === '..' || s === '*.*') && !g.endsWith('**'));
  const nameSegment = fc.array(fc.constantFrom('a', 'b', '.'), { minLength: 1, maxLength: 4 }).map((c) => c.join('')).filter((n) => n !== '.' && n !== '..');
  const name = fc.array(nameSegment, { minLength: 1, maxLength: 4 }).map((names) => names.join('/'));

  it('on random small patterns and names', () => {
    fc.assert(fc.property(glob, fc.array(name, { minLength: 1, maxLength: 8 }), (g, names) => {
      const compiled = globPattern(g);
      fc.pre(compiled.ok);
      const ours = compiled.ok ? compiled.matches : () => false;
      const theirs = picomatch(g, picomatchOptions);
      for (const n of names) assert.equal(ours(n), theirs(n), `${g} against ${n}`);
    }), { numRuns: 3000, seed: 33 });
  });
});
