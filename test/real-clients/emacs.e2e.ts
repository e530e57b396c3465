// End-to-end proof in a real editor: Emacs 28 with eglot 1.9 in --batch drives the bundled server
// over stdio. eglot 1.9 declares no pull diagnostics (push path) and, without markdown-mode (not a
// dependency), only plain-text hovers. test/real-clients/emacs/probe.el does the editor side and writes what it saw
// to test-output/emacs/ (result.json, probe.log, and eglot's JSON-RPC events as events.log).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { repoRoot, serverPath, tempFolder } from '../lsp/lsp-test-client.js';
import { misspelt, runProbe, waitMs } from './headless-editor.js';

const probeScript = path.join(repoRoot, 'test/real-clients/emacs/probe.el');
const outputDir = path.join(repoRoot, 'test-output/emacs');


/** What probe.el writes: Flymake's view of the diagnostics (0-based) and eglot's rendering of the hover. */
interface Seen {
  readonly emacs: string;
  readonly eglot: string;
  readonly clientDeclaresPull: boolean;
  readonly clientDeclaresMarkdownHover: boolean;
  readonly diagnosticsArrived: boolean;
  readonly published: { uri: string; diagnostics: unknown[] }[];
  readonly diagnostics: {
    line: number; col: number; end_line: number; end_col: number; type: string; text: string; code?: string; data?: unknown;
  }[];
  readonly hover?: string;
  readonly hoverKind?: string;
  readonly serverStopped: boolean;
  readonly probeError?: string;
}

function runEmacs(root: string): Promise<Seen> {
  // -q skips the user's init file but keeps Debian's site start-up, which puts elpa-eglot on the load path.
  return runProbe<Seen>(root, {
    command: 'emacs', args: ['--batch', '-q', '-l', probeScript], outputDir, env: { HOME: root },
    install: 'Emacs 28+ with eglot: apt-get install emacs-nox elpa-eglot', extra: { events: path.join(outputDir, 'events.log') },
  });
}

describe('Emacs eglot (--batch, over stdio)', () => {
  const folder = tempFolder();
  let seen: Seen;
  before(async () => {
    assert.ok(fs.existsSync(serverPath), `${serverPath} is missing: run node scripts/build.mjs first`);
    seen = await runEmacs(folder.dir);
    assert.equal(seen.probeError, undefined, seen.probeError);
  });
  after(() => folder.remove());

  test('eglot declares no pull diagnostics, and the server pushes them', () => {
    assert.equal(seen.clientDeclaresPull, false, `eglot ${seen.eglot} declares pull diagnostics; this test means to prove the push path`);
    assert.ok(seen.diagnosticsArrived, `no textDocument/publishDiagnostics within ${waitMs} ms`);
    // eglot sends workspace/didChangeConfiguration right after didOpen, which publishes again: same items.
    for (const published of seen.published) assert.deepEqual(published.diagnostics, seen.published[0]?.diagnostics);
  });

  test('Flymake shows the unknown name at its exact range, with its code and suggestion', () => {
    const summary = seen.diagnostics.map((d) => [d.code, d.line, d.col, d.end_line, d.end_col, d.type]);
    assert.deepEqual(summary, [['unknown-name', misspelt.start.line, misspelt.start.character, misspelt.end.line, misspelt.end.character, 'eglot-error']]);
    const [unknown] = seen.diagnostics;
    assert.match(unknown?.text ?? '', /^herald \[unknown-name\]: .*did you mean 'cites_unretrieved'/);
    assert.deepEqual(unknown?.data, { suggestion: 'cites_unretrieved' });
  });

  test('hover at the detector, in the format eglot asked for, shows its type, visibility, description and body', () => {
    assert.equal(seen.hoverKind, seen.clientDeclaresMarkdownHover ? 'markdown' : 'plaintext');
    const hover = seen.hover ?? '';
    assert.match(hover, /^detector `?cites_unretrieved`?: boolean, visible/);
    assert.ok(hover.includes('cites a passage it never retrieved'), hover);
    assert.ok(hover.includes('any c in citations: c in corpus and c not in retrieved'), hover);
  });

  test('the server is gone after eglot shuts it down', () => {
    assert.ok(seen.serverStopped, 'the server process is still running after eglot-shutdown');
  });
});
