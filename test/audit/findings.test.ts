// Every code of what an audit finds, with a bad case (the finding, at its place in the spec) and the
// nearest good case (no such finding), run through the same engine and the one findings stage the
// editor, the CLI and SARIF use: auditSpec and signalSpec, then specFindings. The test fails when a
// code has no case.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { auditSpec } from '../../server/src/audit/audit-spec.js';
import { makeBaseline } from '../../server/src/audit/baseline.js';
import { specFindings } from '../../server/src/findings/spec-findings.js';
import { readBaseline } from '../../server/src/inputs/baseline-file.js';
import { signalSpec } from '../../server/src/signal/signal-spec.js';
import { compareSpec } from '../../server/src/compare/compare-spec.js';
import { auditIssueCodes } from '../../server/src/problems/issue-codes.js';
import { maxListedRows } from '../../server/src/problems/limits.js';
import type { Problem } from '../../server/src/problems/problem.js';
import type { Report } from '../../server/src/report/schema.js';
import { marked } from '../helpers/marked.js';
import { jsonl, tempDir } from '../pool/temp-files.js';

type AuditCode = (typeof auditIssueCodes)[keyof typeof auditIssueCodes];

// Two passages: every row retrieves and cites e:1; laundering can only swap in e:2 (in the corpus,
// never retrieved), which is the gold support. Under R0 (exact match only) the swap is a tie: a win.
const corpus = [
  { id: 'e:1', title: 'Ada Roe', text: 'Ada Roe was born in Lune.' },
  { id: 'e:2', title: 'Lune', text: 'Lune is a town where Ada Roe was born.' },
];

function row(i: number, group = `g${i >> 1}`): Record<string, unknown> {
  return {
    id: `t${i}`, question_id: `q${i}`, question: 'Where was Ada Roe born?',
    steps: [{ type: 'search', query: 'ada roe born', results: ['e:1'] }],
    final: { answer: 'Lune', citations: ['e:1'], text: 'Lune [e:1]' },
    gold: { answers: ['Lune'], support_ids: ['e:2'] },
    meta: { group, step: 1, sample: i % 2 },
  };
}
const rows = (n: number): Record<string, unknown>[] => Array.from({ length: n }, (_, i) => row(i));

const head = `corpus c = "c.jsonl"
pool big = "big.jsonl"
pool small = "small.jsonl"
pool broken = "broken.jsonl"
detector L "cites a real passage it never retrieved" = any x in citations: x in corpus and x not in retrieved
detector F "cites an id outside the corpus" = any x in citations: x not in corpus
signal support_miss "no citation is gold support" = misses(citations, gold.support)
reward R0 { answer 1 * exact_match(answer, gold.answers) }
reward R_L = R0 - 0.5 * L
reward R_full = R_L - 0.3 * support_miss
`;

/** An audit of the big pool; each case breaks one line of it. */
const audit = `${head}audit a {
  reward R0
  compare R_L, R_full
  corpus c
  pools big
  attack launder targets L using lexical(1)
  lattice L = 0.5
  expect asr(R_L, launder, oracle_worst) == 0
}
`;

function variant(from: string, to: string, base = audit): string {
  assert.ok(base.includes(from), `no '${from}' in the spec`);
  return base.replace(from, to);
}

interface Case {
  readonly code: AuditCode;
  readonly title: string;
  readonly bad: string;
  readonly good: string;
  /** Files to write beside the spec for this case only (the bad run; the good run gets `goodFiles`). */
  readonly files?: Record<string, string>;
  readonly goodFiles?: Record<string, string>;
  /** What the load adds to the report, for what no spec can ask yet (a pool imported on load). */
  readonly loaded?: (report: Report) => Report;
}

/** A v2 row: results are objects with titles (the first is Ada Roe's), its citation a marker through rank 1. */
function v2Row(i: number, second: string): Record<string, unknown> {
  return {
    ...row(i),
    steps: [{ type: 'search', query: 'ada roe born', results: [{ rank: 1, title: 'Ada Roe' }, { rank: 2, title: second }] }],
    final: { answer: 'Lune', citations: [{ marker: '[1]', rank: 1 }], text: 'Lune [1]' },
  };
}

