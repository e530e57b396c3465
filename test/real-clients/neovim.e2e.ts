// End-to-end proof in a real editor: headless Neovim's own LSP client drives the bundled server
// over stdio. Neovim 0.7 (Debian 12) declares no pull diagnostics, so this exercises the push path.
// test/real-clients/neovim/probe.lua does the editor side and writes what it saw to
// test-output/neovim/ (result.json, probe.log, and Neovim's own lsp.log under xdg/).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { positionIn, repoRoot, serverPath, tempFolder } from '../lsp/lsp-test-client.js';
import { misspelt, runProbe, waitMs, type ProbeRun } from './headless-editor.js';
import { auditSpec, markingCommand, markingRuns, writeMarkingProgram } from '../inputs/workspace.js';

const probeScript = path.join(repoRoot, 'test/real-clients/neovim/probe.lua');
const outputDir = path.join(repoRoot, 'test-output/neovim');


/** What probe.lua writes: Neovim's view of the diagnostics (0-based) and the hover it rendered. */
interface Seen {
  readonly nvim: string;
  /** Whether this Neovim's defaults declare pull diagnostics (0.10+); the probe removes it either way. */
  readonly defaultsDeclarePull: boolean;
  readonly diagnosticsArrived: boolean;
  readonly published: { uri: string; diagnostics: { data?: unknown }[] }[];
  readonly diagnostics: {
    lnum: number; col: number; end_lnum: number; end_col: number; severity: number;
    message: string; source?: string; code?: string; user_data_code?: string;
  }[];
  readonly hover?: string;
  readonly hoverKind?: string;
  readonly hoverError?: string;
  readonly serverStopped: boolean;
  readonly awaitedCodeShown?: boolean;
  readonly probeError?: string;
}

function runNeovim(root: string, options: Pick<ProbeRun, 'outputDir' | 'spec' | 'extra' | 'killAfterMs'> = { outputDir }): Promise<Seen> {
  // Neovim's lsp.log goes to $XDG_CACHE_HOME/nvim (0.7) or $XDG_STATE_HOME/nvim (0.8+).
  const xdg = path.join(options.outputDir, 'xdg');
  return runProbe<Seen>(root, {
    command: 'nvim', args: ['--headless', '--clean', '-u', 'NONE', '-c', `luafile ${probeScript}`], ...options,
    env: { XDG_CACHE_HOME: xdg, XDG_STATE_HOME: xdg, XDG_CONFIG_HOME: xdg, XDG_DATA_HOME: xdg }, install: 'Neovim 0.7+: apt-get install neovim',
  });
}

/**
 * Opens `spec` (in `root`) and waits up to `auditMs` for a diagnostic with `code`, hovering at its
 * detector L; the log goes to test-output/`output`.
 */
async function runUntilCode(root: string, spec: string, output: string, code: string, auditMs: number): Promise<Seen> {
  const file = path.join(root, spec);
  const seen = await runNeovim(root, {
    outputDir: path.join(repoRoot, 'test-output', output),
    spec: { file, hover: positionIn(fs.readFileSync(file, 'utf8'), 'detector L', 'detector '.length) },
    extra: { waitForCode: code, auditTimeoutMs: auditMs },
    killAfterMs: auditMs + 60_000,
  });
  assert.equal(seen.probeError, undefined, seen.probeError);
  return seen;
}

describe('Neovim (headless, its built-in LSP client over stdio)', () => {
  const folder = tempFolder();
  let seen: Seen;
  before(async () => {
    assert.ok(fs.existsSync(serverPath), `${serverPath} is missing: run node scripts/build.mjs first`);
    seen = await runNeovim(folder.dir);
    assert.equal(seen.probeError, undefined, seen.probeError);
  });
  after(() => folder.remove());

  test('with no pull diagnostics declared, the server pushes them on open', (t) => {
    if (seen.defaultsDeclarePull) t.diagnostic(`Neovim ${seen.nvim} declares pull diagnostics; the probe removed that to test the push path`);
    assert.ok(seen.diagnosticsArrived, `no textDocument/publishDiagnostics within ${waitMs} ms`);
    assert.equal(seen.published.length, 1, JSON.stringify(seen.published));
  });

  test('the unknown name is shown at its exact range, with its code and suggestion', () => {
    const summary = seen.diagnostics.map((d) => [d.code ?? d.user_data_code, d.lnum, d.col, d.end_lnum, d.end_col]);
    assert.deepEqual(summary, [['unknown-name', misspelt.start.line, misspelt.start.character, misspelt.end.line, misspelt.end.character]]);
    const [unknown] = seen.diagnostics;
    assert.equal(unknown?.severity, 1, 'vim.diagnostic.severity.ERROR');
    assert.equal(unknown?.source, 'herald');
    assert.match(unknown?.message ?? '', /did you mean 'cites_unretrieved'/);
    assert.deepEqual(seen.published[0]?.diagnostics[0]?.data, { suggestion: 'cites_unretrieved' });
  });

  test('hover at the detector shows its type, visibility, description and body', () => {
    assert.equal(seen.hoverError, undefined, seen.hoverError);
    assert.equal(seen.hoverKind, 'markdown', 'Neovim declares markdown hovers');
    const hover = seen.hover ?? '';
    assert.ok(hover.startsWith('detector `cites_unretrieved`: boolean, visible'), hover);
    assert.ok(hover.includes('cites a passage it never retrieved'), hover);
    assert.ok(hover.includes('any c in citations: c in corpus and c not in retrieved'), hover);
  });

  test('the server shuts down when Neovim stops the client', () => {
    assert.ok(seen.serverStopped, 'the server did not exit after shutdown/exit');
  });
});

