// End-to-end proof in a real editor: headless Neovim's own LSP client drives the bundled server
// over stdio. Neovim 0.7 (Debian 12) declares no pull diagnostics, so this exercises the push path.
// test/real-clients/neovim/probe.lua does the editor side and writes what it saw to
// test-output/neovim/ (result.json, probe.log, and Neovim's own lsp.log under xdg/).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { repoRoot, serverPath, tempFolder } from '../lsp/lsp-test-client.js';
import { misspelt, runProbe, waitMs } from './headless-editor.js';

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
  readonly probeError?: string;
}

function runNeovim(root: string): Promise<Seen> {
  // Neovim's lsp.log goes to $XDG_CACHE_HOME/nvim (0.7) or $XDG_STATE_HOME/nvim (0.8+).
  const xdg = path.join(outputDir, 'xdg');
  return runProbe<Seen>(root, {
    command: 'nvim', args: ['--headless', '--clean', '-u', 'NONE', '-c', `luafile ${probeScript}`], outputDir,
    env: { XDG_CACHE_HOME: xdg, XDG_STATE_HOME: xdg, XDG_CONFIG_HOME: xdg, XDG_DATA_HOME: xdg }, install: 'Neovim 0.7+: apt-get install neovim',
  });
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