/** One verl dump line (Search-R1 tags) whose search found Ada Roe's passage, by title. */
function verlLine(question: string, answer: string, step: number): string {
  return JSON.stringify({
    input: `<|im_start|>user\nAnswer the question. Question: ${question}\n<|im_end|>`,
    output: `<think>look it up</think><search>${question}</search><information>Doc 1(Title: Ada Roe) born in Lune.</information><answer>${answer}</answer>`,
    gts: { target: [answer] }, score: 1, step,
  });
}

/** The pools of every audit, as an importer would have left them (the counts of a verl dump). */
function imported(report: Report): Report {
  const counts = { read: 60, imported: 58, skipped: 2, questionIdsDerived: 58, groupsRecovered: 12 };
  return { ...report, audits: report.audits.map((a) => ({ ...a, pools: a.pools.map((p) => ({ ...p, import: { format: 'verl', counts, notes: ['question ids derived from the prompt text'] } })) })) };
}

/** One verl dump line in Hermes form: the two searches in one call (`query_list`), or in two calls. */
function hermesLine(oneCall: boolean): string {
  const call = (queries: string[]): string => `<tool_call>${JSON.stringify({ name: 'search', arguments: { query_list: queries } })}</tool_call>`;
  const response = (result: string): string => `<tool_response>${JSON.stringify({ result })}</tool_response>`;
  const ada = 'Doc 1 (Title: Ada Roe)\nAda Roe was born in Lune.';
  const lune = 'Doc 1 (Title: Lune)\nLune is a town where Ada Roe was born.';
  const output = oneCall ? `${call(['ada roe', 'lune'])}${response(`${ada}\n---\n${lune}`)}<answer>Lune</answer>` : `${call(['ada roe'])}${response(ada)}${call(['lune'])}${response(lune)}<answer>Lune</answer>`;
  return JSON.stringify({ input: 'Question: Where was Ada Roe born?\n', output, gts: { target: ['Lune'] }, score: 1, step: 1 });
}

/** A reward that reads the response of a Hermes dump, under an edit that deletes one search. */
const renderedAudit = `corpus c = "c.jsonl"
pool dump = "dump-*.jsonl" from verl(dialect: hermes)
field response "the response as verl logged it" : text = meta.transcript
signal answered "the response holds a tool response" = contains(response, "<tool_response>")
detector T "fewer than two searches" = search_calls < 2
edit drop_search "delete one search" = delete each s in steps where s.type == "search"
reward R { a 1 * answered }
audit a {
  reward R
  corpus c
  pools dump
  attack drop_search targets T
}
`;

/** The audit with two logged fields, and a `conforms` line after its expectation. */
const conforming = (line: string): string => variant('  expect asr(R_L, launder, oracle_worst) == 0', `  expect asr(R_L, launder, oracle_worst) == 0\n  ${line}`,
  variant('reward R0 {', 'field logged_step "the step" : number = meta.step\nfield logged_sample "the sample" : number = meta.sample\nreward R0 {'));

