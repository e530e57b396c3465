import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { performance } from 'node:perf_hooks';
import { DidOpenTextDocumentNotification, DocumentDiagnosticRequest, type Diagnostic, type FullDocumentDiagnosticReport } from 'vscode-languageserver-protocol/node';
import { maxListedRows, maxRowDiagnostics } from '../../server/src/problems/limits.js';
import { auditStatusNotification, type AuditStatusParams } from '../../server/src/contract/protocol.js';
import { auditSpec } from '../inputs/workspace.js';
import { pullClientCapabilities, rangeOf, repoRoot, tempFolder, TestClient } from './lsp-test-client.js';

// Skipped pool rows reach the editor: a spec that links its pool relative to its own folder (as
// users write it) gets a `bad-rows` error on the pool declaration, with each skipped row as related
// information that opens the pool file at that line.

const pools = path.join(repoRoot, 'samples/pools');

/** Opens the spec, waits for its audit, and pulls its `bad-rows` diagnostics. */
async function auditedBadRows(client: TestClient, uri: string, spec: string): Promise<Diagnostic[]> {
  const finished = new Promise<AuditStatusParams>((resolve) => {
    client.connection.onNotification(auditStatusNotification, (p: AuditStatusParams) => {
      if (p.state !== 'running') resolve(p);
    });
  });
  await client.open(uri, spec);
  assert.notEqual((await finished).state, 'error');
  const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
  return report.items.filter((d) => d.code === 'bad-rows');
}

describe('skipped pool rows in the editor (stdio)', () => {
  const folder = tempFolder();
  const uri = folder.uri('rows.reward');
  const poolFile = path.join(folder.dir, 'pool.jsonl');
  const spec = `corpus wiki = "${pools}/corpus.jsonl"
pool small = "pool.jsonl"

detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved

reward R0 {
  answer 1.0 * token_f1(answer, gold.answers)
}

audit rows {
  reward R0
  corpus wiki
  pools small
  attack launder targets L using lexical(2)
}
`;
  let client: TestClient;

  before(async () => {
    const good = fs.readFileSync(path.join(pools, 'hotpot.jsonl'), 'utf8').split('\n').slice(0, 12);
    // Line 4 is not JSON; line 8 is a row without its question.
    const rows = [...good.slice(0, 3), '{"id": "broken", ', ...good.slice(3, 6), '{"id": "no-question#0", "steps": []}', ...good.slice(6)];
    fs.writeFileSync(poolFile, `${rows.join('\n')}\n`);
    fs.writeFileSync(path.join(folder.dir, 'rows.reward'), spec);
    client = await TestClient.start({ capabilities: pullClientCapabilities });
  });

  after(async () => {
    await client.stop();
    folder.remove();
  });

  it('shows a bad-rows error on the pool declaration, with each row as related information', async () => {
    const bad = await auditedBadRows(client, uri, spec);
    assert.equal(bad.length, 1);
    assert.deepEqual(bad[0]!.range, rangeOf(spec, 'pool small = "pool.jsonl"'));
    assert.equal(bad[0]!.severity, 1);
    assert.match(String(bad[0]!.message), /^2 rows skipped: pool\.jsonl:4: .*; pool\.jsonl:8: /);
    const related = bad[0]!.relatedInformation ?? [];
    assert.deepEqual(related.map((r) => [r.location.uri, r.location.range.start.line]), [[pathToFileURL(poolFile).href, 3], [pathToFileURL(poolFile).href, 7]]);
    assert.match(related[0]!.message, /^skipped row: /);
  });
});

describe('80,000 skipped rows in the editor (stdio)', () => {
  const folder = tempFolder();
  const uri = folder.uri('many.reward');
  const poolFile = path.join(folder.dir, 'many.jsonl');
  const spec = auditSpec(`${pools}/corpus.jsonl`, 'many.jsonl');
  const bad = 80_000;
  let client: TestClient;
  let poolText: string;

  before(async () => {
    const good = fs.readFileSync(path.join(pools, 'hotpot.jsonl'), 'utf8').split('\n').slice(0, 12);
    poolText = `${[...good, ...Array.from({ length: bad }, () => '{not json')].join('\n')}\n`;
    fs.writeFileSync(poolFile, poolText);
    fs.writeFileSync(path.join(folder.dir, 'many.reward'), spec);
    client = await TestClient.start({ capabilities: pullClientCapabilities });
  });

  after(async () => {
    await client.stop();
    folder.remove();
  });

  it("lists the spec's first 100 skipped rows as related information, then how many more", async () => {
    const found = await auditedBadRows(client, uri, spec);
    assert.equal(found.length, 1);
    const related = found[0]!.relatedInformation ?? [];
    assert.equal(related.length, maxListedRows + 1);
    assert.deepEqual([related[0]!.location.range.start.line, related[maxListedRows - 1]!.location.range.start.line], [12, 12 + maxListedRows - 1]);
    assert.equal(related[maxListedRows]!.message, `… and ${bad - maxListedRows} more`);
  });

  it('gives the open pool file its first 1,000 row diagnostics and one that counts the rest, quickly', async () => {
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: pathToFileURL(poolFile).href, languageId: 'jsonl', version: 1, text: poolText } });
    const started = performance.now();
    const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: pathToFileURL(poolFile).href } })) as FullDocumentDiagnosticReport;
    const ms = performance.now() - started;
    assert.equal(report.items.length, maxRowDiagnostics + 1);
    assert.deepEqual(report.items.slice(0, maxRowDiagnostics).map((d) => d.range.start.line), Array.from({ length: maxRowDiagnostics }, (_, k) => 12 + k));
    const last = report.items[maxRowDiagnostics]!;
    assert.equal(last.range.start.line, 12 + maxRowDiagnostics);
    assert.match(String(last.message), new RegExp(`^… and ${bad - maxRowDiagnostics} more from this line on: the editor shows the first 1,000 problems of a data file`));
    // 80,000 diagnostics in one message stalled the editor ~2 s; checking 80,000 rows stays well under this.
    assert.ok(ms < 10_000, `${ms.toFixed(0)} ms`);
  });
});
