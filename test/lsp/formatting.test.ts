import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DocumentFormattingRequest, type TextEdit } from 'vscode-languageserver-protocol/node';
import { formatSpec } from '../../server/src/format/format.js';
import { paperSpec, pullClientCapabilities, tempFolder, TestClient } from './lsp-test-client.js';

const messy = [
  '# keep this comment',
  'signal   ok "fine"=has_final',
  'detector  bad "a violation"  =   any c in citations :c not in retrieved',
  'reward R "r" {',
  '      answer 1.0*token_f1(answer,gold.answers)',
  '  penalty   -0.5 * bad',
  '}',
  'signal tail "untouched" = ok',
  '',
].join('\n');

describe('formatting', () => {
  let client: TestClient;
  const folder = tempFolder();
  let documents = 0;
  before(async () => {
    client = await TestClient.start({ capabilities: pullClientCapabilities });
  });
  after(async () => {
    await client.stop();
    folder.remove();
  });

  async function format(text: string, tabSize = 2): Promise<{ edits: TextEdit[]; result: string }> {
    const uri = folder.uri(`format-${++documents}.reward`);
    await client.open(uri, text);
    const edits = (await client.connection.sendRequest(DocumentFormattingRequest.type, { textDocument: { uri }, options: { tabSize, insertSpaces: true } })) ?? [];
    return { edits, result: TextDocument.applyEdits(TextDocument.create(uri, 'reward', 1, text), edits) };
  }

  test('the server offers formatting', () => {
    assert.equal(client.initializeResult?.capabilities.documentFormattingProvider, true);
  });

  test('the edits produce exactly what the formatter produces, touching only changed lines', async () => {
    const expected = formatSpec(messy, { indent: 2 });
    assert.notEqual(expected, messy);
    const { edits, result } = await format(messy);
    assert.equal(result, expected);
    assert.equal(edits.length, 1);
    // The first line (a comment) is already canonical, so the edit starts below it.
    assert.ok(edits[0]!.range.start.line >= 1 && edits[0]!.range.start.character === 0);
  });

  test('the editor\'s indentation width is passed to the formatter', async () => {
    assert.equal((await format(messy, 4)).result, formatSpec(messy, { indent: 4 }));
  });

  test('CRLF line ends survive as the formatter leaves them', async () => {
    const crlf = messy.replace(/\n/g, '\r\n');
    assert.equal((await format(crlf)).result, formatSpec(crlf, { indent: 2 }));
  });

  test('formatted text and text with syntax errors give no edits', async () => {
    assert.deepEqual((await format(formatSpec(paperSpec, { indent: 2 }))).edits, []);
    assert.deepEqual((await format('signal s = (has_final\n')).edits, []);
  });

  test('no handler failed', () => assert.deepEqual(client.loggedErrors, []));
});
