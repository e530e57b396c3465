import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { importers } from '../../server/src/importers/registry.js';
import { importFormatsRequest, poolProfileRequest } from '../../server/src/contract/protocol.js';
import { pullClientCapabilities, repoRoot, tempFolder, TestClient } from './lsp-test-client.js';

// What "HERALD: New Spec" asks the server before writing (server/src/lsp/new-spec-requests.ts): the
// profile of the chosen pools, read in the import worker as a linked pool is, and the log formats
// with the one the logs look like first; both under the workspace's trust rule.

describe('the New Spec requests over the language server', () => {
  let client: TestClient;
  let untrusted: TestClient;
  const folder = tempFolder();
  const rollout = path.join(folder.dir, 'rollout');
  const walkthroughPools = path.join(repoRoot, 'walkthrough/sample/pools');
  const outside = tempFolder();

  before(async () => {
    fs.cpSync(path.join(repoRoot, 'samples/search-r1/rollout'), rollout, { recursive: true });
    fs.copyFileSync(path.join(walkthroughPools, 'hotpot.jsonl'), path.join(outside.dir, 'hotpot.jsonl'));
    client = await TestClient.start({ capabilities: pullClientCapabilities, settings: { audit: { run: 'manual' } } });
    untrusted = await TestClient.start({
      capabilities: pullClientCapabilities, settings: { audit: { run: 'manual' } },
      workspace: { workspaceFolders: [{ uri: pathToFileURL(folder.dir).href, name: 'workspace' }], initializationOptions: { workspaceTrusted: false } },
    });
  });
  after(async () => {
    await client.stop();
    await untrusted.stop();
    folder.remove();
    outside.remove();
  });

  const rolloutFiles = (): string[] => fs.readdirSync(rollout).sort().map((name) => path.join(rollout, name));

  it("profiles Search-R1's verl dump through the importer: 400 rows, none citing", async () => {
    const result = await client.connection.sendRequest(poolProfileRequest, { files: rolloutFiles(), from: { format: 'verl', options: { dialect: 'search_r1' } } });
    assert.equal(result.kind, 'profile', JSON.stringify(result));
    if (result.kind !== 'profile') return;
    assert.equal(result.profile.rows, 400);
    assert.equal(result.profile.withCitations, 0);
    assert.equal(result.profile.withAnswer, 388);
    assert.ok(result.profile.withSearches > 0);
  });

  it('profiles pool files together, each read as a pool of its own', async () => {
    const files = ['hotpot.jsonl', '2wiki.jsonl'].map((name) => path.join(walkthroughPools, name));
    const result = await client.connection.sendRequest(poolProfileRequest, { files });
    assert.equal(result.kind, 'profile');
    if (result.kind !== 'profile') return;
    assert.equal(result.profile.rows, 320);
    assert.ok(result.profile.withCitations > 0);
  });

  it('says why when the files cannot be read: an unknown format, a file outside an untrusted workspace', async () => {
    const unknown = await client.connection.sendRequest(poolProfileRequest, { files: rolloutFiles(), from: { format: 'nope', options: {} } });
    assert.equal(unknown.kind, 'unavailable');
    assert.match(unknown.kind === 'unavailable' ? unknown.reason : '', /no importer 'nope'/u);
    const refused = await untrusted.connection.sendRequest(poolProfileRequest, { files: [path.join(outside.dir, 'hotpot.jsonl')] });
    assert.equal(refused.kind, 'unavailable', JSON.stringify(refused));
    const inside = await untrusted.connection.sendRequest(poolProfileRequest, { files: rolloutFiles().slice(0, 1), from: { format: 'verl', options: {} } });
    assert.equal(inside.kind, 'profile', JSON.stringify(inside));
  });

  it('lists the formats with the one the logs look like first', async () => {
    const result = await client.connection.sendRequest(importFormatsRequest, { files: rolloutFiles() });
    assert.equal(result.guessed, 'verl');
    assert.deepEqual(result.formats.map((f) => f.format), ['verl', ...importers.map((i) => i.format).filter((f) => f !== 'verl')]);
    assert.ok(result.formats.every((f) => f.summary !== ''));
    const skyrl = path.join(repoRoot, 'test/importers/fixtures/skyrl-global_step_40_evals-hotpotqa.jsonl');
    assert.equal((await client.connection.sendRequest(importFormatsRequest, { files: [skyrl] })).guessed, 'skyrl');
    const refused = await untrusted.connection.sendRequest(importFormatsRequest, { files: [path.join(outside.dir, 'hotpot.jsonl')] });
    assert.equal(refused.guessed, null);
    assert.ok(refused.unreadable !== undefined && refused.unreadable.startsWith('hotpot.jsonl: '), JSON.stringify(refused));
  });
});
