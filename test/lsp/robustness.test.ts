import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import {
  CompletionRequest, createProtocolConnection, DefinitionRequest, DocumentDiagnosticRequest, DocumentHighlightRequest, DocumentSymbolRequest, ErrorCodes, ExitNotification,
  HoverRequest, InitializedNotification, InitializeRequest, PrepareRenameRequest, ReferencesRequest, ResponseError, SemanticTokensRequest, ShutdownRequest, StreamMessageReader,
  StreamMessageWriter, type FullDocumentDiagnosticReport, type MarkupContent, type Position, type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { LineIndex } from '../../server/src/problems/line-index.js';
import { endOfText, paperSpec, positionIn, pullClientCapabilities, serverPath, tempFolder, TestClient } from './lsp-test-client.js';

/** A small seeded generator, so a failing input can be reproduced. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random characters: bytes, spec punctuation and keywords, line breaks of every kind, lone surrogates. */
function garbage(seed: number, length: number): string {
  const random = mulberry32(seed);
  const pieces = ['{', '}', '(', ')', '"', '\\', '.', ':', ',', '=', '#', '\r\n', '\r', '\n', ' audit ', ' reward ', 'any ', ' in ', 'gold.', '\ud800', '\u0000', '%'];
  let text = '';
  while (text.length < length) {
    text += random() < 0.5 ? String.fromCharCode(Math.floor(random() * 256)) : pieces[Math.floor(random() * pieces.length)]!;
  }
  return text;
}

describe('robustness: the server survives whatever is typed', () => {
  let client: TestClient;
  const folder = tempFolder();
  const paperUri = folder.uri('paper.reward');
  before(async () => {
    client = await TestClient.start({ capabilities: pullClientCapabilities });
    await client.open(paperUri, paperSpec);
  });
  after(async () => {
    await client.stop();
    folder.remove();
  });

  /** Every position-based request at `position`, and the document-wide ones. */
  async function everything(uri: string, position: Position): Promise<void> {
    const textDocument = { uri };
    await Promise.all([
      client.connection.sendRequest(HoverRequest.type, { textDocument, position }),
      client.connection.sendRequest(CompletionRequest.type, { textDocument, position }),
      client.connection.sendRequest(DefinitionRequest.type, { textDocument, position }),
      client.connection.sendRequest(ReferencesRequest.type, { textDocument, position, context: { includeDeclaration: true } }),
      client.connection.sendRequest(DocumentHighlightRequest.type, { textDocument, position }),
      client.connection.sendRequest(PrepareRenameRequest.type, { textDocument, position }),
    ]);
  }

  async function paperHoverStillWorks(): Promise<void> {
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: paperUri }, position: positionIn(paperSpec, 'detector L', 9) });
    assert.ok((hover?.contents as MarkupContent).value.startsWith('detector `L`: boolean, visible'));
  }

  test('random bytes: every request answers, nothing is logged as failed', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const uri = folder.uri(`garbage-${seed}.reward`);
      const text = garbage(seed, 4000);
      await client.open(uri, text);
      const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
      assert.ok(report.items.length > 0);
      await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
      await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } });
      const lines = new LineIndex(text);
      for (let offset = 0; offset <= text.length; offset += 97) await everything(uri, lines.position(offset));
      // Positions past the end of a line or of the document are clamped, not trusted.
      await everything(uri, { line: 100_000, character: 5 });
      await everything(uri, { line: 0, character: 100_000 });
      await client.close(uri);
    }
    assert.deepEqual(client.loggedErrors, []);
    await paperHoverStillWorks();
  });

  test('an unterminated string is one diagnostic, and the rest of the spec still works', async () => {
    const uri = folder.uri('unterminated.reward');
    const text = 'detector D "flags a thing = has_final\nsignal s = search_calls > 2\nreward R { a -1.0 * s }\n';
    await client.open(uri, text);
    const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
    assert.deepEqual(report.items.filter((d) => d.code === 'unterminated-string').map((d) => d.range), [{ start: { line: 0, character: 11 }, end: { line: 0, character: 37 } }]);
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: positionIn(text, '* s', 2) });
    assert.ok((hover?.contents as MarkupContent).value.startsWith('signal `s`: boolean, visible'));
    assert.deepEqual(await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: positionIn(text, 'flags', 2) }), []);
  });

  test('a 10,000-line spec is checked and answered', async () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `signal s${i} "line ${i}" = search_calls > ${i} and has_final`);
    const text = `${lines.join('\n')}\nreward R { total 1.0 * mean(s0, s9999) }\n`;
    const uri = folder.uri('long.reward');
    await client.open(uri, text);
    const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
    assert.equal(report.items.length, 9_998);
    assert.ok(report.items.every((d) => d.code === 'unused-declaration'));
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: positionIn(text, 's9999)', 2) });
    assert.ok((hover?.contents as MarkupContent).value.startsWith('signal `s9999`: boolean, visible'));
    const symbols = await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
    assert.equal(symbols?.length, 10_001);
    const completion = await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: positionIn(text, 's0, s9999', 0) });
    assert.ok(Array.isArray(completion) && completion.some((i) => i.label === 's5000'));
    await client.close(uri);
  });

  test('a 65 MB spec and 300 nested parentheses each get one clear error, and the server goes on (issue 13, items 7 and 9)', async () => {
    const huge = folder.uri('huge.reward');
    await client.open(huge, `${'# padding\n'.repeat(6_500_000)}reward R { a 1.0 * has_final }\n`);
    const hugeReport = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: huge } })) as FullDocumentDiagnosticReport;
    assert.deepEqual(hugeReport.items.map((d) => d.code), ['spec-too-large']);
    assert.equal(await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: huge }, position: { line: 6_500_000, character: 20 } }), null);
    await client.close(huge);

    const deep = folder.uri('deep.reward');
    const text = `signal s = ${'('.repeat(300)}search_calls${')'.repeat(300)} > 1\nreward R { a -1.0 * s }\n`;
    await client.open(deep, text);
    const deepReport = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: deep } })) as FullDocumentDiagnosticReport;
    const nesting = deepReport.items.filter((d) => d.code === 'nesting-too-deep');
    assert.equal(nesting.length, 1, JSON.stringify(deepReport.items));
    assert.deepEqual(nesting[0]!.range.start, { line: 0, character: 11 + 64 });
    await client.close(deep);
    await paperHoverStillWorks();
  });

  test('a UTF-16 spec read as UTF-8, with or without a byte order mark, is one error at 1:1 (issue 33, item 15)', async () => {
    const bytes = Buffer.from(paperSpec, 'utf16le');
    for (const [name, saved] of [['marked.reward', Buffer.concat([Buffer.from([0xff, 0xfe]), bytes])], ['bare.reward', bytes]] as const) {
      const uri = folder.uri(name);
      await client.open(uri, saved.toString('utf8'));
      const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
      assert.deepEqual(report.items.map((d) => [d.code, d.range.start, d.message]), [['lex-error', { line: 0, character: 0 }, 'the spec is UTF-16 text; save it as UTF-8']], name);
      await client.close(uri);
    }
  });

  test('every prefix of the paper spec (text as it is typed) answers completion and hover', async () => {
    const uri = folder.uri('typing.reward');
    await client.open(uri, '');
    let version = 1;
    for (let length = 0; length <= paperSpec.length; length += 7) {
      const text = paperSpec.slice(0, length);
      await client.replace(uri, text, ++version);
      await everything(uri, endOfText(text));
    }
    assert.deepEqual(client.loggedErrors, []);
    await paperHoverStillWorks();
  });

  test('requests for documents that are not open answer empty', async () => {
    const textDocument = { uri: folder.uri('never-opened.reward') };
    const position = { line: 0, character: 0 };
    assert.equal(await client.connection.sendRequest(HoverRequest.type, { textDocument, position }), null);
    assert.deepEqual(await client.connection.sendRequest(CompletionRequest.type, { textDocument, position }), []);
    assert.deepEqual(await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument }), { kind: 'full', items: [] });
  });
});

