import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';
import { DocumentDiagnosticRequest, HoverRequest, type FullDocumentDiagnosticReport, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { pullClientCapabilities, serverPath, TestClient } from './lsp-test-client.js';

/** How long a server may take to stop after a broken message before the test fails instead of hanging. */
const exitTimeoutMs = 20_000;

interface Ended {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The bundled server over stdio, written to byte by byte as a test wants, however wrong. */
class RawServer {
  private readonly child = spawn(process.execPath, [serverPath, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  private stdout = '';
  private stderr = '';
  private readonly waiters: { readonly pattern: RegExp; readonly resolve: () => void }[] = [];
  /** Resolves when the server exits; rejects if it is still running `exitTimeoutMs` after the test asked for it. */
  readonly ended: Promise<Ended>;

  constructor() {
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString();
      for (const waiter of this.waiters.filter((w) => w.pattern.test(this.stdout))) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.ended = new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        reject(new Error(`the server was still running after ${exitTimeoutMs} ms (stderr: ${this.stderr})`));
      }, exitTimeoutMs);
      this.child.once('exit', (code) => {
        clearTimeout(timer);
        this.child.stdin.destroy();
        resolve({ code, stdout: this.stdout, stderr: this.stderr });
      });
    });
  }

  write(text: string): void {
    this.child.stdin.write(text);
  }

  closeInput(): void {
    this.child.stdin.end();
  }

  /** Resolves once the server has written something that matches (an answer); the exit fails it otherwise. */
  answered(pattern: RegExp): Promise<void> {
    if (pattern.test(this.stdout)) return Promise.resolve();
    return Promise.race([
      new Promise<void>((resolve) => this.waiters.push({ pattern, resolve })),
      this.ended.then((e) => Promise.reject(new Error(`the server exited (code ${e.code}) before answering ${pattern}`))),
    ]);
  }
}

/** What the server does with `input` (stdin left open): it must exit by itself. */
function serverGiven(input: string): Promise<Ended> {
  const server = new RawServer();
  server.write(input);
  return server.ended;
}

const frame = (body: string, length = Buffer.byteLength(body)): string => `Content-Length: ${length}\r\n\r\n${body}`;
const initialize = (id: number): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });

describe('transports', () => {
  test('over Node IPC (how VS Code starts the server) it checks and answers like over stdio', async () => {
    const client = await TestClient.start({ capabilities: pullClientCapabilities, transport: 'node-ipc' });
    const uri = 'untitled:ipc';
    await client.open(uri, 'signal s = has_final and nope\n');
    const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
    assert.deepEqual(report.items.map((d) => d.code), ['unused-declaration', 'unknown-name']);
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 14 } });
    assert.ok((hover?.contents as MarkupContent).value.startsWith('field `has_final`: boolean, visible'));
    await client.stop();
  });
});

describe('a broken message over stdio ends the server with a reason on stderr (issue 33, item 15)', () => {
  const reason = /^herald-language-server: stopped: a message from the client could not be read \((.*)\)\. Each message must be a header "Content-Length: N"/;

  test('a garbage header: exit code 1, the header\'s problem on stderr, nothing on stdout', async () => {
    const ended = await serverGiven('garbage\r\n\r\n');
    assert.equal(ended.code, 1);
    assert.equal(ended.stdout, '');
    assert.match(ended.stderr, reason);
    assert.match(ended.stderr, /separate key and value using ':' garbage/);
  });

  test('a Content-Length that is not a number: exit code 1, named on stderr', async () => {
    const ended = await serverGiven('Content-Length: abc\r\n\r\n{}');
    assert.equal(ended.code, 1);
    assert.match(ended.stderr, /Content-Length value must be a number\. Got abc/);
  });

  test('a header without Content-Length: exit code 1, named on stderr', async () => {
    const ended = await serverGiven('Content-Type: application/json\r\n\r\n{}');
    assert.equal(ended.code, 1);
    assert.match(ended.stderr, /Header must provide a Content-Length property/);
  });

  test('a Content-Length shorter than its body, after a message that was answered: exit code 1, the cut body named on stderr', async () => {
    const server = new RawServer();
    server.write(frame(initialize(1)));
    await server.answered(/"id":1,"result":\{"capabilities"/);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'textDocument/hover', params: { textDocument: { uri: 'untitled:x' }, position: { line: 0, character: 0 } } });
    server.write(frame(body, body.length - 10));
    const ended = await server.ended;
    assert.equal(ended.code, 1);
    assert.doesNotMatch(ended.stdout, /"id":2/);
    assert.match(ended.stderr, reason);
    assert.match(ended.stderr, /JSON/);
  });

  test('the stream closing ends the server: with code 0 after shutdown, with code 1 before it', async () => {
    const clean = new RawServer();
    clean.write(frame(initialize(1)) + frame(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'shutdown' })));
    await clean.answered(/"id":2,"result":null/);
    clean.closeInput();
    assert.deepEqual(await clean.ended.then((e) => [e.code, e.stderr]), [0, '']);
    const abrupt = new RawServer();
    abrupt.write(frame(initialize(1)));
    await abrupt.answered(/"id":1,"result"/);
    abrupt.closeInput();
    assert.deepEqual(await abrupt.ended.then((e) => [e.code, e.stderr]), [1, '']);
  });

  test('control characters of a garbage header are escaped on stderr', async () => {
    const ended = await serverGiven('\u001b[31mred\r\n\r\n');
    assert.equal(ended.code, 1);
    assert.ok(!ended.stderr.includes('\u001b'), 'no raw escape character');
    assert.match(ended.stderr, /\\u001b\[31mred/);
  });
});
