// Issue 17, §2 and §3: the certificate per attack and generator (an edit belongs to every
// generator that proposed its passage), and held-out certification (repair and λ chosen on the
// fit clusters, ASR and its exact bound on the held-out ones).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditSpec } from '../../server/src/audit/audit-spec.js';
import { isHeldOut } from '../../server/src/audit/held-out.js';
import { hashIndex } from '../../server/src/audit/pool-selection.js';
import { generatorCertificateSentence, heldOutSentence } from '../../server/src/findings/generator-wording.js';
import { report as reportSchema, type AuditReport } from '../../server/src/report/schema.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { workspace } from '../inputs/workspace.js';

const ws = workspace();
const rows = fs.readFileSync(path.join(ws.dir, 'data/hotpot.jsonl'), 'utf8').split('\n').slice(0, 160).join('\n');
ws.write('data/small.jsonl', `${rows}\n`);

function spec(lambda: number, options: string): string {
  return `corpus wiki = "data/corpus.jsonl"
pool hotpot = "data/small.jsonl"
detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved
reward R0 {
  answer 1.0 * token_f1(answer, gold.answers)
  grounding 0.6 * grounding(citations, gold.answers)
}
audit gen {
  reward R0
  corpus wiki
  pools hotpot
${options}
  attack same_final targets L
  attack lex = launder targets L using lexical(4)
  attack bm = launder targets L using bm25(4)
  attack both = launder targets L using lexical(4), bm25(4)
  lattice L = ${lambda}
}
`;
}

async function audited(text: string): Promise<AuditReport> {
  const file = ws.write('spec.reward', text);
  const outcome = await auditSpec(text, file, { candidateCache: false });
  assert.deepEqual(outcome.failures, []);
  assert.ok(outcome.report !== undefined, JSON.stringify(outcome.problems));
  reportSchema.parse(outcome.report);
  return outcome.report.audits[0]!;
}

describe('the certificate per generator', () => {
  it('credits a merged attack\'s edits to each generator that proposed them, as if each had run alone', async () => {
    const audit = await audited(spec(1.2, '  certify by_generator'));
    const [c] = audit.generatorCertificate ?? [];
    assert.ok(c !== undefined);
    const edits = (attack: string, generator: string): number | undefined => c.generators.find((g) => g.attack === attack && g.generator === generator)?.edits;
    assert.deepEqual(c.generators.map((g) => [g.attack, g.generator]), [['same_final', 'same_final'], ['lex', 'lexical(4)'], ['bm', 'bm25(4)'], ['both', 'lexical(4)'], ['both', 'bm25(4)']]);
    assert.ok((edits('lex', 'lexical(4)') ?? 0) > 0);
    assert.equal(edits('both', 'lexical(4)'), edits('lex', 'lexical(4)'));
    assert.equal(edits('both', 'bm25(4)'), edits('bm', 'bm25(4)'));
    const merged = audit.attacks.find((a) => a.name === 'both')!.counts.edits.isolatedEligible;
    // An id both proposed counts for both: the per-generator counts add up to more than the merged edits.
    assert.ok((edits('both', 'lexical(4)') ?? 0) + (edits('both', 'bm25(4)') ?? 0) > merged);
    assert.deepEqual(c.untested, ['a candidates file', 'a command (dense retriever, LLM)']);
    assert.deepEqual(c.fails, []);
    assert.equal(generatorCertificateSentence(c), 'λ_L = 1.2 certifies same_final, lexical(4), bm25(4); not yet tested: a candidates file, a command (dense retriever, LLM)');
    const overall = audit.certificate[0]!;
    const gains = c.generators.flatMap((g) => (g.maxGain === null ? [] : [g.maxGain]));
    assert.equal(Math.max(...gains), overall.maxGain, 'the overall max gain is the largest per generator');
  });

  it('a λ below some gains names the generators it does not certify', async () => {
    const audit = await audited(spec(0.1, '  certify by_generator'));
    const c = audit.generatorCertificate![0]!;
    assert.ok(c.fails.includes('lexical(4)') && c.fails.includes('bm25(4)'), JSON.stringify(c));
    assert.match(generatorCertificateSentence(c), /^λ_L = 0\.1 certifies .*does not certify .*lexical\(4\), bm25\(4\)/);
    assert.equal(audit.certificate[0]!.certified, false);
  });

  it('without the option the report keeps its shape', async () => {
    const audit = await audited(spec(1.2, ''));
    assert.equal(audit.generatorCertificate, undefined);
    assert.equal(audit.heldOut, undefined);
  });
});

