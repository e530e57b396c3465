import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LogMessageNotification, MessageType } from 'vscode-languageserver-protocol/node';
import { expectationLabel, expectationVerdict, notAuditedVerdict } from '../../client/src/expectation-results.js';
import { auditStatusNotification, runAuditRequest, specOutlineRequest, type AuditStatusParams } from '../../server/src/contract/protocol.js';
import { specOutline } from '../../server/src/lsp/spec-outline.js';
import { auditLogLine, serverStartLine } from '../../server/src/lsp/server-log.js';
import { paperSpec, pullClientCapabilities, repoRoot, tempFolder, TestClient } from './lsp-test-client.js';

// The Test Explorer's side of the server: the `expect` lines of a spec's text, and how each fares in
// the report a run answers with (client/src/expectation-results.ts reads it); and the log lines the
// HERALD output channel shows for each audit.

const sampleDir = path.join(repoRoot, 'walkthrough/sample');
const sample = fs.readFileSync(path.join(sampleDir, 'paper.reward'), 'utf8');
const expectationLines = (text: string) => specOutline(text).expectations;

describe('spec outlines for the Test Explorer and the tasks', () => {
  it('names the analysis blocks', () => {
    const training = fs.readFileSync(path.join(repoRoot, 'samples/training.reward'), 'utf8');
    assert.deepEqual(specOutline(paperSpec).blocks, [{ kind: 'audit', name: 'paper' }]);
    assert.deepEqual(specOutline(training).blocks.map((b) => b.kind), ['training', 'comparison']);
  });

  it('lists every expect line with its audit, text and range, from the text alone', () => {
    const lines = expectationLines(paperSpec);
    assert.deepEqual(lines.map((l) => [l.audit, l.text]), [
      ['paper', 'expect asr(R_L, launder, oracle_worst) == 0'],
      ['paper', 'expect asr(R0, launder, first_visible) <= 20%'],
      ['paper', 'expect minimal_repair == {L}'],
    ]);
    const first = lines[0]!;
    const lineText = paperSpec.split('\n')[first.range.start.line] ?? '';
    assert.equal(lineText.slice(first.range.start.character, first.range.end.character), first.text);
    assert.equal(expectationLabel(first), 'asr(R_L, launder, oracle_worst) == 0');
  });

  it('lists the lines of a spec with checker errors and skips audits without a name', () => {
    const text = 'audit broken {\n  reward Nope\n  expect   minimal_repair ==\n    {L}\n}\naudit {\n  expect minimal_repair == {}\n}\n';
    assert.deepEqual(expectationLines(text).map((l) => [l.audit, l.text, l.range.start.line, l.range.end.line]), [['broken', 'expect minimal_repair == {L}', 2, 3]]);
    assert.deepEqual(expectationLines('reward R0 { a 1.0 * answer_f1 }'), []);
  });

  describe('over the language server', () => {
    let client: TestClient;
    const folder = tempFolder();
    const logged: string[] = [];
    before(async () => {
      fs.cpSync(sampleDir, folder.dir, { recursive: true });
      client = await TestClient.start({ capabilities: pullClientCapabilities, settings: { audit: { run: 'manual' } } });
      client.connection.onNotification(LogMessageNotification.type, (p) => {
        if (p.type === MessageType.Info) logged.push(p.message);
      });
    });
    after(async () => {
      await client.stop();
      folder.remove();
    });

    it('answers herald/specOutline for a spec that is not open', async () => {
      assert.deepEqual(await client.connection.sendRequest(specOutlineRequest, { text: sample }), specOutline(sample));
    });

    it('marks each line passed with the observed figure after a run, and logs what the audit did', async () => {
      const uri = folder.uri('paper.reward');
      await client.open(uri, sample);
      const result = await client.connection.sendRequest(runAuditRequest, { uri });
      const verdicts = expectationLines(sample).map((line) => expectationVerdict(line, result, 'not audited'));
      assert.deepEqual(verdicts.map((v) => v.state), ['passed', 'passed', 'passed']);
      assert.match(verdicts[0]!.message, /^asr = 0\.00% over 40 isolated-eligible clusters$/);
      assert.equal(verdicts[2]!.message, 'observed inclusion-minimal: {L}');
      assert.ok(logged.some((l) => /^audit of \/.*\/paper\.reward: ran paper; in \d+\.\d s; 0 rows skipped; 3\/3 expectations hold$/.test(l)), logged.join('\n'));
    });

    it('marks a line that fails with the figure and what it expected, and one the audit never reached as errored', async () => {
      const uri = folder.uri('failing.reward');
      const text = sample.replace('expect asr(R0, launder, first_visible) <= 20%', 'expect asr(R0, launder, first_visible) <= 1%');
      await client.open(uri, text);
      const result = await client.connection.sendRequest(runAuditRequest, { uri });
      const [, failing] = expectationLines(text).map((line) => expectationVerdict(line, result, 'not audited'));
      assert.equal(failing?.state, 'failed');
      assert.match(failing?.message ?? '', /^asr = \d+\.\d+% over 40 isolated-eligible clusters \(expected asr\(R0, launder, first_visible\) <= 1%\)$/);
      const moved = { audit: 'paper', text: 'expect minimal_repair == {L}', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } };
      assert.equal(expectationVerdict(moved, result, 'not audited').state, 'errored');
      assert.deepEqual(expectationVerdict(moved, null, 'not audited: line 3: unknown name'), { state: 'errored', message: 'not audited: line 3: unknown name' });
    });

    it('marks every line of a spec with errors errored with the server\'s "not audited" status, never the last verdict', async () => {
      const uri = folder.uri('typo.reward');
      const text = sample.replace('compare R_L,', 'compare R_LL,');
      const status = new Promise<AuditStatusParams>((resolve) => {
        client.connection.onNotification(auditStatusNotification, (p) => {
          if (p.uri === uri && p.state !== 'running') resolve(p);
        });
      });
      await client.open(uri, text);
      // Manual mode: the run asked for is the one that finds the errors.
      assert.equal(await client.connection.sendRequest(runAuditRequest, { uri }), null);
      const said = await status;
      assert.match(said.message, /^not audited: \d+ errors?; line \d+: unknown reward 'R_LL'/);
      const verdicts = expectationLines(text).map(() => notAuditedVerdict(said));
      assert.deepEqual(verdicts, expectationLines(text).map(() => ({ state: 'errored', message: said.message })));
      // Fixed but not audited since: no verdict, not the last one.
      assert.deepEqual(notAuditedVerdict({ uri, state: 'notAudited', message: 'not audited since its errors were fixed: save the spec to audit it' }),
        { state: 'skipped', message: 'not audited since its errors were fixed: save the spec to audit it' });
      assert.equal(notAuditedVerdict({ uri, state: 'passed', message: '3 of 3 expectations hold' }), undefined);
    });
  });
});

