// Issue 37 in the editor: the pool line's hover shows what the pool's rows hold, counted, once an
// audit has read it; the attack line says why it tests nothing; and a doc string's `<answer>` is
// shown as text in a markdown hover, not swallowed as an HTML tag.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DocumentDiagnosticRequest, HoverRequest, type FullDocumentDiagnosticReport, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { auditSpec } from '../../server/src/audit/audit-spec.js';
import { hover } from '../../server/src/lsp/hover.js';
import type { DocumentAnalysis } from '../../server/src/lsp/document-analysis.js';
import { LineIndex } from '../../server/src/problems/line-index.js';
import { SpecVersion } from '../../server/src/host/spec-version.js';
import { auditFinished, pullClientCapabilities, rangeOf, tempFolder, TestClient } from './lsp-test-client.js';
import { sampleDir, searchR1Spec } from '../helpers/search-r1-spec.js';

const specFile = path.join(sampleDir, 'why.reward');

function analysisOf(text: string): DocumentAnalysis {
  const spec = SpecVersion.ofText(text, specFile);
  return { uri: 'file:///why.reward', version: 1, text, spec, analyzed: spec.analyzed, lines: new LineIndex(text), resultId: '' };
}

const hoverText = (value: ReturnType<typeof hover>): string => (value?.contents as MarkupContent).value;

describe('hover: doc strings and the pool profile (issue 37)', () => {
  const analysis = analysisOf(searchR1Spec);
  const at = (needle: string): number => searchR1Spec.indexOf(needle);

  it("escapes a doc string's markup in a markdown hover, and leaves it as written in plain text", () => {
    const markdown = hoverText(hover(analysis, at('R "the last'), true));
    assert.ok(markdown.includes('the last \\<answer\\>, grounded'), markdown);
    const plain = hoverText(hover(analysis, at('R "the last'), false));
    assert.ok(plain.includes('the last <answer>, grounded'), plain);
    assert.ok(!plain.includes('\\<'), plain);
  });

  it('shows no profile before an audit has read the pool', () => {
    assert.doesNotMatch(hoverText(hover(analysis, at('rollouts ='), true)), /pool profile/);
  });

  it("shows the pool's profile once an audit has read it, a part no row has in bold", async () => {
    const outcome = await auditSpec(searchR1Spec, specFile, { candidateCache: false });
    const text = hoverText(hover(analysis, at('rollouts ='), true, outcome.report));
    assert.ok(text.startsWith('pool `rollouts`'), text);
    assert.ok(text.includes('**pool profile** (audit `a`): rows of 400 that have each part: final answer 388 · **citations 0** · searches 396 · ' +
      'retrieved ids 396 · reasoning 400 · gold answers 400 · **gold support 0**'), text);
    assert.match(text, /Logged fields \(keys of meta, with their rows\): `dialect` 400, `step` 400, `score` 400, `prompt` 400, `ground_truth` 400, `transcript` 400/);
    // A plain-text client reads the same without marks.
    assert.match(hoverText(hover(analysis, at('rollouts ='), false, outcome.report)), /rows of 400 that have each part: final answer 388 · citations 0 · .*\n\nLogged fields \(keys of meta, with their rows\): dialect 400, step 400, score 400, prompt 400, ground_truth 400/);
    // Where the pool is named in the audit (`pools rollouts`), the same hover.
    assert.ok(hoverText(hover(analysis, searchR1Spec.indexOf('pools rollouts') + 'pools '.length, true, outcome.report)).includes('**citations 0**'));
  });
});

describe('issue 37 over stdio: the reason at the attack and the profile on the pool line', () => {
  let client: TestClient;
  const folder = tempFolder();
  const uri = folder.uri('why.reward');
  // The same spec in a folder of its own: its links made absolute.
  const spec = searchR1Spec.replace('"../pools/corpus.jsonl"', JSON.stringify(path.resolve(sampleDir, '../pools/corpus.jsonl')))
    .replace('"rollout/*.jsonl"', JSON.stringify(`${sampleDir}/rollout/*.jsonl`));

  before(async () => {
    fs.writeFileSync(path.join(folder.dir, 'why.reward'), spec);
    client = await TestClient.start({ capabilities: pullClientCapabilities });
  });
  after(async () => {
    await client.stop();
    folder.remove();
  });

  it('says why launder and same_final test nothing, on their lines, and shows the counts on the pool line', async () => {
    const done = auditFinished(client);
    await client.open(uri, spec);
    await done;
    const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
    const on = (needle: string, code: string): string[] => {
      const range = rangeOf(spec, needle);
      return report.items.filter((d) => d.code === code && d.range.start.line === range.start.line && d.range.start.character === range.start.character).map((d) => (typeof d.message === 'string' ? d.message : d.message.value));
    };
    assert.deepEqual(on('attack launder using lexical(8)', 'small-sample'), [
      'in audit a, no trajectory admits an isolated-eligible launder edit: the pool rollouts has no citations (0 of 400 rows), which launder edits: launder has nothing to edit; this attack tests nothing on these pools',
    ]);
    assert.match(on('attack same_final', 'small-sample')[0] ?? '', /which L reads: L cannot fire on any row, so no edit flips L 0 → 1 on any of the 384 rows with a same_final edit;/);
    assert.match(on('L "cites', 'empty-part')[0] ?? '', /^in audit a, L cannot fire on any row: the pool rollouts has no citations \(0 of 400 rows\)/);
    assert.match(on('ground      0.5', 'empty-part')[0] ?? '', /^in audit a, term ground of R is 0 on every row: the pool rollouts has no citations/);

    const poolHover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: rangeOf(spec, 'rollouts =').start });
    assert.match((poolHover?.contents as MarkupContent).value, /\*\*pool profile\*\* \(audit `a`\): rows of 400 that have each part: final answer 388 · \*\*citations 0\*\*/);
  });
});
