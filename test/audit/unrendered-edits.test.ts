// An edit the log's format cannot write back (importers/render.ts) is not counted: on a Hermes log
// where one call searched two queries, deleting one of them has no response a framework would log,
// so a reward that reads the response is never scored on it, and the report says how many and why.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { auditSpec, newAuditCaches } from '../../server/src/audit/audit-spec.js';
import { describeAudit } from '../../server/src/render/format-document.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { auditFindings } from '../../server/src/findings/audit-findings.js';
import { repoRoot, tempFolder } from '../lsp/lsp-test-client.js';

const log = 'skyrl-global_step_1_evals-hermes.jsonl';

function spec(reads: boolean, conforms = ''): string {
  return `corpus wiki = "${path.join(repoRoot, 'samples/pools/corpus.jsonl')}"
pool runs = "${log}" from skyrl(dialect: hermes)

field response "the response as SkyRL logged it" : text = meta.transcript
signal answered "the response holds a tool response" = contains(response, "<tool_response>")
detector T "fewer than two searches" = search_calls < 2

edit drop_search "delete one search" = delete each s in steps where s.type == "search"

reward R "a tool response is worth a point" {
  ${reads ? 'a 1 * answered' : 'b 1 * has_final'}
  cost -0.1 * search_calls
}

audit a {
  reward R
  corpus wiki
  pools runs
  attack drop_search targets T
${conforms}}
`;
}

describe('edits a format cannot write back', () => {
  const folder = tempFolder();
  fs.copyFileSync(path.join(repoRoot, 'test/importers/fixtures/torture', log), path.join(folder.dir, log));
  after(() => folder.remove());

  const audit = async (reads: boolean) => {
    const file = path.join(folder.dir, 'spec.reward');
    fs.writeFileSync(file, spec(reads));
    const outcome = await auditSpec(spec(reads), file, { cache: newAuditCaches(), candidateCache: false });
    const report = outcome.report?.audits[0];
    assert.ok(report, JSON.stringify(outcome.problems ?? []));
    return report;
  };

  it('are counted constructible only, with the first one and why, when a term reads the rendered response', async () => {
    const report = await audit(true);
    const attack = report.attacks[0]!;
    // The two-query call: deleting either of its searches cannot be written; the one-query search of another row can.
    assert.deepEqual(attack.unrendered, {
      edits: 2,
      first: { trajectory: 'global_step_1/0#0', pool: 'runs', file: log, line: 1, reason: 'step 2 is one of 2 steps of one call block (steps 1, 2): the block cannot be written with some of them' },
    });
    assert.deepEqual(attack.counts.edits, { constructible: 3, eligible: 0, isolatedEligible: 0 });
    const text = JSON.stringify(describeAudit(report));
    assert.ok(text.includes("2 edits the log's format cannot write back are not counted in any figure below; the first, skyrl-global_step_1_evals-hermes.jsonl:1 (global_step_1/0#0)"), text);
    // In the editor and in SARIF: one warning on the attack.
    const written = spec(true);
    const found = auditFindings(report, analyze(written).model, written, folder.dir).filter((p) => p.code === 'unrendered-edits');
    assert.deepEqual(found.map((p) => [p.severity, written.slice(p.span.start, p.span.end)]), [['warning', 'attack drop_search targets T']]);
    assert.match(found[0]!.message, /^in audit a, 2 drop_search edits cannot be written back in the log's format and are not counted: a term reads the rendered text; the first, /);
  });

  // A term that reads the rendered response is evaluated on every edit, as the detectors are: which
  // edits count depends on it, so adding or removing one prepares the edits again
  // (edits/patch-features.ts). The `conforms` line keeps the field read either way, so the
  // preparation's key alone would not tell.
  for (const [from, to] of [[false, true], [true, false]] as const) {
    it(`are counted as a fresh run counts them after a term ${to ? 'that reads the rendered response is added' : 'that read it is removed'}, the audit kept in memory`, async () => {
      const file = path.join(folder.dir, 'spec.reward');
      const conforms = '  conforms answered to answered within 0\n';
      const run = async (reads: boolean, cache = newAuditCaches(), messages: string[] = []) => {
        fs.writeFileSync(file, spec(reads, conforms));
        const outcome = await auditSpec(spec(reads, conforms), file, { cache, candidateCache: false, onProgress: (m) => messages.push(m) });
        assert.ok(outcome.report, JSON.stringify(outcome.problems));
        return outcome.report;
      };
      const cache = newAuditCaches();
      await run(from, cache);
      const messages: string[] = [];
      const reused = await run(to, cache, messages);
      const fresh = await run(to);
      assert.ok(messages.some((m) => m.includes('building edits')), messages.join('\n'));
      assert.equal(reused.audits[0]!.attacks[0]!.unrendered?.edits, to ? 2 : undefined);
      assert.equal(JSON.stringify(reused), JSON.stringify(fresh));
    });
  }

  it('are no concern of a reward that reads no rendered text: every edit counts and the report keeps its shape', async () => {
    const attack = (await audit(false)).attacks[0]!;
    assert.equal(attack.unrendered, undefined);
    assert.deepEqual(attack.counts.edits, { constructible: 3, eligible: 2, isolatedEligible: 2 });
  });
});
