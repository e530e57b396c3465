import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SemanticTokensRequest, type Position, type SemanticTokensLegend } from 'vscode-languageserver-protocol/node';
import { paperSpec, positionIn, pullClientCapabilities, tempFolder, TestClient } from './lsp-test-client.js';

interface DecodedToken {
  readonly line: number;
  readonly character: number;
  readonly length: number;
  readonly type: string;
  readonly modifiers: string[];
}

/** Undoes the relative encoding of LSP semantic tokens (five integers per token). */
function decode(data: readonly number[], legend: SemanticTokensLegend): DecodedToken[] {
  const tokens: DecodedToken[] = [];
  let line = 0;
  let character = 0;
  for (let i = 0; i < data.length; i += 5) {
    const [deltaLine, deltaStart, length, type, modifierBits] = data.slice(i, i + 5) as [number, number, number, number, number];
    line += deltaLine;
    character = deltaLine === 0 ? character + deltaStart : deltaStart;
    const modifiers = legend.tokenModifiers.filter((_, bit) => (modifierBits & (1 << bit)) !== 0);
    tokens.push({ line, character, length, type: legend.tokenTypes[type]!, modifiers });
  }
  return tokens;
}

describe('semantic tokens', () => {
  let client: TestClient;
  let tokens: DecodedToken[];
  const folder = tempFolder();
  const uri = folder.uri('paper.reward');
  before(async () => {
    client = await TestClient.start({ capabilities: pullClientCapabilities });
    await client.open(uri, paperSpec);
    const legend = client.initializeResult?.capabilities.semanticTokensProvider?.legend;
    assert.ok(legend);
    const result = await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } });
    tokens = decode(result?.data ?? [], legend);
  });
  after(async () => {
    await client.stop();
    folder.remove();
  });

  function tokenAt(position: Position, length: number): Omit<DecodedToken, 'line' | 'character' | 'length'> {
    const token = tokens.find((t) => t.line === position.line && t.character === position.character);
    assert.ok(token, `no token at ${JSON.stringify(position)}`);
    assert.equal(token.length, length);
    return { type: token.type, modifiers: [...token.modifiers].sort() };
  }

  test('the legend declares the oracle modifier', () => {
    assert.ok(client.initializeResult?.capabilities.semanticTokensProvider?.legend.tokenModifiers.includes('oracle'));
  });

  test('declarations carry the declaration modifier and the kind of what they declare', () => {
    assert.deepEqual(tokenAt(positionIn(paperSpec, 'L "cites'), 1), { type: 'event', modifiers: ['declaration', 'readonly'] });
    assert.deepEqual(tokenAt(positionIn(paperSpec, 'wiki = '), 4), { type: 'namespace', modifiers: ['declaration'] });
    assert.deepEqual(tokenAt(positionIn(paperSpec, 'R0 "the'), 2), { type: 'function', modifiers: ['declaration', 'oracle'] });
    assert.deepEqual(tokenAt(positionIn(paperSpec, 'paper "the'), 5), { type: 'class', modifiers: ['declaration'] });
    assert.deepEqual(tokenAt(positionIn(paperSpec, 'answer      1.0'), 6), { type: 'property', modifiers: ['declaration', 'oracle'] });
    assert.deepEqual(tokenAt(positionIn(paperSpec, 'tool_cost'), 9), { type: 'property', modifiers: ['declaration'] });
  });

  test('uses take the kind of the symbol they resolve to', () => {
    assert.deepEqual(tokenAt(positionIn(paperSpec, 'L\n\nreward R_full'), 1), { type: 'event', modifiers: ['readonly'] });
    assert.deepEqual(tokenAt(positionIn(paperSpec, 'wiki\n  pools'), 4), { type: 'namespace', modifiers: [] });
    assert.deepEqual(tokenAt(positionIn(paperSpec, 'launder, oracle_worst'), 7), { type: 'method', modifiers: [] });
    assert.deepEqual(tokenAt(positionIn(paperSpec, 'c not in retrieved'), 1), { type: 'parameter', modifiers: [] });
  });

  test('built-ins are defaultLibrary; gold and what reads it are oracle', () => {
    assert.deepEqual(tokenAt(positionIn(paperSpec, 'token_f1('), 8), { type: 'function', modifiers: ['defaultLibrary'] });
    assert.deepEqual(tokenAt(positionIn(paperSpec, 'retrieved\n'), 9), { type: 'property', modifiers: ['defaultLibrary', 'readonly'] });
    assert.deepEqual(tokenAt(positionIn(paperSpec, 'gold.support'), 4), { type: 'property', modifiers: ['defaultLibrary', 'oracle', 'readonly'] });
    assert.deepEqual(tokenAt(positionIn(paperSpec, 'support)'), 7), { type: 'property', modifiers: ['defaultLibrary', 'oracle', 'readonly'] });
    assert.deepEqual(tokenAt(positionIn(paperSpec, 'support_miss\n\naudit'), 12), { type: 'variable', modifiers: ['oracle', 'readonly'] });
    assert.deepEqual(tokenAt(positionIn(paperSpec, 'oracle_worst'), 12), { type: 'enumMember', modifiers: ['defaultLibrary'] });
  });

  test('keywords, strings and numbers are left to the grammar', () => {
    for (const position of [positionIn(paperSpec, 'detector L'), positionIn(paperSpec, 'lattice U'), positionIn(paperSpec, '"pools/corpus'), positionIn(paperSpec, '1.2, F')]) {
      assert.equal(tokens.find((t) => t.line === position.line && t.character === position.character), undefined, JSON.stringify(position));
    }
  });

  test('tokens are in order and never overlap', () => {
    for (let i = 1; i < tokens.length; i++) {
      const [a, b] = [tokens[i - 1]!, tokens[i]!];
      assert.ok(b.line > a.line || b.character >= a.character + a.length, `token ${i} overlaps`);
    }
  });

  test('no handler failed', () => assert.deepEqual(client.loggedErrors, []));
});