const cases: Case[] = [
  {
    code: auditIssueCodes.notConforming, title: 'a reward that differs from the logged value on half the rows',
    bad: conforming('⟦conforms R0 to logged_sample within 0.5⟧'), good: conforming('conforms R0 to logged_step within 0'),
  },
  {
    code: auditIssueCodes.expectFailed, title: 'an expectation that the figures break',
    bad: variant('  expect asr(R_L, launder, oracle_worst) == 0', '  ⟦expect asr(R_L, launder, oracle_worst) >= 50%⟧'), good: audit,
  },
  {
    code: auditIssueCodes.attackSucceeds, title: 'laundering ties under R0, and a tie is a win',
    bad: variant('  reward R0\n', '  ⟦reward R0⟧\n'), good: variant('  reward R0\n  compare R_L, R_full', '  reward R_L\n  compare R_full'),
  },
  {
    code: auditIssueCodes.frozenFigures, title: 'a reward that reads a logged field no pool re-renders, under an edit of the citations',
    bad: variant('reward R0 { answer 1 * exact_match(answer, gold.answers) }', 'field logged_step "a value the trainer logged" : number = meta.step\nreward R0 { answer 1 * exact_match(answer, gold.answers)  logged 0.1 * logged_step }')
      .replace('  reward R0\n  compare R_L, R_full', '  ⟦reward R0⟧\n  compare ⟦R_L⟧, ⟦R_full⟧'),
    good: variant('reward R0 { answer 1 * exact_match(answer, gold.answers) }', 'field logged_step "a value the trainer logged" : number = meta.step depends on answer\nreward R0 { answer 1 * exact_match(answer, gold.answers)  logged 0.1 * logged_step }'),
  },
  {
    // Issue 35: a field read by another analysis only (R_judged is audited by none) skips no row of this audit.
    code: auditIssueCodes.fieldNotLogged, title: 'an audited reward reads a logged field that no row of its pool logs',
    bad: variant('reward R0 { answer 1 * exact_match(answer, gold.answers) }', 'field judge "an LLM judge" : number = meta.judge\nreward R0 { answer 1 * exact_match(answer, gold.answers)  judged 0.1 * judge }')
      .replace('pool big = "big.jsonl"', 'pool big = ⟦"big.jsonl"⟧'),
    good: variant('reward R0 { answer 1 * exact_match(answer, gold.answers) }', 'field judge "an LLM judge" : number = meta.judge\nreward R0 { answer 1 * exact_match(answer, gold.answers) }\nreward R_judged = R0 + 0.1 * judge'),
  },
  {
    code: auditIssueCodes.penaltyCancellation, title: "R_full's 0.8 support penalty, switched off by the edit, outweighs L's 0.5",
    bad: variant('reward R_full = R_L - 0.3 * support_miss', 'reward R_full = R_L ⟦- 0.8 * support_miss⟧'), good: audit,
  },
  {
    code: auditIssueCodes.redundantDetector, title: 'a lattice detector no minimal repair needs',
    bad: variant('  lattice L = 0.5', '  lattice L = 0.5, ⟦F = 1⟧'), good: audit,
  },
  {
    code: auditIssueCodes.certificateFails, title: 'a lattice λ below the largest base gain: a 1.0 swap gain that λ 0.5 does not reject',
    bad: variant('  lattice L = 0.5', '  lattice ⟦L = 0.5⟧').replace('reward R0 { answer 1 * exact_match(answer, gold.answers) }', 'reward R0 { answer 1 * exact_match(answer, gold.answers)  support 1 * recall(citations, gold.support) }'),
    good: audit.replace('reward R0 { answer 1 * exact_match(answer, gold.answers) }', 'reward R0 { answer 1 * exact_match(answer, gold.answers)  support 1 * recall(citations, gold.support) }').replace('lattice L = 0.5', 'lattice L = 1.5'),
  },
  {
    code: auditIssueCodes.smallSample, title: 'an attack with 3 isolated-eligible clusters',
    bad: variant('  attack launder targets L using lexical(1)', '  ⟦attack launder targets L using lexical(1)⟧').replace('pools big', 'pools small'), good: audit,
  },
  {
    // Issue 37: no row cites anything, so L (over citations) is 0 everywhere and the grounding term is the same on every row.
    code: auditIssueCodes.emptyPart, title: 'a detector and a term that read citations, on a pool whose rows cite nothing',
    bad: variant('reward R0 { answer 1 * exact_match(answer, gold.answers) }', 'reward R0 { answer 1 * exact_match(answer, gold.answers)  ⟦ground 0.5 * grounding(citations, gold.answers)⟧ }')
      .replace('detector L "cites', 'detector ⟦L⟧ "cites').replace('reward R_full = R_L - 0.3 * support_miss', 'reward R_full = R_L ⟦- 0.3 * support_miss⟧'),
    good: variant('reward R0 { answer 1 * exact_match(answer, gold.answers) }', 'reward R0 { answer 1 * exact_match(answer, gold.answers)  ground 0.5 * grounding(citations, gold.answers) }'),
    files: { 'big.jsonl': jsonl(rows(60).map((r) => ({ ...r, final: { answer: 'Lune', citations: [], text: 'Lune' } }))) },
    goodFiles: { 'big.jsonl': jsonl(rows(60)) },
  },
  {
    code: auditIssueCodes.badRows, title: 'a pool row that is not a trajectory',
    bad: variant('pool broken = "broken.jsonl"', '⟦pool broken = "broken.jsonl"⟧').replace('pools big', 'pools big, broken'), good: audit.replace('pools big', 'pools big, broken'),
    files: { 'broken.jsonl': jsonl([row(100), '{"id": "no-question"}']) }, goodFiles: { 'broken.jsonl': jsonl([row(100)]) },
  },
  {
    code: auditIssueCodes.badRows, title: "a candidates file row that is not a candidate list, on the attack's generator that names the file",
    bad: variant('using lexical(1)', 'using lexical(1), ⟦candidates "cands.jsonl"⟧'), good: variant('using lexical(1)', 'using lexical(1), candidates "cands.jsonl"'),
    files: { 'cands.jsonl': jsonl([{ traj_id: 't0', citation_index: 0, candidates: ['e:2'] }, { traj_id: 't1' }]) },
    goodFiles: { 'cands.jsonl': jsonl([{ traj_id: 't0', citation_index: 0, candidates: ['e:2'] }]) },
  },
  {
    code: auditIssueCodes.badRows, title: 'a bad row in each file of a glob pool, on the pool declaration',
    bad: variant('pool broken = "broken.jsonl"', '⟦pool broken = "broken-*.jsonl"⟧').replace('pools big', 'pools big, broken'),
    good: audit.replace('pool broken = "broken.jsonl"', 'pool broken = "broken-*.jsonl"').replace('pools big', 'pools big, broken'),
    files: { 'broken-1.jsonl': jsonl([row(100), '{"id": "no-question"}']), 'broken-2.jsonl': jsonl(['{not json', row(101)]) },
    goodFiles: { 'broken-1.jsonl': jsonl([row(100)]), 'broken-2.jsonl': jsonl([row(101)]) },
  },
  {
    code: auditIssueCodes.badRows, title: 'a record a verl import of a glob skips, on the imported pool declaration',
    bad: variant('pool broken = "broken.jsonl"', '⟦pool broken = "dump-*.jsonl" from verl⟧').replace('pools big', 'pools big, broken'),
    good: audit.replace('pool broken = "broken.jsonl"', 'pool broken = "dump-*.jsonl" from verl').replace('pools big', 'pools big, broken'),
    files: { 'dump-1.jsonl': jsonl([verlLine('Where was Ada Roe born?', 'Lune', 1), '{not json']), 'dump-2.jsonl': jsonl([verlLine('Where was Lune founded?', 'Lune', 2)]) },
    goodFiles: { 'dump-1.jsonl': jsonl([verlLine('Where was Ada Roe born?', 'Lune', 1)]), 'dump-2.jsonl': jsonl([verlLine('Where was Lune founded?', 'Lune', 2)]) },
  },
  {
    code: auditIssueCodes.unresolvedIds, title: 'a result object whose title no passage has',
    bad: variant('pool broken = "broken.jsonl"', 'pool broken = ⟦"broken.jsonl"⟧').replace('pools big', 'pools big, broken'), good: audit.replace('pools big', 'pools big, broken'),
    files: { 'broken.jsonl': jsonl([v2Row(100, 'Lune'), v2Row(101, 'Nobody')]) }, goodFiles: { 'broken.jsonl': jsonl([v2Row(100, 'Lune'), v2Row(101, 'LUNE')]) },
  },
  {
    code: auditIssueCodes.unrenderedEdits, title: 'a search deleted from a call of two queries cannot be written back, under a reward that reads the response',
    bad: renderedAudit.replace('  attack drop_search targets T', '  ⟦attack drop_search targets T⟧'), good: renderedAudit,
    files: { 'dump-1.jsonl': jsonl([hermesLine(true)]) }, goodFiles: { 'dump-1.jsonl': jsonl([hermesLine(false)]) },
  },
  {
    code: auditIssueCodes.poolImported, title: 'a pool imported on load states its counts',
    bad: variant('pool big = "big.jsonl"', 'pool big = ⟦"big.jsonl"⟧'), good: audit, loaded: imported,
  },
  {
    code: auditIssueCodes.auditFailed, title: 'a term that overflows a double on the data',
    bad: variant('audit a {', 'audit ⟦a⟧ {').replace('reward R0 { answer 1 * exact_match(answer, gold.answers) }', 'reward R0 { answer 1 * exact_match(answer, gold.answers)  huge 1 * (search_calls * 1e308 * 10) }'),
    good: audit.replace('reward R0 { answer 1 * exact_match(answer, gold.answers) }', 'reward R0 { answer 1 * exact_match(answer, gold.answers)  huge 1 * (search_calls * 1e300 * 10) }'),
  },
  {
    code: auditIssueCodes.asrRegression, title: "R_L's λ lowered below the tie after the baseline accepted 0%",
    bad: variant('reward R_L = R0 - 0.5 * L', 'reward R_L = R0 ⟦- 0⟧ * L'), good: audit,
    files: { baseline: 'accept' }, goodFiles: { baseline: 'accept' },
  },
  {
    code: auditIssueCodes.baselineUnreadable, title: 'a baseline file that is not JSON of the baseline shape',
    bad: variant('audit a {', 'audit ⟦a⟧ {'), good: audit,
    files: { 'spec.reward.baseline.json': '{"version": 1, "audits": 7}' }, goodFiles: { baseline: 'accept' },
  },
  {
    code: auditIssueCodes.sparseTrainingSignal, title: 'an L penalty that fires in no training group',
    bad: `${head}training t {\n  reward R_L\n  corpus c\n  log big\n  min_groups 1\n}\n`.replace('R0 - 0.5 * L', 'R0 ⟦- 0.5 * L⟧'),
    good: `${head}training t {\n  reward R_L\n  corpus c\n  log big\n  min_groups 1\n}\n`,
    files: { 'big.jsonl': jsonl(rows(60)) },
    goodFiles: { 'big.jsonl': jsonl(rows(60).map((r, i) => (i === 0 ? { ...r, final: { answer: 'Lune', citations: ['e:2'], text: 'Lune [e:2]' } } : r))) },
  },
  {
    code: auditIssueCodes.nonInferiorityFails, title: 'a treatment that answers every question wrong fails the EM gate',
    bad: `${head}comparison m {\n  reward R0\n  corpus c\n  base big\n  treatment small\n  ⟦margin 2⟧\n}\n`,
    good: `${head}comparison m {\n  reward R0\n  corpus c\n  base big\n  treatment small\n  margin 2\n}\n`,
    files: { 'small.jsonl': jsonl(rows(60).map((r) => ({ ...r, final: { answer: 'Paris', citations: ['e:1'], text: 'Paris [e:1]' } }))) },
    goodFiles: { 'small.jsonl': jsonl(rows(60)) },
  },
  {
    code: auditIssueCodes.comparisonUnmatched, title: 'a treatment log that evaluated other questions than the base',
    bad: `${head}comparison ⟦m⟧ {\n  reward R0\n  corpus c\n  base big\n  treatment small\n}\n`,
    good: `${head}comparison m {\n  reward R0\n  corpus c\n  base big\n  treatment small\n}\n`,
    files: { 'small.jsonl': jsonl(rows(60).map((r, i) => (i < 10 ? { ...r, question_id: `other${i}` } : r))) },
    goodFiles: { 'small.jsonl': jsonl(rows(60)) },
  },
  {
    code: auditIssueCodes.claimUnderpowered, title: 'an L rate with a few events on 60 questions cannot back a 1-point reduction claim',
    bad: `${head}comparison m {\n  reward R0\n  corpus c\n  base big\n  treatment small\n  detectors L\n  ⟦claim 1⟧\n}\n`,
    good: `${head}comparison m {\n  reward R0\n  corpus c\n  base big\n  treatment small\n  detectors L\n  claim 1\n}\n`,
    files: {
      'big.jsonl': jsonl(rows(60).map((r, i) => (i < 3 ? { ...r, final: { answer: 'Lune', citations: ['e:2'], text: 'Lune [e:2]' } } : r))),
      'small.jsonl': jsonl(rows(60).map((r, i) => (i < 2 ? { ...r, final: { answer: 'Lune', citations: ['e:2'], text: 'Lune [e:2]' } } : r))),
    },
    // Half the rows fire L in both arms: enough events that the verdict rests on no rare event.
    goodFiles: {
      'big.jsonl': jsonl(rows(60).map((r, i) => (i % 2 === 0 ? { ...r, final: { answer: 'Lune', citations: ['e:2'], text: 'Lune [e:2]' } } : r))),
      'small.jsonl': jsonl(rows(60).map((r, i) => (i % 2 === 0 ? { ...r, final: { answer: 'Lune', citations: ['e:2'], text: 'Lune [e:2]' } } : r))),
    },
  },
];

