import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';

// Text from the data reaches every output escaped (issue 13, item 15): a trajectory id with a line
// break cannot forge a `skipped row` line, and ANSI escapes and bidi overrides are shown, not obeyed.
const herald = path.resolve('dist/herald.js');
const pools = path.resolve('samples/pools');

function runHerald(args: string[], cwd: string): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [herald, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Control characters other than the line break, and the bidi controls: none may reach an output. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const invisible = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/u;

/** Fails with the offending character and what surrounds it. */
function assertVisible(output: string, what: string): void {
  const at = output.search(invisible);
  if (at >= 0) assert.fail(`${what}: U+${output.codePointAt(at)!.toString(16).padStart(4, '0')} in ${JSON.stringify(output.slice(Math.max(0, at - 80), at + 40))}`);
}

/** A trajectory id that, printed raw, ends the line and forges a skipped row of its own, coloured, with its end reversed. */
const forgedId = 'forged\nevil.jsonl:9: skipped row: FORGED \u001b[31mred\u001b[0m \u202eabc';
/** The same as every output writes it. */
const shownId = 'forged\\nevil.jsonl:9: skipped row: FORGED \\u001b[31mred\\u001b[0m \\u202eabc';

/** Rows of a sample pool: the first two share the forged id (the second is skipped as a duplicate), the third has a step type with a bidi override. */
function evilPool(source: string, rows: number): string {
  const lines = readFileSync(path.join(pools, source), 'utf8').split('\n').filter((l) => l !== '').slice(0, rows);
  const first = JSON.parse(lines[0]!) as Record<string, unknown>;
  const third = JSON.parse(lines[2]!) as { steps: { type: string }[] };
  third.steps[0]!.type = 'search\u202e\u2066';
  return `${[JSON.stringify({ ...first, id: forgedId }), JSON.stringify({ ...first, id: forgedId }), JSON.stringify(third), ...lines.slice(3)].join('\n')}\n`;
}

const spec = `corpus wiki = "${pools}/corpus.jsonl"
pool hotpot = "evil.jsonl"
detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved
reward R0 {
  answer 1.0 * token_f1(answer, gold.answers)
}
reward R_L = R0 - 1.2 * L
audit quick {
  reward R0
  compare R_L
  corpus wiki
  pools hotpot
  attack launder targets L using lexical(2)
  lattice L = 1.2
}
`;

function workspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'herald-escape-'));
  writeFileSync(path.join(dir, 'spec.reward'), spec);
  writeFileSync(path.join(dir, 'evil.jsonl'), evilPool('hotpot.jsonl', 40));
  return dir;
}

interface Sarif {
  runs: { results: { ruleId: string; message: { text: string }; relatedLocations?: { message: { text: string } }[] }[] }[];
}

