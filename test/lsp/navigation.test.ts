import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  DefinitionRequest, DocumentHighlightKind, DocumentHighlightRequest, PrepareRenameRequest, ReferencesRequest, RenameRequest,
  type Location, type Position, type Range, type TextEdit,
} from 'vscode-languageserver-protocol/node';
import { positionIn, pullClientCapabilities, rangeOf, tempFolder, TestClient } from './lsp-test-client.js';

const spec = [
  'detector hit "cites an unretrieved passage" = any c in citations: c not in retrieved',
  'detector fake "cites outside the corpus" = any c in citations: c not in corpus',
  'reward base "b" {',
  '  found 1.0 * has_final',
  '  miss -0.5 * hit',
  '}',
  'reward strict = base - 1.0 * hit',
  'corpus wiki = "wiki.jsonl"',
  'pool runs = "runs.jsonl"',
  'audit first {',
  '  reward base',
  '  corpus wiki',
  '  pools runs',
  '  attack launder targets hit using lexical(8)',
  '  expect asr(base, launder, first_visible) == 0',
  '}',
  'audit second {',
  '  reward strict',
  '  corpus wiki',
  '  pools runs',
  '  attack launder targets hit, fake using bm25(4)',
  '  expect asr(strict, launder, first_visible) == 0',
  '}',
  '',
].join('\n');

describe('definition, references, highlights and rename', () => {
  let client: TestClient;
  const folder = tempFolder();
  const uri = folder.uri('navigation.reward');
  before(async () => {
    client = await TestClient.start({ capabilities: pullClientCapabilities });
    await client.open(uri, spec);
  });
  after(async () => {
    await client.stop();
    folder.remove();
  });

  const definitionAt = (position: Position) => client.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position });
  const referencesAt = async (position: Position, includeDeclaration: boolean) =>
    ((await client.connection.sendRequest(ReferencesRequest.type, { textDocument: { uri }, position, context: { includeDeclaration } })) ?? []).map((l: Location) => {
      assert.equal(l.uri, uri);
      return l.range;
    });
  const hit = (nth: number): Range => rangeOf(spec, 'hit', nth);

  test('a detector used in a reward goes to its declaration', async () => {
    assert.deepEqual(await definitionAt(positionIn(spec, 'hit', 1, 1)), { uri, range: hit(0) });
    // The cursor right after the name still finds it.
    assert.deepEqual(await definitionAt(positionIn(spec, 'hit', 3, 2)), { uri, range: hit(0) });
  });

  test('built-ins and keywords have no definition', async () => {
    assert.equal(await definitionAt(positionIn(spec, 'citations', 1)), null);
    assert.equal(await definitionAt(positionIn(spec, 'detector', 1)), null);
  });

  test('references of a detector, with and without its declaration', async () => {
    const uses = [hit(1), hit(2), hit(3), hit(4)];
    assert.deepEqual(await referencesAt(positionIn(spec, 'hit', 1, 0), true), [hit(0), ...uses]);
    assert.deepEqual(await referencesAt(positionIn(spec, 'hit', 1, 0), false), uses);
  });

  test('a quantifier variable belongs to its own quantifier', async () => {
    const firstUse = positionIn(spec, 'c not in retrieved', 0);
    const declared = { start: positionIn(spec, 'any c', 4), end: positionIn(spec, 'any c', 5) };
    assert.deepEqual(await definitionAt(firstUse), { uri, range: declared });
    assert.deepEqual(await referencesAt(firstUse, true), [declared, { start: firstUse, end: { line: 0, character: firstUse.character + 1 } }]);
  });

  test('attacks are scoped to their audit', async () => {
    // `launder` is written at lines 13 and 14 in the first audit, 20 and 21 in the second.
    const inSecond = positionIn(spec, 'launder, first_visible', 2, 1);
    const second = rangeOf(spec, 'launder', 2);
    assert.deepEqual(await definitionAt(inSecond), { uri, range: second });
    assert.deepEqual(await referencesAt(inSecond, true), [second, rangeOf(spec, 'launder', 3)]);
  });

  test('document highlights mark the declaration as written and the uses as read', async () => {
    const highlights = await client.connection.sendRequest(DocumentHighlightRequest.type, { textDocument: { uri }, position: positionIn(spec, 'base', 2, 1) });
    assert.deepEqual(highlights, [
      { range: rangeOf(spec, 'base', 0), kind: DocumentHighlightKind.Write },
      { range: rangeOf(spec, 'base', 1), kind: DocumentHighlightKind.Read },
      { range: rangeOf(spec, 'base', 2), kind: DocumentHighlightKind.Read },
      { range: rangeOf(spec, 'base', 3), kind: DocumentHighlightKind.Read },
    ]);
  });

  test('rename a detector everywhere; prepareRename names the range and placeholder', async () => {
    const at = positionIn(spec, 'hit', 0, 2);
    assert.deepEqual(await client.connection.sendRequest(PrepareRenameRequest.type, { textDocument: { uri }, position: at }), { range: hit(2), placeholder: 'hit' });
    const edit = await client.connection.sendRequest(RenameRequest.type, { textDocument: { uri }, position: at, newName: 'unretrieved' });
    const edits = edit?.changes?.[uri] ?? [];
    assert.deepEqual(edits, [0, 1, 2, 3, 4].map((n) => ({ range: hit(n), newText: 'unretrieved' })));
  });

  test('renaming a shorthand attack keeps its kind', async () => {
    const edit = await client.connection.sendRequest(RenameRequest.type, { textDocument: { uri }, position: positionIn(spec, 'launder', 3, 1), newName: 'swap' });
    assert.deepEqual(edit?.changes?.[uri], [
      { range: rangeOf(spec, 'launder', 0), newText: 'swap = launder' },
      { range: rangeOf(spec, 'launder', 1), newText: 'swap' },
    ] satisfies TextEdit[]);
  });

  test('rename refuses keywords, malformed names, taken names and built-ins', async () => {
    const at = positionIn(spec, 'hit', 0);
    for (const newName of ['audit', '1x', 'with space', 'fake', 'citations']) {
      await assert.rejects(client.connection.sendRequest(RenameRequest.type, { textDocument: { uri }, position: at, newName }), /not a valid name|already taken/);
    }
    assert.equal(await client.connection.sendRequest(PrepareRenameRequest.type, { textDocument: { uri }, position: positionIn(spec, 'has_final', 2) }), null);
  });

  test('no handler failed', () => assert.deepEqual(client.loggedErrors, []));
});
