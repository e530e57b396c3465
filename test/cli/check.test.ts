import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';

// The CLI is tested as users run it: the bundled dist/herald.js in a child process.
const herald = path.resolve('dist/herald.js');

function runHerald(args: string[], cwd: string): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [herald, ...args], { cwd, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'herald-cli-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

const cleanSpec = `corpus wiki = "corpus.jsonl"
pool p = "pool.jsonl"
detector L "cites unretrieved" = any c in citations: c in corpus and c not in retrieved
reward R0 { answer 1 * exact_match(answer, gold.answers) }
audit a {
  reward R0
  corpus wiki
  pools p
  attack launder targets L using lexical(8)
  lattice L = 1.2
}
`;

describe('herald check', () => {
  it('exits 0 and prints nothing on stdout for a clean spec', () => {
    const dir = workspace({ 'ok.reward': cleanSpec, 'corpus.jsonl': '', 'pool.jsonl': '' });
    const result = runHerald(['check', 'ok.reward'], dir);
    assert.equal(result.stdout, '');
    assert.equal(result.code, 0);
    assert.match(result.stderr, /checked 1 spec: 0 errors, 0 warnings/);
  });

  it('prints file:line:col: severity code message and exits 1 on errors', () => {
    const broken = cleanSpec.replace('exact_match(answer, gold.answers)', 'exact_match(answr, gold.answers)');
    const dir = workspace({ 'bad.reward': broken, 'corpus.jsonl': '', 'pool.jsonl': '' });
    const result = runHerald(['check', 'bad.reward'], dir);
    assert.equal(result.code, 1);
    assert.equal(result.stdout, "bad.reward:4:36: error unknown-name unknown name 'answr'; did you mean 'answer'?\n");
  });

  it('reports missing linked files at the path string, relative to the spec', () => {
    const dir = workspace({ 'spec.reward': cleanSpec, 'corpus.jsonl': '' });
    const result = runHerald(['check', 'spec.reward'], dir);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /^spec\.reward:2:10: error missing-file cannot find 'pool\.jsonl'/);
  });

  it('exits 0 on warnings only', () => {
    const dir = workspace({ 'w.reward': `${cleanSpec}signal spare = 1\n`, 'corpus.jsonl': '', 'pool.jsonl': '' });
    const result = runHerald(['check', 'w.reward'], dir);
    assert.equal(result.code, 0);
    assert.equal(result.stdout, "w.reward:12:8: warning unused-declaration signal 'spare' is never used\n");
  });

  it('reports a UTF-16 spec, with or without a byte order mark, as one error at 1:1', () => {
    const dir = workspace({ 'corpus.jsonl': '', 'pool.jsonl': '' });
    writeFileSync(path.join(dir, 'marked.reward'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(cleanSpec, 'utf16le')]));
    writeFileSync(path.join(dir, 'bare.reward'), Buffer.from(cleanSpec, 'utf16le').swap16());
    for (const file of ['marked.reward', 'bare.reward']) {
      const result = runHerald(['check', file], dir);
      assert.equal(result.stdout, `${file}:1:1: error lex-error the spec is UTF-16 text; save it as UTF-8\n`);
      assert.equal(result.code, 1);
    }
  });

  it('exits 2 when a spec cannot be read or none is named', () => {
    const dir = workspace({});
    const missing = runHerald(['check', 'nope.reward'], dir);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^nope\.reward: error: cannot read: file not found$/m);
    // An unreadable spec is an error of the run: the count never says "0 errors" for it.
    assert.match(missing.stderr, /^checked 1 spec: 1 error \(1 spec could not be read\), 0 warnings$/m);
    assert.equal(runHerald(['check'], dir).code, 2);
    assert.equal(runHerald(['frobnicate'], dir).code, 2);
  });

  it('checks several specs and counts across them', () => {
    const dir = workspace({ 'a.reward': cleanSpec, 'b.reward': 'signal = 1', 'corpus.jsonl': '', 'pool.jsonl': '' });
    const result = runHerald(['check', 'a.reward', 'b.reward'], dir);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /^b\.reward:1:8: error parse-error expected a name but found '='$/m);
    assert.match(result.stderr, /checked 2 specs: \d+ errors?/);
  });
});