describe('the server log lines', () => {
  it('names the server version and the trust mode', () => {
    assert.match(serverStartLine(true), /^HERALD language server \d+\.\d+\.\d+ \(Node v\d+[^,]*, trusted\)$/);
    assert.match(serverStartLine(false), /untrusted: no program runs and no linked file outside the workspace folders is read; the client trusts a workspace with initializationOptions\.workspaceTrusted = true\)$/);
  });

  it('says what a run did, including skipped rows, unreadable files and failures', () => {
    const results = {
      report: undefined, failures: [{ audit: 'paper', reason: 'a term is not finite' }], dataOwners: new Map(),
      dataIssues: [{ file: 'pools/a.jsonl', line: 3, reason: 'not JSON' }, { file: 'pools/a.jsonl', line: 9, reason: 'no id' }, { file: '', line: 0, reason: 'missing' }],
    };
    assert.equal(auditLogLine('file:///w/x.reward', 1234, true, { state: 'done', results }),
      'audit of /w/x.reward: produced no report; in 1.2 s; 2 rows skipped; 1 file unreadable; audit paper could not run: a term is not finite');
    assert.equal(auditLogLine('file:///w/x.reward', 50, true, { state: 'cancelled' }), 'audit of /w/x.reward cancelled after 0.1 s: a newer edit, save or request replaced it');
    assert.equal(auditLogLine('file:///w/x.reward', 50, false, { state: 'done', results }), 'audit of /w/x.reward cancelled after 0.1 s: a newer edit, save or request replaced it');
    assert.equal(auditLogLine('file:///w/x.reward', 2000, true, { state: 'failed', error: 'boom' }), 'audit of /w/x.reward failed after 2.0 s');
  });
});