describe('Neovim on the sample spec: the audit\'s findings and a detector\'s figures', () => {
  // A copy of samples/paper.reward with its pools; the log is test-output/neovim-sample/probe.log.
  const folder = tempFolder();
  const auditMs = 120_000;
  let seen: Seen;
  before(async () => {
    fs.copyFileSync(path.join(repoRoot, 'samples/paper.reward'), path.join(folder.dir, 'paper.reward'));
    fs.cpSync(path.join(repoRoot, 'samples/pools'), path.join(folder.dir, 'pools'), { recursive: true });
    seen = await runUntilCode(folder.dir, 'paper.reward', 'neovim-sample', 'penalty-cancellation', auditMs);
  });
  after(() => folder.remove());

  test('the audit\'s findings arrive by push: laundering beats R0, and R_full cancels its own penalty', () => {
    assert.ok(seen.awaitedCodeShown, `no penalty-cancellation diagnostic within ${auditMs} ms`);
    const code = (d: Seen['diagnostics'][number]): string | undefined => d.code ?? d.user_data_code;
    assert.ok(seen.diagnostics.some((d) => code(d) === 'attack-succeeds' && /launder beats R0: \d+\.\d+%/.test(d.message)), JSON.stringify(seen.diagnostics));
    assert.ok(seen.diagnostics.some((d) => code(d) === 'penalty-cancellation' && d.message.includes("switches off 'support_miss'")), JSON.stringify(seen.diagnostics));
    assert.deepEqual(seen.diagnostics.filter((d) => d.severity === 1), [], 'the sample has no errors');
  });

  test('hover at detector L shows the audit\'s summary and certificate, and no command link', () => {
    const hover = seen.hover ?? '';
    assert.match(hover, /Oracle-worst ASR without it → with only it: .*launder \d+\.\d+% → 0\.00%/);
    assert.match(hover, /Mean −λ·d on the attacks' edits: .*launder −1\.20000/);
    // Neovim runs none of HERALD's commands, so the hover offers none: the full tables are named instead.
    assert.doesNotMatch(hover, /command:/);
    assert.match(hover, /Every figure as a table: the report view in VS Code, or `herald audit --format html`/);
    assert.match(hover, /Certificate: max base gain among the \d+ audited edits that trigger it is \+0\.\d+ < λ 1\.2 ✓/);
  });
});

describe('Neovim configured as the README shows (no initializationOptions) on a spec that names a program', () => {
  // Issue 33: opening a spec from a cloned repository must not run its command in any editor.
  const folder = tempFolder();
  const auditMs = 60_000;
  const text = auditSpec('data/corpus.jsonl', 'data/hotpot.jsonl', `  attack dense = launder targets L using candidates command ${JSON.stringify(markingCommand)}\n`);
  let seen: Seen;
  before(async () => {
    fs.mkdirSync(path.join(folder.dir, 'data'));
    for (const name of ['corpus.jsonl', 'hotpot.jsonl']) fs.copyFileSync(path.join(repoRoot, 'samples/pools', name), path.join(folder.dir, 'data', name));
    writeMarkingProgram(folder.dir);
    fs.writeFileSync(path.join(folder.dir, 'command.reward'), text);
    seen = await runUntilCode(folder.dir, 'command.reward', 'neovim-command', 'audit-failed', auditMs);
  });
  after(() => folder.remove());

  test('the program never runs, and the error on it says how to allow it', (t) => {
    assert.ok(seen.awaitedCodeShown, `no audit-failed diagnostic within ${auditMs} ms`);
    assert.equal(markingRuns(folder.dir), 0, 'the candidates command ran');
    const failed = seen.diagnostics.filter((d) => (d.code ?? d.user_data_code) === 'audit-failed');
    assert.equal(failed.length, 1, JSON.stringify(seen.diagnostics));
    t.diagnostic(`Neovim ${seen.nvim} shows: ${failed[0]!.message}`);
    assert.match(failed[0]!.message, /^the audit could not run: candidates command "node mark\.js" was not run: a spec's programs run only with consent; trust the workspace to run it \(VS Code: Manage Workspace Trust; another editor: send initializationOptions \{"workspaceTrusted": true\}/);
  });
});
