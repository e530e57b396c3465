import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DidSaveTextDocumentNotification, DocumentDiagnosticRequest, HoverRequest, type FullDocumentDiagnosticReport } from 'vscode-languageserver-protocol/node';
import { trainingSignalStatusNotification, type TrainingSignalStatusParams } from '../../server/src/contract/protocol.js';
import { pullClientCapabilities, rangeOf, repoRoot, tempFolder, TestClient } from './lsp-test-client.js';

const pools = path.join(repoRoot, 'samples/pools');

const spec = (minGroups: number): string => `corpus wiki = "${pools}/corpus.jsonl"
pool train = "${pools}/train-R_L.jsonl"

detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved

reward R0 {
  answer    1.0 * token_f1(answer, gold.answers)
  grounding 0.6 * grounding(citations, gold.answers)
}

reward R_L = R0 - 1.2 * L

training exposure {
  reward R_L
  corpus wiki
  log train
  min_groups ${minGroups}
}
`;

/** L restated on the raw log: a corpus id among the citations that no search returned. */
function firingRows(): number {
  const corpus = new Set(fs.readFileSync(path.join(pools, 'corpus.jsonl'), 'utf8').split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { id: string }).id));
  return fs.readFileSync(path.join(pools, 'train-R_L.jsonl'), 'utf8').split('\n').filter((l) => l !== '').filter((line) => {
    const row = JSON.parse(line) as { steps: { results?: string[] }[]; final: { citations: string[] } | null };
    const retrieved = new Set(row.steps.flatMap((s) => s.results ?? []));
    return (row.final?.citations ?? []).some((c) => corpus.has(c) && !retrieved.has(c));
  }).length;
}

describe('training-signal audit in the editor (stdio)', () => {
  let client: TestClient;
  const folder = tempFolder();
  const uri = folder.uri('training.reward');
  const statuses: TrainingSignalStatusParams[] = [];
  let notify: (() => void) | undefined;
  const finished = (count: number): Promise<void> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (statuses.length >= count) resolve();
        else notify = check;
      };
      check();
    });
  const pull = async (): Promise<FullDocumentDiagnosticReport> =>
    (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;

  before(async () => {
    fs.writeFileSync(path.join(folder.dir, 'training.reward'), spec(1000));
    client = await TestClient.start({ capabilities: pullClientCapabilities });
    client.connection.onNotification(trainingSignalStatusNotification, (p: TrainingSignalStatusParams) => {
      statuses.push(p);
      notify?.();
    });
  });

  after(async () => {
    await client.stop();
    folder.remove();
  });

  it('warns on the penalty term when it changes the advantages in fewer groups than min_groups', async () => {
    await client.open(uri, spec(1000));
    await finished(1);
    assert.equal(statuses[0]!.state, 'done', statuses[0]!.message);
    const warnings = (await pull()).items.filter((d) => d.code === 'sparse-training-signal');
    assert.equal(warnings.length, 1);
    assert.deepEqual(warnings[0]!.range, rangeOf(spec(1000), '- 1.2 * L'));
    assert.equal(warnings[0]!.severity, 2);
    assert.match(warnings[0]!.message as string, new RegExp(`^L's penalty reaches the optimizer in \\d+ of 128 training groups \\(training 'exposure' asks for 1000\\): it fires on ${firingRows()} of 1024 rows`));
  });

  it('explains the group-normalisation identity with the figures in the detector hover', async () => {
    const position = rangeOf(spec(1000), 'L "cites').start;
    const hover = (await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position }))?.contents as { value: string };
    assert.match(hover.value, /\*\*training signal `exposure`\*\*/);
    assert.ok(hover.value.includes(`fires on ${firingRows()} of 1024 rows`), hover.value);
    assert.ok(hover.value.includes("r̃'_i = (r_i − r̄_g) − λ(ℓ_i − ℓ̄_g)"), hover.value);
    assert.match(hover.value, /Group normalisation \(λ = 1\.2\)/);
    assert.match(hover.value, /changes the normalised advantages in \*\*\d+\*\* groups and is exactly cancelled in \d+ ✗ \(min_groups 1000\)/);
    assert.match(hover.value, /Cancelled: group `s\d{3}-g\d` \(step \d+\) fires on \d of 8: the advantages do not move/);
  });

  it('drops the warning after a save that lowers min_groups below the groups reached', async () => {
    const lowered = spec(1);
    await client.replace(uri, lowered, 2);
    await client.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
    await finished(2);
    assert.deepEqual((await pull()).items.filter((d) => d.code === 'sparse-training-signal'), []);
  });
});
