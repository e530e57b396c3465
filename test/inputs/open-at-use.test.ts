// Issue 13, item 3 (time of check, time of use): trust is decided on the server thread, but the
// file is opened later in the worker. The opening itself checks: the descriptor that is read must
// be a regular file that the path, resolved again after the open, names inside the workspace.
import { analysisRequest } from '../helpers/analysis-request.js';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { newAuditCaches } from '../../server/src/audit/audit-spec.js';
import { maxInputBytes } from '../../server/src/inputs/input-limits.js';
import { checkOpened, linkedFileAccess, openInput, readOpened } from '../../server/src/inputs/open-input.js';
import { WorkspaceTrust } from '../../server/src/inputs/trust.js';
import { runAnalyses, type AuditResults, type Outcome, type PartReply } from '../../server/src/lsp/analysis-run.js';
import { auditSpec, workspace } from './workspace.js';

describe('openInput checks the descriptor it opened', () => {
  const ws = workspace();
  const inside = ws.write('data/inside.txt', 'IN\n');
  const outsideFile = path.join(ws.outside, 'out.txt');
  fs.writeFileSync(outsideFile, 'OUT\n');
  const untrusted = linkedFileAccess(new WorkspaceTrust(false, [ws.dir]));

  it('refuses a descriptor of another file than the path now leads to (a link flipped back after the open)', () => {
    const link = ws.link('data/flip.txt', inside);
    // What a flip between the check and the open does: the open followed the link while it pointed outside.
    const opened = checkOpened(link, fs.openSync(outsideFile, 'r'), untrusted);
    assert.deepEqual(opened, { ok: false, missing: false, reason: 'changed while it was opened (a symbolic link moved): not read' });
  });

  it('refuses a descriptor whose path now resolves outside the workspace', () => {
    const link = ws.link('data/flip.txt', outsideFile);
    assert.deepEqual(checkOpened(link, fs.openSync(inside, 'r'), untrusted), { ok: false, missing: false, reason: 'outside this untrusted workspace: not read' });
  });

  it('accepts the file the path leads to, and a trusted workspace reads anything', () => {
    const link = ws.link('data/flip.txt', inside);
    const opened = openInput(link, untrusted);
    assert.ok(opened.ok);
    assert.equal(readOpened(opened, 100).toString(), 'IN\n');
    const outsideLink = ws.link('data/out-link.txt', outsideFile);
    assert.deepEqual(openInput(outsideLink, untrusted), { ok: false, missing: false, reason: 'outside this untrusted workspace: not read' });
    const trusted = openInput(outsideLink, linkedFileAccess(WorkspaceTrust.everything));
    assert.ok(trusted.ok);
    assert.equal(readOpened(trusted, 100).toString(), 'OUT\n');
  });

  it('never reads the outside file while a link flips between inside and outside as fast as it can', async (t) => {
    const link = path.join(ws.dir, 'data/racing.txt');
    fs.symlinkSync(inside, link);
    // A separate process swaps the link atomically (rename over it), as fast as it can.
    const flipper = spawn(process.execPath, ['-e', `
      const fs = require('fs');
      const [link, a, b] = ${JSON.stringify([link, inside, outsideFile])};
      for (let i = 0; ; i++) { const tmp = link + '.tmp'; try { fs.symlinkSync(i % 2 ? a : b, tmp); fs.renameSync(tmp, link); } catch {} }
    `], { stdio: 'ignore' });
    try {
      const counts = { read: 0, refused: 0, naiveLeaks: 0 };
      const trust = new WorkspaceTrust(false, [ws.dir]);
      const deadline = Date.now() + 4000;
      while (Date.now() < deadline) {
        const opened = openInput(link, untrusted);
        if (opened.ok) {
          assert.equal(readOpened(opened, maxInputBytes).toString(), 'IN\n', 'the outside file was read');
          counts.read += 1;
        } else {
          counts.refused += 1;
        }
        // The control: check the path, then open it by name, as the worker did before.
        try {
          if (trust.allows(link) && fs.readFileSync(link, 'utf8') === 'OUT\n') counts.naiveLeaks += 1;
        } catch {
          // The link was between two states.
        }
      }
      t.diagnostic(`checked opens: ${counts.read} read the inside file, ${counts.refused} refused; check-then-open by name read the outside file ${counts.naiveLeaks} times`);
      assert.ok(counts.read > 0 && counts.refused > 0, 'the link flipped while it was opened');
    } finally {
      flipper.kill();
    }
  });
});

describe('the analysis worker opens files under the trust rule the request carries', () => {
  const ws = workspace();
  // The worker's audits keep rankings in the default cache folder: here, one of this test's own.
  process.env['HERALD_CACHE_DIR'] = path.join(ws.root, 'cache');
  // Every row id of the outside pool is marked, so a report built from it would show.
  const outsidePool = path.join(ws.outside, 'hotpot.jsonl');
  fs.writeFileSync(outsidePool, fs.readFileSync(outsidePool, 'utf8').replace(/"id":"/g, '"id":"OUTSIDE-'));
  const specFile = path.join(ws.dir, 'linked.reward');
  const text = auditSpec('data/corpus.jsonl', 'data/linked.jsonl');

  async function audit(untrustedFolders: readonly string[] | undefined): Promise<Outcome<AuditResults>> {
    const replies: PartReply[] = [];
    const request = analysisRequest(text, specFile, { audits: true, signals: false, comparisons: false, ...(untrustedFolders === undefined ? {} : { untrustedFolders }) });
    await runAnalyses(1, request, { cache: newAuditCaches(), isCancelled: () => false, onProgress: () => undefined }, (r) => replies.push(r));
    const reply = replies.find((r) => r.kind === 'audits');
    assert.ok(reply?.kind === 'audits');
    return reply.outcome;
  }

  it('a link that points outside by the time the worker opens it is not read', async () => {
    // The server thread saw an inside file; by the time the worker runs, the link leads outside.
    ws.link('data/linked.jsonl', outsidePool);
    const outcome = await audit([ws.dir]);
    assert.equal(outcome.state, 'done');
    assert.ok(outcome.state === 'done');
    assert.equal(outcome.results.report, undefined);
    assert.deepEqual(outcome.results.dataIssues.map((i) => i.reason), [`${path.join(ws.dir, 'data/linked.jsonl')}: cannot read: outside this untrusted workspace: not read`]);
    assert.ok(!JSON.stringify(outcome).includes('OUTSIDE-'));
  });

  it('the same request in a trusted workspace reads it (the control)', async () => {
    ws.link('data/linked.jsonl', outsidePool);
    const outcome = await audit(undefined);
    assert.ok(outcome.state === 'done' && outcome.results.report !== undefined);
    assert.ok(JSON.stringify(outcome.results.report).includes('OUTSIDE-'));
  });
});