describe('data text in every output of herald audit is escaped', () => {
  const dir = workspace();
  const table = runHerald(['audit', 'spec.reward', '--no-cache'], dir);
  const sarif = runHerald(['audit', 'spec.reward', '--no-cache', '--quiet', '--format', 'sarif'], dir);

  it('stderr: one line per row issue and finding, the id shown escaped, no control or bidi character', () => {
    assert.ok(table.code === 0 || table.code === 1, table.stderr);
    assertVisible(table.stderr, 'stderr');
    assert.doesNotMatch(table.stderr, /^evil\.jsonl:9: skipped row: FORGED/m, 'the forged line is not a line');
    const rows = table.stderr.split('\n').filter((l) => l.includes('skipped row:'));
    // Reasons name what was expected, never the file's text (issue 13, item 4): the bidi type is not quoted.
    assert.deepEqual(rows, [
      `spec.reward:2:1: error bad-rows 2 rows skipped: evil.jsonl:2: duplicate id '${shownId}' (first on line 1); evil.jsonl:3: steps[0].type: expected "search" or "tool" or "reasoning" or "invalid", got another string`,
      `  evil.jsonl:2: skipped row: duplicate id '${shownId}' (first on line 1)`,
      '  evil.jsonl:3: skipped row: steps[0].type: expected "search" or "tool" or "reasoning" or "invalid", got another string',
    ]);
  });

  it('the table: the skipped rows under the pool, escaped, and no escape sequence of the data', () => {
    assertVisible(table.stdout, 'the table');
    assert.doesNotMatch(table.stdout, /^\s*evil\.jsonl:9: skipped row: FORGED/m);
    assert.ok(table.stdout.split('\n').some((line) => line.startsWith(`    evil.jsonl:2: duplicate id '${shownId}'`)), table.stdout);
  });

  it('SARIF: messages and related-location messages show the escapes as text', () => {
    assert.ok(sarif.code === 0 || sarif.code === 1, sarif.stderr);
    assertVisible(sarif.stdout, 'the SARIF file');
    const log = JSON.parse(sarif.stdout) as Sarif;
    const badRows = log.runs[0]!.results.find((r) => r.ruleId === 'bad-rows')!;
    const texts = log.runs[0]!.results.flatMap((r) => [r.message.text, ...(r.relatedLocations ?? []).map((l) => l.message.text)]);
    for (const text of texts) assertVisible(text, 'a SARIF message');
    // The message escapes `\` and brackets once more for SARIF's embedded links; a viewer shows shownId.
    assert.ok(badRows.message.text.includes(shownId.replace(/[\\[\]]/g, '\\$&')), badRows.message.text);
    assert.equal(badRows.relatedLocations?.[0]?.message.text, `skipped row: duplicate id '${shownId}' (first on line 1)`);
  });

  it('HTML: the page shows the escapes, and the embedded report JSON holds no bidi character', () => {
    const html = runHerald(['audit', 'spec.reward', '--no-cache', '--quiet', '--format', 'html'], dir);
    assert.ok(html.code === 0 || html.code === 1, html.stderr);
    assertVisible(html.stdout, 'the page');
    assert.ok(html.stdout.includes(`duplicate id &#39;${shownId}&#39;`));
  });

  it('the JSON report keeps the data as it is', () => {
    const json = runHerald(['audit', 'spec.reward', '--no-cache', '--quiet', '--format', 'json'], dir);
    const report = JSON.parse(json.stdout) as { audits: { pools: { issues: { reason: string }[] }[] }[] };
    assert.equal(report.audits[0]!.pools[0]!.issues[0]!.reason, `duplicate id '${forgedId}' (first on line 1)`);
  });
});

describe('data text in the other commands', () => {
  it('herald check: a linked file name with an ANSI escape and a bidi override', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'herald-escape-'));
    writeFileSync(path.join(dir, 'spec.reward'), 'pool p = "a\u001b[2J\u202eb.jsonl"\n');
    const result = runHerald(['check', 'spec.reward'], dir);
    assert.equal(result.code, 1);
    assertVisible(result.stdout, 'stdout');
    assert.match(result.stdout, /^spec\.reward:1:10: error missing-file cannot find 'a\\u001b\[2J\\u202eb\.jsonl'/m);
  });

  it('herald signal: skipped rows of a training log named with --log', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'herald-escape-'));
    writeFileSync(path.join(dir, 'log.jsonl'), evilPool('train-R_L.jsonl', 200));
    const result = runHerald(['signal', path.resolve('samples/training.reward'), '--log', 'log.jsonl', '--format', 'json'], dir);
    assertVisible(result.stderr, 'stderr');
    assert.doesNotMatch(result.stderr, /^evil\.jsonl:9: skipped row: FORGED/m);
    assert.match(result.stderr, new RegExp(`^\\S*log\\.jsonl:2: skipped row: duplicate id '${shownId.replace(/[\\[\]]/g, '\\$&')}' \\(first on line 1\\)$`, 'm'));
  });
});
