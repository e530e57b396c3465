import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { DocumentDiagnosticRequest, ExecuteCommandRequest, type FullDocumentDiagnosticReport, type ShowMessageParams } from 'vscode-languageserver-protocol/node';
import {
  auditStatusNotification, trainingSignalStatusNotification, type AuditStatusParams, type TrainingSignalStatusParams,
} from '../../server/src/contract/protocol.js';
import { pullClientCapabilities, rangeOf, repoRoot, tempFolder, TestClient } from './lsp-test-client.js';
import { comparisonSpec } from '../inputs/workspace.js';

const pools = path.join(repoRoot, 'samples/pools');

const specLinking = (corpus: string, pool: string): string => `corpus wiki = "${corpus}"
pool hotpot = "${pool}"

detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved

reward R0 {
  answer 1.0 * token_f1(answer, gold.answers)
}

reward R_L = R0 - 1.2 * L

audit quick {
  reward R0
  compare R_L
  corpus wiki
  pools hotpot
  attack launder targets L using lexical(2)
  lattice L = 1.2
}
`;


describe('an untrusted workspace (stdio, as VS Code restricted mode starts the server)', () => {
  // The workspace is one folder; the sample pools in the repository are outside it.
  const root = tempFolder();
  const workspace = path.join(root.dir, 'workspace');
  const outside = specLinking(path.join(pools, 'corpus.jsonl'), path.join(pools, 'hotpot.jsonl'));
  const inside = specLinking('data/corpus.jsonl', 'data/hotpot.jsonl');
  const statuses: AuditStatusParams[] = [];
  const trainingStatuses: TrainingSignalStatusParams[] = [];
  const messages: ShowMessageParams[] = [];
  let notify: (() => void) | undefined;
  let client: TestClient;

  const waitFor = <T extends { uri: string; state: string }>(list: T[], uri: string): Promise<T> =>
    new Promise((resolve) => {
      const check = (): void => {
        const found = list.find((s) => s.uri === uri && s.state !== 'running');
        if (found === undefined) notify = check;
        else resolve(found);
      };
      check();
    });
  const statusFor = (uri: string): Promise<AuditStatusParams> => waitFor(statuses, uri);
  const pull = async (uri: string): Promise<FullDocumentDiagnosticReport> =>
    (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;

  before(async () => {
    fs.mkdirSync(path.join(workspace, 'data'), { recursive: true });
    fs.copyFileSync(path.join(pools, 'corpus.jsonl'), path.join(workspace, 'data/corpus.jsonl'));
    fs.copyFileSync(path.join(pools, 'hotpot.jsonl'), path.join(workspace, 'data/hotpot.jsonl'));
    fs.writeFileSync(path.join(workspace, 'outside.reward'), outside);
    fs.writeFileSync(path.join(workspace, 'inside.reward'), inside);
    // A link that looks inside but is a symbolic link to the outside pool.
    fs.symlinkSync(path.join(pools, 'hotpot.jsonl'), path.join(workspace, 'data/linked.jsonl'));
    client = await TestClient.start({
      capabilities: pullClientCapabilities,
      workspace: { workspaceFolders: [{ uri: pathToFileURL(workspace).href, name: 'workspace' }], initializationOptions: { workspaceTrusted: false } },
    });
    client.connection.onNotification(auditStatusNotification, (p: AuditStatusParams) => {
      statuses.push(p);
      notify?.();
    });
    client.connection.onNotification(trainingSignalStatusNotification, (p: TrainingSignalStatusParams) => {
      trainingStatuses.push(p);
      notify?.();
    });
    client.connection.onNotification('window/showMessage', (p: ShowMessageParams) => {
      messages.push(p);
    });
  });

  after(async () => {
    await client.stop();
    root.remove();
  });

  it('checks a spec that links files outside the workspace, reads none of them, and does not audit it', async () => {
    const uri = pathToFileURL(path.join(workspace, 'outside.reward')).href;
    await client.open(uri, outside);
    const status = await statusFor(uri);
    assert.equal(status.state, 'skipped');
    assert.equal(status.message, 'not audited: 2 linked files are outside this untrusted workspace');
    const items = (await pull(uri)).items;
    const untrusted = items.filter((d) => d.code === 'untrusted-file');
    assert.deepEqual(untrusted.map((d) => d.range), [rangeOf(outside, `"${path.join(pools, 'corpus.jsonl')}"`), rangeOf(outside, `"${path.join(pools, 'hotpot.jsonl')}"`)]);
    assert.match(untrusted[0]!.message as string, /is outside this untrusted workspace; trust the workspace to check and audit it/);
    // The checker still works on the text itself.
    assert.deepEqual(items.filter((d) => d.severity === 1), []);
  });

  it('audits a spec whose data is inside the workspace', async () => {
    const uri = pathToFileURL(path.join(workspace, 'inside.reward')).href;
    await client.open(uri, inside);
    const status = await statusFor(uri);
    assert.equal(status.state, 'passed', status.message);
    assert.deepEqual((await pull(uri)).items.filter((d) => d.code === 'untrusted-file'), []);
  });

  it('follows symbolic links: a link inside the workspace to a file outside is not read', async () => {
    const text = inside.replace('data/hotpot.jsonl', 'data/linked.jsonl');
    const uri = pathToFileURL(path.join(workspace, 'linked.reward')).href;
    fs.writeFileSync(path.join(workspace, 'linked.reward'), text);
    await client.open(uri, text);
    assert.equal((await statusFor(uri)).state, 'skipped');
    assert.deepEqual((await pull(uri)).items.filter((d) => d.code === 'untrusted-file').map((d) => d.range), [rangeOf(text, '"data/linked.jsonl"')]);
  });

  it('a comparison whose candidates are outside the workspace is not run, and the link says why', async () => {
    const text = comparisonSpec('data/corpus.jsonl', 'data/hotpot.jsonl', path.join(pools, 'dense-candidates.jsonl'));
    const uri = pathToFileURL(path.join(workspace, 'compare.reward')).href;
    fs.writeFileSync(path.join(workspace, 'compare.reward'), text);
    await client.open(uri, text);
    const status = await waitFor(trainingStatuses, uri);
    assert.equal(status.state, 'skipped');
    assert.deepEqual((await pull(uri)).items.filter((d) => d.code === 'untrusted-file').map((d) => d.range), [rangeOf(text, `"${path.join(pools, 'dense-candidates.jsonl')}"`)]);
  });

  it('a baseline that is a link to an outside file, existing or not yet, is not read: the audit is skipped and its status names the baseline', async () => {
    fs.writeFileSync(path.join(root.dir, 'outside-baseline.json'), '{"version": 1, "audits": {}}');
    const cases: [string, string][] = [['existing', path.join(root.dir, 'outside-baseline.json')], ['dangling', path.join(root.dir, 'not-yet.json')]];
    for (const [name, target] of cases) {
      const specPath = path.join(workspace, `${name}.reward`);
      fs.writeFileSync(specPath, inside);
      fs.symlinkSync(target, `${specPath}.baseline.json`);
      const uri = pathToFileURL(specPath).href;
      await client.open(uri, inside);
      const status = await statusFor(uri);
      assert.equal(status.state, 'skipped', name);
      assert.equal(status.message, `not audited: 1 linked file is outside this untrusted workspace (the baseline ${name}.reward.baseline.json among them)`);
    }
    assert.ok(!fs.existsSync(path.join(root.dir, 'not-yet.json')));
  });

  it('accepting the baseline never writes through a symbolic link: the outside file is left alone and the user is told', async () => {
    const uri = pathToFileURL(path.join(workspace, 'inside.reward')).href;
    // The spec was audited above; since then its baseline's name became a link to an outside file.
    const victim = path.join(root.dir, 'victim.json');
    fs.writeFileSync(victim, 'precious\n');
    fs.symlinkSync(victim, path.join(workspace, 'inside.reward.baseline.json'));
    const accepted = await client.connection.sendRequest(ExecuteCommandRequest.type, { command: 'herald.acceptBaseline', arguments: [uri] });
    assert.equal(accepted, false);
    assert.equal(fs.readFileSync(victim, 'utf8'), 'precious\n');
    assert.ok(fs.lstatSync(path.join(workspace, 'inside.reward.baseline.json')).isSymbolicLink());
    assert.ok(messages.some((m) => /the baseline was not written: .*inside\.reward\.baseline\.json is a symbolic link/.test(m.message)), JSON.stringify(messages));
    // With the link gone, accepting writes a regular file in the workspace.
    fs.rmSync(path.join(workspace, 'inside.reward.baseline.json'));
    assert.equal(await client.connection.sendRequest(ExecuteCommandRequest.type, { command: 'herald.acceptBaseline', arguments: [uri] }), true);
    assert.ok(fs.lstatSync(path.join(workspace, 'inside.reward.baseline.json')).isFile());
  });
});