// The LSP lifecycle and malformed document notifications (issue 13, item 17).
describe('robustness: protocol lifecycle, malformed opens and escaped messages', () => {
  /** The bundled server over stdio with nothing sent yet (no initialize); `kill` ends it if a test fails midway. */
  function rawServer(): { connection: ProtocolConnection; exited: Promise<number | null>; kill: () => void } {
    const child = spawn(process.execPath, [serverPath, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    connection.listen();
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { connection, exited, kill: () => {
      connection.dispose();
      if (child.exitCode === null) child.kill();
    } };
  }

  /** The JSON-RPC error code a request was answered with (it fails the test when it was answered with a result). */
  async function errorCode(request: Promise<unknown>): Promise<number> {
    let result: unknown;
    try {
      result = await request;
    } catch (error) {
      assert.ok(error instanceof ResponseError, String(error));
      return error.code;
    }
    assert.fail(`answered with a result: ${JSON.stringify(result)}`);
  }

  test('a request before initialize is answered with ServerNotInitialized (−32002); after it, as usual', async () => {
    const { connection, exited, kill } = rawServer();
    try {
      const textDocument = { uri: 'untitled:before-init' };
      const position = { line: 0, character: 0 };
      assert.equal(await errorCode(connection.sendRequest(HoverRequest.type, { textDocument, position })), ErrorCodes.ServerNotInitialized);
      assert.equal(await errorCode(connection.sendRequest(CompletionRequest.type, { textDocument, position })), ErrorCodes.ServerNotInitialized);
      assert.equal(await errorCode(connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument })), ErrorCodes.ServerNotInitialized);
      assert.equal(await errorCode(connection.sendRequest('textDocument/foldingRange', { textDocument })), ErrorCodes.ServerNotInitialized, 'a method the server has no handler for');

      await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: pullClientCapabilities, workspaceFolders: null });
      await connection.sendNotification(InitializedNotification.type, {});
      assert.equal(await connection.sendRequest(HoverRequest.type, { textDocument, position }), null, 'a document that is not open: no hover');
      assert.equal(await errorCode(connection.sendRequest('textDocument/foldingRange', { textDocument })), ErrorCodes.MethodNotFound);
      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
      assert.equal(await exited, 0);
    } finally {
      kill();
    }
  });

  test('a didOpen whose uri is null is ignored: no workspace/configuration with scopeUri null, nothing logged, the server goes on', async () => {
    const client = await TestClient.start({ capabilities: pullClientCapabilities });
    try {
      const text = 'signal s = has_final and nope\n';
      for (const uri of [null, 42, { path: '/x.reward' }]) {
        await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'reward', version: 1, text } });
      }
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: 'untitled:no-text', languageId: 'reward', version: 1, text: null } });
      // A valid document after them: its pull asks for its settings, and the server writes its requests
      // in order, so any request the malformed opens caused has reached the client by the time it answers.
      const uri = 'untitled:after-null';
      await client.open(uri, text);
      const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
      assert.deepEqual(report.items.map((d) => d.code), ['unused-declaration', 'unknown-name']);
      assert.ok(client.configurationRequests.includes(uri));
      assert.deepEqual(client.configurationRequests.filter((scope) => typeof scope !== 'string'), [], 'every workspace/configuration names a document');
      assert.ok(!client.configurationRequests.includes('untitled:no-text'), 'an open without text is not kept either');
      assert.equal(await client.connection.sendRequest('textDocument/hover', { textDocument: { uri: null }, position: { line: 0, character: 0 } }), null);
      assert.deepEqual(client.loggedErrors, []);
    } finally {
      await client.stop();
    }
  });

  test('diagnostic messages show control and bidi characters from the spec or the data as escapes (issue 13, item 15)', async () => {
    const client = await TestClient.start({ capabilities: pullClientCapabilities });
    const folder = tempFolder();
    try {
      const uri = folder.uri('escapes.reward');
      await client.open(uri, 'pool p = "a\u001b[2J\u202eb\u2066.jsonl"\n');
      const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
      const messages = report.items.map((d) => (typeof d.message === 'string' ? d.message : d.message.value));
      assert.ok(messages.some((m) => m.includes("'a\\u001b[2J\\u202eb\\u2066.jsonl'")), messages.join('\n'));
      // eslint-disable-next-line no-control-regex -- finding control characters is the point
      assert.deepEqual(messages.filter((m) => /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/.test(m)), []);
    } finally {
      await client.stop();
      folder.remove();
    }
  });
});