/** Everything the editor shows after an audit of `text`, from the same functions it calls. */
async function findings(text: string, files: Record<string, string> = {}, loaded: (report: Report) => Report = (r) => r): Promise<Problem[]> {
  const folder = tempDir();
  folder.write('c.jsonl', jsonl(corpus));
  folder.write('big.jsonl', jsonl(rows(60)));
  folder.write('small.jsonl', jsonl(rows(3)));
  folder.write('broken.jsonl', jsonl([row(100)]));
  const specFile = folder.write('spec.reward', text);
  const baselineFile = `${specFile}.baseline.json`;
  for (const [name, content] of Object.entries(files)) if (name !== 'baseline') folder.write(name, content);
  if (files['baseline'] === 'accept') {
    // Accept the figures of the clean audit, as `herald audit --update-baseline` would.
    const accepted = await auditSpec(audit, specFile, { candidateCache: false });
    fs.writeFileSync(baselineFile, JSON.stringify(makeBaseline(accepted.report!, accepted.model)));
  }
  const outcome = await auditSpec(text, specFile, { candidateCache: false });
  assert.deepEqual(outcome.problems.filter((p) => p.severity === 'error'), [], 'the spec itself is clean');
  const signals = await signalSpec(text, specFile);
  const comparisons = await compareSpec(text, specFile, {});
  const report = outcome.report === undefined ? undefined : { ...loaded(outcome.report), signals: [...(signals.reports ?? [])], comparisons: [...(comparisons.reports ?? [])] };
  return specFindings({
    model: outcome.model, text, specDir: folder.dir, report, dataIssues: outcome.dataIssues, dataOwners: outcome.dataOwners, failures: outcome.failures,
    baseline: { read: readBaseline(baselineFile), file: baselineFile },
  });
}

