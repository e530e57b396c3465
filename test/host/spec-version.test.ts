import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditSpec, newAuditCaches } from '../../server/src/audit/audit-spec.js';
import { runAuditCommand } from '../../server/src/cli/audit-command.js';
import { SpecVersion } from '../../server/src/host/spec-version.js';
import { probeFileUnder } from '../../server/src/inputs/file-probe.js';
import { WorkspaceTrust } from '../../server/src/inputs/trust.js';
import { runAnalyses, type PartReply } from '../../server/src/lsp/analysis-run.js';
import { signalSpec } from '../../server/src/signal/signal-spec.js';
import { parsesSoFar } from '../../server/src/syntax/parse.js';
import { auditAndTrainingSpec } from '../helpers/audit-and-training-spec.js';

const samples = path.resolve(__dirname, '../../../samples');

/** The parses `run` makes on this thread. */
async function parsesOf(run: () => Promise<unknown>): Promise<number> {
  const before = parsesSoFar();
  await run();
  return parsesSoFar() - before;
}

describe('the analysis host: one parse and check per version', () => {
  it("a save in the editor: the server thread's check, then the worker's audit and training signal on the bound model, parse the spec once", async () => {
    const text = auditAndTrainingSpec();
    const specFile = path.join(samples, 'both.reward');
    const replies: PartReply[] = [];
    const parses = await parsesOf(async () => {
      // The server thread: the keystroke check, bound and copied to the worker as postMessage copies it.
      const version = SpecVersion.ofText(text, specFile, { probeFile: probeFileUnder(WorkspaceTrust.everything) });
      assert.deepEqual(version.checked.problems.filter((p) => p.severity === 'error'), []);
      const spec = structuredClone(version.bound);
      await runAnalyses(1, { spec, audits: true, signals: true, comparisons: false }, { cache: newAuditCaches(), isCancelled: () => false, onProgress: () => undefined }, (r) => replies.push(r));
    });
    assert.equal(parses, 1, 'before the host: 3 (the server thread, then the worker for the audits and again for the training signal)');
    const audits = replies.find((r) => r.kind === 'audits');
    const training = replies.find((r) => r.kind === 'training');
    assert.ok(audits?.outcome.state === 'done' && training?.outcome.state === 'done' && training.outcome.results.ok);
    // The same figures as an analysis that parses the text itself.
    assert.deepEqual(audits.outcome.results.report, (await auditSpec(text, specFile)).report);
    assert.deepEqual(training.outcome.results.signals, (await signalSpec(text, specFile)).reports);
  });

  it('a bound version has no syntax tree: a thread that was handed the model cannot parse it again by accident', () => {
    const version = SpecVersion.ofBound(SpecVersion.ofText('detector D "d" = has_final\n', '/tmp/x.reward').bound);
    assert.throws(() => version.analyzed, /bound spec version has no syntax tree/);
    assert.equal(version.checked.model.globals.get('D')?.kind, 'detector');
  });

  it('`herald audit` parses the spec once: the names it checks, the programs it refuses, the files it will not overwrite and the audit share it', async () => {
    const specFile = path.join(samples, 'paper.reward');
    assert.ok(fs.existsSync(specFile));
    let written = '';
    const io = { out: () => undefined, err: () => undefined, write: (t: string) => { written += t; } };
    let code = -1;
    const parses = await parsesOf(async () => {
      code = await runAuditCommand([specFile, '--format', 'json', '--audit', 'paper', '--no-cache', '--quiet'], io);
    });
    assert.equal(code, 0);
    assert.equal(parses, 1, 'before the host: 3 (the names, the files read, the audit)');
    assert.match(written, /"name": "paper"/);
  });
});