describe('held-out certification', () => {
  it('splits clusters by hash_random\'s SHA-256 rule', () => {
    for (const id of ['q1', 'hotpot-0001', 'x']) assert.equal(isHeldOut(id, 0.5), hashIndex(id, 2 ** 32) < 2 ** 31);
    assert.equal(isHeldOut('q1', 0), false);
  });

  it('chooses the repair and λ on the fit clusters and reports the held-out ASR with its exact bound', async () => {
    const audit = await audited(spec(0.1, '  holdout 0.5'));
    const h = audit.heldOut!;
    assert.equal(h.fitClusters + h.heldOutClusters, audit.clusters);
    assert.ok(h.fitClusters > 0 && h.heldOutClusters > 0);
    assert.deepEqual(h.repair, ['L']);
    const [l] = h.lambdas;
    assert.ok(l !== undefined && l.fitMaxGain !== null);
    // λ = 0.1 is below the fit half's max gain: the next tenth above it is chosen, and with it {L} is the repair.
    assert.ok(l.lambda > l.fitMaxGain && l.lambda - l.fitMaxGain <= 0.1 + 1e-9, JSON.stringify(l));
    for (const r of h.results) {
      if (r.asr === 0) assert.equal(r.upper, 1 - 0.05 ** (1 / r.clusters), 'the exact zero-event bound');
      assert.ok(r.clusters <= h.heldOutClusters);
    }
    assert.equal(h.generalised, h.results.filter((r) => r.asr !== null).every((r) => r.asr === 0));
    assert.match(heldOutSentence(h), /^the repair \{L\} \(λ_L = \d(\.\d)?\), chosen on \d+ fit clusters, (generalised|did not generalise) to the \d+ held-out clusters: oracle-worst ASR /);
  });
});

describe('the generator options and syntax are checked', () => {
  const codes = (text: string): string[] => analyze(text, {}).problems.filter((p) => p.severity === 'error').map((p) => `${p.code} ${text.slice(p.span.start, p.span.end)}`);
  const withOptions = (options: string, using = 'lexical(4)'): string => spec(1.2, options).replace('using lexical(4), bm25(4)', `using ${using}`);

  it('accepts timeout, certify by_generator, holdout and a command generator', () => {
    assert.deepEqual(codes(withOptions('  timeout 600\n  certify by_generator\n  holdout 0.5', 'candidates command "node gen.mjs"')), []);
  });

  it('reports a bad value on the value, and a misspelt command word on the word', () => {
    assert.deepEqual(codes(withOptions('  timeout 0\n  holdout 1.5\n  certify all')), ['invalid-setting 0', 'invalid-setting 1.5', 'unknown-option all']);
    assert.deepEqual(codes(withOptions('', 'candidates commnd "node gen.mjs"')), ['unknown-generator commnd']);
  });

  it('a comparison runs no command', () => {
    const comparison = `corpus wiki = "c.jsonl"
pool base = "b.jsonl"
detector L "x" = any c in citations: c not in retrieved
reward R0 { answer 1.0 * token_f1(answer, gold.answers) }
comparison paired {
  reward R0
  corpus wiki
  base base
  treatment base
  attack launder targets L using candidates command "node gen.mjs"
}
`;
    assert.deepEqual(codes(comparison), ['generator-not-allowed candidates command "node gen.mjs"']);
  });
});
