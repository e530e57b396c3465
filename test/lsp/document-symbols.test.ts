import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DocumentSymbolRequest, SymbolKind, type DocumentSymbol, type SymbolInformation } from 'vscode-languageserver-protocol/node';
import { paperSpec, pullClientCapabilities, pushClientCapabilities, rangeOf, tempFolder, TestClient } from './lsp-test-client.js';

type Outline = [name: string, kind: SymbolKind, children?: Outline[]];
const outline = (symbols: readonly DocumentSymbol[]): Outline[] =>
  symbols.map((s) => (s.children === undefined ? [s.name, s.kind] : [s.name, s.kind, outline(s.children)]));

describe('document symbols', () => {
  let client: TestClient;
  const folder = tempFolder();
  const uri = folder.uri('paper.reward');
  before(async () => {
    client = await TestClient.start({ capabilities: pullClientCapabilities });
    await client.open(uri, paperSpec);
  });
  after(async () => {
    await client.stop();
    folder.remove();
  });

  test('the paper spec outlines as a tree: rewards hold their terms, the audit its attacks and expectations', async () => {
    const symbols = (await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[];
    const signal = (name: string): Outline => [name, SymbolKind.Variable];
    assert.deepEqual(outline(symbols), [
      ['wiki', SymbolKind.File],
      ['hotpot', SymbolKind.File],
      ['wiki2', SymbolKind.File],
      ['musique5', SymbolKind.File],
      ['musique8', SymbolKind.File],
      ['U', SymbolKind.Event],
      ['L', SymbolKind.Event],
      ['F', SymbolKind.Event],
      ...['no_retrieval', 'fake_citation', 'cited_not_retrieved', 'repeated_query', 'no_citation', 'invalid_action', 'no_final', 'violation_rate', 'support_miss'].map(signal),
      ['R0', SymbolKind.Function, ['answer', 'grounding', 'tool_cost', 'invalid', 'length', 'violations'].map((t): Outline => [t, SymbolKind.Field])],
      ['R_L', SymbolKind.Function, [['L', SymbolKind.Field]]],
      ['R_full', SymbolKind.Function, ['L', 'U', 'F', 'support_miss'].map((t): Outline => [t, SymbolKind.Field])],
      ['paper', SymbolKind.Namespace, [
        ['same_final', SymbolKind.Method],
        ['fake_id', SymbolKind.Method],
        ['launder', SymbolKind.Method],
        ['asr(R_L, launder, oracle_worst) == 0', SymbolKind.Boolean],
        ['asr(R0, launder, first_visible) <= 20%', SymbolKind.Boolean],
        ['minimal_repair == {L}', SymbolKind.Boolean],
      ]],
    ]);
  });

  test('ranges cover the declaration and select its name; details give types and paths', async () => {
    const symbols = (await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[];
    const l = symbols.find((s) => s.name === 'L')!;
    const name = rangeOf(paperSpec, 'L "cites').start;
    assert.deepEqual(l.selectionRange, { start: name, end: { line: name.line, character: name.character + 1 } });
    assert.deepEqual(l.range, { start: rangeOf(paperSpec, 'detector L').start, end: rangeOf(paperSpec, 'c not in retrieved').end });
    assert.equal(l.detail, 'boolean, visible');
    assert.equal(symbols.find((s) => s.name === 'wiki')?.detail, 'pools/corpus.jsonl');
    assert.equal(symbols.find((s) => s.name === 'R_full')?.detail, 'number, oracle');
    const launder = symbols.find((s) => s.name === 'paper')?.children?.find((c) => c.name === 'launder');
    assert.equal(launder?.detail, 'launder → L');
  });

  test('no handler failed', () => assert.deepEqual(client.loggedErrors, []));
});

describe('document symbols for a client without hierarchical outlines', () => {
  test('the same symbols come flat, with their container', async () => {
    const client = await TestClient.start({ capabilities: pushClientCapabilities });
    const uri = 'untitled:outline';
    const published = client.diagnostics.next((p) => p.uri === uri);
    await client.open(uri, 'signal s = 1\nreward R { a 1.0 * s }\n');
    await published;
    const symbols = (await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as SymbolInformation[];
    assert.deepEqual(symbols.map((s) => [s.name, s.kind, s.containerName]), [
      ['s', SymbolKind.Variable, undefined],
      ['R', SymbolKind.Function, undefined],
      ['a', SymbolKind.Field, 'R'],
    ]);
    await client.stop();
  });
});