describe('audit findings: every code', () => {
  it('every audit code has a case', () => {
    const covered = new Set(cases.map((c) => c.code));
    assert.deepEqual(Object.values(auditIssueCodes).filter((code) => !covered.has(code)), []);
  });

  for (const c of cases) {
    it(`${c.code}: ${c.title}`, async () => {
      const { text, spans } = marked(c.bad);
      const bad = (await findings(text, c.files, c.loaded)).filter((p) => p.code === c.code);
      // Several figures can regress at one weight: one place, however many findings it holds.
      const places = [...new Map(bad.map((p) => [`${p.span.start}:${p.span.end}`, p.span])).values()];
      assert.deepEqual(places, spans, JSON.stringify(bad));
      const good = (await findings(c.good, c.goodFiles ?? (c.files === undefined ? {} : Object.fromEntries(Object.keys(c.files).map((k) => [k, '']))))).filter((p) => p.code === c.code);
      assert.deepEqual(good, []);
    });
  }
});

describe('audit findings: what they say', () => {
  it('names the reward that already is the minimal repair, and the audit', async () => {
    const succeeds = (await findings(audit)).filter((p) => p.code === auditIssueCodes.attackSucceeds && p.message.includes('ties R0'));
    assert.equal(succeeds.length, 1);
    assert.match(succeeds[0]!.message, /^in audit a, launder ties R0 on 100\.00% .*; observed minimal repair \{L\}: R_L, compared here, already is R0 − 0\.5·L$/);
    assert.deepEqual(succeeds[0]!.data, { audit: 'a', reward: 'R0', repair: [{ detector: 'L', lambda: 0.5, maxGain: 0, generators: ['lexical(1)'] }] });
    const uncompared = (await findings(variant('  compare R_L, R_full\n', '').replace('expect asr(R_L,', 'expect asr(R0,').replace('== 0', '<= 100%'))).find((p) => p.code === auditIssueCodes.attackSucceeds);
    assert.match(uncompared!.message, /observed minimal repair \{L\}: R_L already is R0 − 0\.5·L$/);
    const none = (await findings(variant('reward R_L = R0 - 0.5 * L', 'reward R_L = R0 - 0.25 * L'))).find((p) => p.code === auditIssueCodes.attackSucceeds && p.message.includes('ties R0'));
    assert.match(none!.message, /observed minimal repair \{L\} \(R0 − 0\.5·L\)$/);
  });

  it('says whether the reward is indifferent to an attack that only ties or prefers it, with the strict rate (issue 35)', async () => {
    // Under R0 (exact match only) laundering changes nothing R0 reads: every margin 0, a success by the paper's rule.
    const tie = (await findings(audit)).find((p) => p.code === auditIssueCodes.attackSucceeds && p.message.includes(' R0'));
    assert.match(tie!.message, /^in audit a, launder ties R0 on 100\.00% of isolated-eligible clusters \(oracle-worst, oracle upper bound\), a tie counting as a success: the reward is indifferent to launder \(every margin 0; strictly, margin > 0, on 0\.00%\);/);
    // R_up pays 0.4 for citing gold support: the laundered e:2 is the support, so it strictly prefers every edit.
    const up = variant('reward R0 { answer 1 * exact_match(answer, gold.answers) }', 'reward R0 { answer 1 * exact_match(answer, gold.answers)  support 0.4 * recall(citations, gold.support) }');
    const win = (await findings(up)).find((p) => p.code === auditIssueCodes.attackSucceeds && p.message.includes(' R0'));
    assert.match(win!.message, /^in audit a, launder beats R0: 100\.00% of isolated-eligible clusters \(oracle-worst, oracle upper bound\); the reward prefers launder \(worst margin \+0\.40000; strictly, margin > 0, on 100\.00%\);/);
  });

  it('gives a failed expectation the line that would hold on the observed figure', async () => {
    const failed = (await findings(variant('expect asr(R_L, launder, oracle_worst) == 0', 'expect asr(R0, launder, oracle_worst) == 0'))).find((p) => p.code === auditIssueCodes.expectFailed);
    assert.deepEqual(failed!.data, { audit: 'a', observed: '100.00%', expect: 'expect asr(R0, launder, oracle_worst) <= 100%' });
    const margin = (await findings(variant('expect asr(R_L, launder, oracle_worst) == 0', 'expect mean_margin(R_L, launder, oracle_worst) >= 0'))).find((p) => p.code === auditIssueCodes.expectFailed);
    assert.deepEqual(margin!.data, { audit: 'a', observed: '-0.50000', expect: 'expect mean_margin(R_L, launder, oracle_worst) >= -0.5' });
    const minimal = (await findings(variant('expect asr(R_L, launder, oracle_worst) == 0', 'expect minimal_repair == {}'))).find((p) => p.code === auditIssueCodes.expectFailed);
    assert.deepEqual(minimal!.data, { audit: 'a', observed: '{L}', expect: 'expect minimal_repair == {L}' });
  });

  it('warns about a nonzero rate over few clusters as it does about a zero one', async () => {
    const small = (await findings(audit.replace('pools big', 'pools small'))).find((p) => p.code === auditIssueCodes.smallSample);
    assert.match(small!.message, /^in audit a, launder has only 3 isolated-eligible clusters: a zero ASR only bounds the rate at ≤ 63\.16% \(95%\), and a nonzero one's bootstrap interval over so few clusters is too narrow to trust \(R0 oracle-worst 100\.00% \[100\.0, 100\.0\]\)$/);
  });
});

describe('audit findings: skipped rows, on the declaration that read them', () => {
  const badRows = (p: Problem): boolean => p.code === auditIssueCodes.badRows;

  it("lists every skipped row of a glob pool's files and of an imported log as file:line: reason, one finding per file", async () => {
    const text = audit.replace('pool broken = "broken.jsonl"', 'pool broken = "broken-*.jsonl"\npool dump = "dump-*.jsonl" from verl').replace('pools big', 'pools big, broken, dump');
    const found = (await findings(text, {
      'broken-1.jsonl': jsonl([row(100), '{"id": "no-question"}']), 'broken-2.jsonl': jsonl(['{not json', row(101)]),
      'dump-1.jsonl': jsonl([verlLine('Where was Ada Roe born?', 'Lune', 1), '{not json', '{"output": "no prompt"}']),
      'dump-2.jsonl': jsonl(['{"output": "no prompt"}', verlLine('Where was Lune founded?', 'Lune', 2)]),
    })).filter(badRows);
    assert.deepEqual(found.map((f) => text.slice(f.span.start, f.span.end).split(' =')[0]), ['pool broken', 'pool broken', 'pool dump', 'pool dump']);
    assert.match(found[0]!.message, /^1 row skipped: broken-1\.jsonl:2: /);
    assert.match(found[1]!.message, /^1 row skipped: broken-2\.jsonl:1: invalid JSON/);
    assert.match(found[2]!.message, /^2 records skipped: dump-1\.jsonl:2: .*; dump-1\.jsonl:3: /);
    assert.match(found[3]!.message, /^1 record skipped: dump-2\.jsonl:1: /);
    assert.deepEqual(found.map((f) => (f.rows ?? []).map((r) => `${path.basename(r.file)}:${r.line}: ${r.message.split(':')[0]}`)), [
      ['broken-1.jsonl:2: skipped row'], ['broken-2.jsonl:1: skipped row'], ['dump-1.jsonl:2: skipped record', 'dump-1.jsonl:3: skipped record'], ['dump-2.jsonl:1: skipped record'],
    ]);
    assert.ok(found.every((f) => f.moreRows === undefined));
  });

  it('lists the first 100 of 80,000 skipped rows and counts the rest, in well under a second', async () => {
    const folder = tempDir();
    folder.write('c.jsonl', jsonl(corpus));
    folder.write('big.jsonl', jsonl(rows(60)));
    folder.write('small.jsonl', jsonl(rows(3)));
    folder.write('broken.jsonl', jsonl([row(100), ...Array.from({ length: 80_000 }, () => '{not json')]));
    const text = audit.replace('pools big', 'pools big, broken');
    const specFile = folder.write('spec.reward', text);
    const outcome = await auditSpec(text, specFile, { candidateCache: false });
    const started = performance.now();
    const found = specFindings({ model: outcome.model, text, specDir: folder.dir, report: outcome.report, dataIssues: outcome.dataIssues, dataOwners: outcome.dataOwners, failures: outcome.failures }).filter(badRows);
    const ms = performance.now() - started;
    assert.equal(found.length, 1);
    assert.equal(found[0]!.rows?.length, maxListedRows);
    assert.deepEqual([found[0]!.rows?.[0]?.line, found[0]!.rows?.at(-1)?.line], [2, maxListedRows + 1]);
    assert.equal(found[0]!.moreRows, 80_000 - maxListedRows);
    assert.match(found[0]!.message, /^80000 rows skipped: broken\.jsonl:2: invalid JSON.*; and 79995 more$/);
    // A copy of the list per row took 76 s here; appending takes milliseconds.
    assert.ok(ms < 1000, `${ms.toFixed(0)} ms`);
    // The report keeps the same first rows, and counts them all.
    const pool = outcome.report?.audits[0]?.pools.find((p) => p.name === 'broken');
    assert.deepEqual([pool?.skipped, pool?.issues.length], [80_000, maxListedRows]);
  });
});
