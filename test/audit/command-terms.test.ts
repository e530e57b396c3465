// Issue 36: fields and rewards computed by the user's program, in whole audits over verl rollout
// dumps, with a Node program for Python (test/fixtures/command-terms/reward.mjs). The program's
// figures are the language's figure for figure; what each request holds (gold only for an oracle
// term; an edit rendered back into the response); the answers' cache; conforms lines and the
// figures they mark; every way a program can fail; and consent.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { auditSpec, newAuditCaches, type AuditOutcome, type AuditSpecOptions } from '../../server/src/audit/audit-spec.js';
import { commandConsent } from '../../server/src/cli/command-consent.js';
import { specFindings } from '../../server/src/findings/spec-findings.js';
import { WorkspaceTrust } from '../../server/src/inputs/trust.js';
import { auditIssueCodes } from '../../server/src/problems/issue-codes.js';
import type { Problem } from '../../server/src/problems/problem.js';
import { report as reportSchema, type AuditReport } from '../../server/src/report/schema.js';
import { newMarker, survivors } from '../helpers/command-processes.js';
import { rolloutPool, termWorkspace, type TermWorkspace } from '../helpers/term-workspace.js';

async function audited(ws: TermWorkspace, text: string, options: AuditSpecOptions = {}): Promise<{ outcome: AuditOutcome; findings: Problem[] }> {
  const specFile = ws.write('spec.reward', text);
  const outcome = await auditSpec(text, specFile, { candidateCache: false, workers: 1, ...options });
  const findings = specFindings({ model: outcome.model, text, specDir: ws.dir, report: outcome.report, dataIssues: outcome.dataIssues, dataOwners: outcome.dataOwners, failures: outcome.failures });
  return { outcome, findings };
}

/** The one audit of a run that must have gone through. */
function auditOf(outcome: AuditOutcome, name = 'a'): AuditReport {
  assert.deepEqual(outcome.failures, []);
  assert.deepEqual(outcome.problems.filter((p) => p.severity === 'error'), []);
  const audit = outcome.report?.audits.find((a) => a.name === name);
  assert.ok(audit, JSON.stringify(outcome.problems));
  assert.ok(reportSchema.safeParse(outcome.report).success);
  return audit;
}

/** The audit without its record of the programs run: what a run through the cache or in the language must equal. */
/**
 * The report without what says how its rewards are written: the command terms, and each term's
 * range (`terms`: the program's one term against the language's several).
 */
const withoutTerms = (audit: AuditReport): Omit<AuditReport, 'terms' | 'commandTerms'> => {
  const { terms, commandTerms, ...rest } = audit;
  void terms;
  void commandTerms;
  return rest;
};

const count = (text: string, part: string): number => text.split(part).length - 1;

describe('a reward and fields computed by a program, against the same ones in the language', () => {
  const ws = termWorkspace([1, 2, 3, 4]);
  // The same audit twice: every value a program computes in the first is an expression in the
  // second. The cost is a power of two, so both sum exactly and every figure can be compared.
  const audit = `
detector U "nonempty final answer and no search at all" = has_final and answer != "" and n_searched == 0
reward R = t - 0.5 * U
audit a {
  reward t
  compare R
  corpus wiki
  pools rollouts
  attack same_final targets U
  lattice U = 0.5
  conforms em_o to em_lang within 0
}
`;
  const byProgram = `${rolloutPool}signal em_lang "EM, in the language" = exact_match(answer, gold.answers)
field n_searched "searches, read off the response" : number = command "node reward.mjs --value rendered --record out/searched"
oracle field em_o "EM, by the program" : number = command "node reward.mjs --value em --record out/em_o"
reward t "EM less a quarter per search" = command "node reward.mjs --value em --cost 0.25 --reverse --record out/t"
${audit}`;
  const inLanguage = `${rolloutPool}signal em_lang "EM, in the language" = exact_match(answer, gold.answers)
signal n_searched "searches, read off the response" = search_calls
signal em_o "EM, by the program" = exact_match(answer, gold.answers)
reward t "EM less a quarter per search" { em 1 * exact_match(answer, gold.answers)  cost -0.25 * search_calls }
${audit}`;
  let program: AuditReport;
  let language: AuditReport;
  before(async () => {
    program = auditOf((await audited(ws, byProgram)).outcome);
    language = auditOf((await audited(ws, inLanguage)).outcome);
  });

  it('gives the same report, figure for figure, and the figures are not trivial', () => {
    assert.deepEqual(withoutTerms(program), withoutTerms(language));
    assert.equal(language.commandTerms, undefined);
    const results = program.attacks[0]!.results;
    assert.ok(program.attacks[0]!.counts.edits.constructible > 100);
    // Removing the searches pays t (a quarter each) and R pays it back through U on some rows only.
    assert.ok(results.every((r) => r.reward !== 't' || (r.estimate.asr === 1 && r.estimate.worstMargin! > 0)), JSON.stringify(results));
    assert.ok(results.some((r) => r.reward === 'R' && r.estimate.asr! > 0 && r.estimate.asr! < 1), JSON.stringify(results));
    assert.deepEqual(program.conformance?.map((c) => [c.rows, c.differing, c.holds]), [[128, 0, true]]);
  });

  it('records each term: requests over the originals and the edits it is evaluated on, every one run; the program saw exactly those', () => {
    const rows = program.pools.reduce((sum, p) => sum + p.rows, 0);
    const edits = program.attacks[0]!.counts.edits.constructible;
    assert.equal(rows, 128);
    assert.deepEqual(program.commandTerms, [
      // The detector is evaluated on every edit; the oracle field only by the conforms line, on the originals.
      { term: 'n_searched', command: 'node reward.mjs --value rendered --record out/searched', requests: rows + edits, ran: rows + edits },
      { term: 'em_o', command: 'node reward.mjs --value em --record out/em_o', requests: rows, ran: rows },
      { term: 't', command: 'node reward.mjs --value em --cost 0.25 --reverse --record out/t', requests: rows + edits, ran: rows + edits },
    ]);
    for (const [name, term] of [['searched', 'n_searched'], ['em_o', 'em_o'], ['t', 't']] as const) {
      assert.equal(ws.runs(name), 1, `${term} ran once`);
      const requests = ws.requests(name);
      assert.equal(requests.length, program.commandTerms!.find((c) => c.term === term)!.ran);
      assert.deepEqual(requests.map((r) => r['request']), requests.map((_, i) => i), 'numbered from 0');
    }
  });

  it("a visible field's requests carry no gold; an oracle field's and a reward's carry the gold verl logged", () => {
    for (const request of ws.requests('searched')) {
      const row = request['row'] as Record<string, unknown>;
      const verl = request['verl'] as Record<string, unknown>;
      assert.ok(!Object.hasOwn(row, 'gold'));
      assert.equal(verl['ground_truth'], null);
      assert.equal(verl['extra_info'], null);
      assert.deepEqual(Object.keys(row['meta'] as object).sort(), ['observations', 'prompt', 'transcript']);
    }
    for (const name of ['em_o', 't']) {
      for (const request of ws.requests(name)) {
        const row = request['row'] as { gold: { answers: string[] }; meta: Record<string, unknown> };
        const verl = request['verl'] as { ground_truth: { target: string[] } };
        assert.equal(request['format'], 'verl');
        assert.ok(row.gold.answers.length > 0);
        assert.deepEqual(verl.ground_truth.target, row.gold.answers);
        assert.ok(Object.hasOwn(row.meta, 'score'));
      }
    }
  });

  it("an edit's request carries the response rendered without its searches, under the original's id, with the same prompt and answer", () => {
    const byId = new Map<string, Record<string, unknown>[]>();
    for (const request of ws.requests('t')) byId.set(String(request['trajectory_id']), [...(byId.get(String(request['trajectory_id'])) ?? []), request]);
    const searches = (r: Record<string, unknown>): number => ((r['row'] as { steps: { type: string }[] }).steps).filter((s) => s.type === 'search').length;
    const solution = (r: Record<string, unknown>): string => (r['verl'] as { solution_str: string }).solution_str;
    let edits = 0;
    for (const [id, requests] of byId) {
      if (requests.length === 1) continue;
      assert.equal(requests.length, 2, id);
      const [original, edit] = [...requests].sort((x, y) => searches(y) - searches(x));
      assert.ok(searches(original!) > 0 && searches(edit!) === 0, id);
      edits++;
      // An invalid action's text may quote <search>; only the search calls and their results are cut.
      assert.equal(count(solution(edit!), '<information>'), 0, id);
      assert.equal(count(solution(edit!), '<search>'), count(solution(original!), '<search>') - searches(original!), id);
      assert.equal((edit!['verl'] as { prompt_str: string }).prompt_str, (original!['verl'] as { prompt_str: string }).prompt_str);
      assert.deepEqual((edit!['row'] as { final: unknown }).final, (original!['row'] as { final: unknown }).final);
      const answers = (r: Record<string, unknown>): string[] => [...solution(r).matchAll(/<answer>[^<]*<\/answer>/g)].map((m) => m[0]);
      assert.deepEqual(answers(edit!), answers(original!), id);
    }
    assert.equal(edits, program.attacks[0]!.counts.edits.constructible);
  });

  it('prepared on several threads, the report is the same', async () => {
    ws.clear();
    const parallel = auditOf((await audited(ws, byProgram, { workers: 3, minRowsPerWorker: 20 })).outcome);
    assert.deepEqual(parallel, program);
    assert.equal(ws.runs('t'), 1, 'one process per term, not per thread');
  });
});

describe('a pool file: requests without a framework, the same figures', () => {
  const ws = termWorkspace([]);
  ws.write('hotpot.jsonl', `${fs.readFileSync(path.resolve('samples/pools/hotpot.jsonl'), 'utf8').split('\n').slice(0, 40).join('\n')}\n`);
  const head = rolloutPool.replace('"rollout/*.jsonl" from verl(dialect: search_r1)', '"hotpot.jsonl"');
  const audit = `detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved
detector N "never searched" = n == 0
reward R = t - 1.2 * L - 0.5 * N
audit a {
  reward t
  compare R
  corpus wiki
  pools rollouts
  attack launder targets L using lexical(2)
  attack same_final targets N
  lattice L = 1.2, N = 0.5
}
`;
  const byProgram = `${head}field n "search steps" : number = command "node reward.mjs --value searches --record out/n"
reward t "EM" = command "node reward.mjs --value em --record out/t"
${audit}`;
  const inLanguage = `${head}signal n "search steps" = search_calls
reward t "EM" { em 1 * exact_match(answer, gold.answers) }
${audit}`;

  it('the report is the language\'s; a request has format null, no framework key, and the row as the pool holds it', async () => {
    const program = auditOf((await audited(ws, byProgram)).outcome);
    const language = auditOf((await audited(ws, inLanguage)).outcome);
    assert.deepEqual(withoutTerms(program), withoutTerms(language));
    assert.ok(program.attacks.every((a) => a.counts.edits.constructible > 0));
    for (const request of [...ws.requests('n'), ...ws.requests('t')]) {
      assert.deepEqual(Object.keys(request), ['request', 'trajectory_id', 'format', 'row']);
      assert.equal(request['format'], null);
    }
    assert.ok(ws.requests('n').every((r) => !Object.hasOwn(r['row'] as object, 'gold')));
    assert.ok(ws.requests('t').every((r) => Object.hasOwn(r['row'] as object, 'gold')));
  });
});

describe("the answers' cache", () => {
  const ws = termWorkspace([1]);
  const cache = path.join(ws.root, 'cache');
  const text = `${rolloutPool}reward t "EM less a quarter per search" = command "node reward.mjs --value em --cost 0.25 --record out/t"
detector U "nonempty final answer and no search at all" = has_final and answer != "" and search_calls == 0
audit a {
  reward t
  corpus wiki
  pools rollouts
  attack same_final targets U
  lattice U = 0.5
}
`;
  const run = async (options: AuditSpecOptions): Promise<AuditReport> => auditOf((await audited(ws, text, options)).outcome);
  const term = (audit: AuditReport): { requests: number; ran: number } => {
    const [record] = audit.commandTerms ?? [];
    assert.ok(record);
    return { requests: record.requests, ran: record.ran };
  };

  it('a second audit runs the program zero times; editing the file the command names runs it again; no cache always runs', async () => {
    const first = await run({ candidateCache: cache });
    const { requests } = term(first);
    assert.ok(requests > 32);
    assert.deepEqual(term(first), { requests, ran: requests });
    assert.equal(ws.runs('t'), 1);

    const second = await run({ candidateCache: cache });
    assert.equal(ws.runs('t'), 1, 'the second audit ran the program');
    assert.deepEqual(term(second), { requests, ran: 0 });
    assert.deepEqual(withoutTerms(second), withoutTerms(first));

    fs.appendFileSync(path.join(ws.dir, 'reward.mjs'), '// edited\n');
    const edited = await run({ candidateCache: cache });
    assert.equal(ws.runs('t'), 2, 'the program ran again after its file changed');
    assert.deepEqual(term(edited), { requests, ran: requests });
    assert.deepEqual(term(await run({ candidateCache: cache })), { requests, ran: 0 });
    assert.equal(ws.runs('t'), 2);

    for (let i = 0; i < 2; i++) assert.deepEqual(term(await run({ candidateCache: false })), { requests, ran: requests });
    assert.equal(ws.runs('t'), 4);
  });

  it("an editor's kept audit re-scores without the program, and runs it again once its file changes", async () => {
    const caches = newAuditCaches();
    const before = ws.runs('t');
    const first = await run({ candidateCache: false, cache: caches });
    assert.equal(ws.runs('t'), before + 1);
    const again = await run({ candidateCache: false, cache: caches });
    assert.equal(ws.runs('t'), before + 1, 'nothing changed: re-scored from the kept audit');
    assert.equal(term(again).ran, 0, 'a re-scored audit ran nothing');
    assert.deepEqual(withoutTerms(again), withoutTerms(first));
    // The program now pays half, not a quarter, per search: the kept figures are stale.
    const program = path.join(ws.dir, 'reward.mjs');
    fs.writeFileSync(program, fs.readFileSync(program, 'utf8').replace("const cost = Number(option('--cost') ?? 0);", "const cost = 2 * Number(option('--cost') ?? 0);"));
    const edited = await run({ candidateCache: false, cache: caches });
    assert.equal(ws.runs('t'), before + 2, 'the edited program ran');
    assert.equal(term(edited).ran, term(edited).requests);
    const worst = (audit: AuditReport): number | null => audit.attacks[0]!.results[0]!.estimate.worstMargin;
    assert.equal(worst(edited), 2 * worst(first)!);
  });
});

describe('conforms lines', () => {
  const ws = termWorkspace([1, 2]);
  // t is EM but on three known rows: 1/0#3 (rollout/1.jsonl:4) +0.5, 2/1#0 (rollout/2.jsonl:9) −2,
  // and 1/2#0 (rollout/1.jsonl:17) +0.25, which a tolerance of 0.25 allows.
  const text = `${rolloutPool}reward t "EM, off on three rows" = command "node reward.mjs --value em --add 1/0#3=0.5 --add 2/1#0=-2 --add 1/2#0=0.25"
reward t_ok "EM, by the program" = command "node reward.mjs --value em"
field has_answer "the rollout answered" : boolean = command "node reward.mjs --value has-final"
reward t_lang "EM, in the language" { em 1 * exact_match(answer, gold.answers) }
detector U "nonempty final answer and no search at all" = has_final and answer != "" and search_calls == 0
detector H "the rollout answered" = has_final
reward R = t - 0.5 * U
reward R_ok = t_ok - 0.5 * U
audit a {
  reward t
  compare R, t_lang
  corpus wiki
  pools rollouts
  attack same_final targets U
  lattice U = 0.5
  conforms t to t_lang within 0.25
}

audit b {
  reward t_ok
  compare R_ok, t_lang
  corpus wiki
  pools rollouts
  attack same_final targets U
  lattice U = 0.5
  conforms t_ok to t_lang within 0
  conforms has_answer to H
}
`;
  const failing = 'conforms t to t_lang within 0.25';
  let outcome: AuditOutcome;
  let findings: Problem[];
  before(async () => {
    ({ outcome, findings } = await audited(ws, text));
  });

  it('a line that does not hold: the rows that differ, the largest difference, the first rows with both values, the rewards it marks', () => {
    const [line] = auditOf(outcome, 'a').conformance ?? [];
    assert.ok(line);
    assert.equal(line.text, failing);
    const start = text.indexOf(failing);
    const lineNo = text.slice(0, start).split('\n').length - 1;
    assert.deepEqual(line.range, { start: { line: lineNo, character: 2 }, end: { line: lineNo, character: 2 + failing.length } });
    assert.deepEqual([line.subject, line.reference, line.tolerance, line.rows, line.differing, line.holds], ['t', 't_lang', 0.25, 64, 2, false]);
    assert.deepEqual(line.largest, { difference: 2, trajectory: '2/1#0', file: 'rollout/2.jsonl', line: 9 });
    assert.deepEqual(line.first.map((r) => [r.trajectory, r.file, r.line, r.subject - r.reference]), [['1/0#3', 'rollout/1.jsonl', 4, 0.5], ['2/1#0', 'rollout/2.jsonl', 9, -2]]);
    for (const r of line.first) assert.ok(r.reference === 0 || r.reference === 1);
    // t is the line's subject and R derives from it; the rewrite in the language does not read it.
    assert.deepEqual(line.marks, ['t', 'R']);
  });

  it("marks every figure of the rewards that read the subject, and no other reward's", () => {
    const audit = auditOf(outcome, 'a');
    const marked = (entries: readonly { reward: string; notConforming?: string[] | undefined }[]): void => {
      assert.ok(entries.length > 0);
      for (const entry of entries) assert.deepEqual(entry.notConforming, entry.reward === 't_lang' ? undefined : [failing], entry.reward);
    };
    marked(audit.attacks.flatMap((a) => a.results));
    marked(audit.perPool);
    marked(audit.aggregate);
  });

  it('a line that holds: no row listed, nothing marked, a boolean compared as 0 or 1', () => {
    const audit = auditOf(outcome, 'b');
    assert.deepEqual(audit.conformance?.map((c) => [c.text, c.rows, c.differing, c.holds, c.largest, c.first, c.marks]), [
      ['conforms t_ok to t_lang within 0', 64, 0, true, null, [], []],
      ['conforms has_answer to H', 64, 0, true, null, [], []],
    ]);
    assert.ok([...audit.attacks.flatMap((a) => a.results), ...audit.perPool, ...audit.aggregate].every((e) => e.notConforming === undefined));
  });

  it('not-conforming: one error on the failing line, with how many rows differ and where the first is; none on a line that holds', () => {
    const found = findings.filter((f) => f.code === auditIssueCodes.notConforming);
    assert.equal(found.length, 1, JSON.stringify(findings.map((f) => f.code)));
    const [finding] = found;
    assert.equal(finding!.severity, 'error');
    assert.equal(text.slice(finding!.span.start, finding!.span.end), failing);
    assert.match(finding!.message, /\b2\b/);
    assert.ok(finding!.message.includes('rollout/1.jsonl:4'), finding!.message);
  });
});

describe('a program that fails stops its audit, saying why and where', () => {
  const ws = termWorkspace([1]);
  const specOf = (options: string, type = 'reward t "EM" ='): string => `${rolloutPool}${type} command "node reward.mjs --value em ${options}"
detector U "nonempty final answer and no search at all" = has_final and answer != "" and search_calls == 0
audit a {
  reward t
  corpus wiki
  pools rollouts
  attack same_final targets U
  lattice U = 0.5
}
`;
  /** The end of a reason that names a trajectory of rollout/1.jsonl at `line`. */
  const at = (id: string, line: number | string): string => `trajectory ${id} \\((?:.*/)?rollout/1\\.jsonl:${line}\\)\\)$`;
  const cases: [string, string, RegExp][] = [
    ['an error answer: its message, the trajectory, its file:line', '--fault error@1/0#3', new RegExp(`: the program failed on it: ZeroDivisionError: division by zero \\(reward\\.mjs:41\\) \\(request \\d+: ${at('1/0#3', 4)}`)],
    ['a request left unanswered', '--fault skip', new RegExp(`: no line answers request (\\d+); 1 of \\d+ unanswered \\(request \\1: ${at('\\S+', '\\d+')}`)],
    ['a request answered twice', '--fault twice', /: output line 2: request \d+ is answered twice$/],
    ['a line that is not JSON', '--fault nonjson', /: output line 1: not JSON: "Traceback \(most recent call last\):"$/],
    ['a number written as a string', '--fault string', new RegExp(`: output line 1: "value" must be a finite number, not "[0-9.]+" \\(request 0: ${at('1/0#0', 1)}`)],
    ['a null value', '--fault null', new RegExp(`: output line 1: "value" must be a finite number, not null \\(request 0: ${at('1/0#0', 1)}`)],
    ['exit status 1: the end of its stderr', '--fault exit', /: the command "node reward\.mjs --value em --fault exit" exited with status 1: .*RuntimeError: the judge model is missing$/],
  ];
  for (const [title, options, reason] of cases) {
    it(title, async () => {
      const text = specOf(options);
      const { outcome, findings } = await audited(ws, text);
      assert.equal(outcome.report, undefined);
      assert.equal(outcome.failures.length, 1);
      const [failure] = outcome.failures;
      assert.equal(failure!.audit, 'a');
      assert.equal(failure!.command, `node reward.mjs --value em ${options}`);
      assert.ok(failure!.reason.startsWith(`'t' command "node reward.mjs --value em ${options}": `), failure!.reason);
      assert.match(failure!.reason, reason);
      const failed = findings.filter((f) => f.code === auditIssueCodes.auditFailed);
      assert.equal(failed.length, 1);
      assert.equal(failed[0]!.severity, 'error');
      assert.ok(failed[0]!.message.includes(failure!.reason));
    });
  }

  it("a program that never answers is killed at the audit's timeout", async () => {
    const marker = newMarker();
    const text = specOf(`--fault hang ${marker}`).replace('  lattice U = 0.5\n', '  lattice U = 0.5\n  timeout 1\n');
    const started = Date.now();
    const { outcome } = await audited(ws, text);
    assert.ok(Date.now() - started < 10_000, 'stopped near the timeout');
    assert.match(outcome.failures[0]?.reason ?? '', /^'t' command ".*": the command ".*" did not finish within 1 s \(the audit's timeout\): it and every process it started were killed$/);
    assert.deepEqual(await survivors(marker), []);
  });

  it('a boolean field answered with a number', async () => {
    const text = specOf('--record out/flag', 'field flag "a flag" : boolean =').replace('search_calls == 0', 'search_calls == 0 and not flag').replace('reward t\n', 'reward t_lang\n')
      .replace('detector U', 'reward t_lang "EM" { em 1 * exact_match(answer, gold.answers) }\ndetector U');
    const { outcome } = await audited(ws, text);
    assert.equal(outcome.report, undefined);
    assert.match(outcome.failures[0]?.reason ?? '', /^'flag' command ".*": output line 1: "value" must be true or false, not [01] \(request 0: /);
  });
});

describe('consent: a program runs only when allowed', () => {
  const ws = termWorkspace([1]);
  const text = `${rolloutPool}field n_searched "searches" : number = command "node reward.mjs --value searches --record out/n"
reward t "EM" = command "node reward.mjs --value em --record out/t"
reward t_lang "EM, in the language" { em 1 * exact_match(answer, gold.answers) }
detector U "nonempty final answer and no search at all" = has_final and answer != "" and search_calls == 0
audit a {
  reward t
  corpus wiki
  pools rollouts
  attack same_final targets U
  lattice U = 0.5
}

audit checked {
  reward t_lang
  corpus wiki
  pools rollouts
  attack same_final targets U
  lattice U = 0.5
  conforms n_searched to t_lang within 10
}

audit plain {
  reward t_lang
  corpus wiki
  pools rollouts
  attack same_final targets U
  lattice U = 0.5
}
`;
  const cli = WorkspaceTrust.everything.withCommands(commandConsent(false, {}));

  it('without --allow-commands: the audit fails saying how to allow it, and the program never runs', async () => {
    const { outcome } = await audited(ws, text, { trust: cli, only: 'a' });
    assert.equal(outcome.report, undefined);
    assert.deepEqual(outcome.failures, [{
      audit: 'a', command: 'node reward.mjs --value em --record out/t',
      reason: `'t' command "node reward.mjs --value em --record out/t" was not run: a spec's programs run only with consent; run herald again with --allow-commands (or HERALD_ALLOW_COMMANDS=1 in the environment, for CI) once you have read what it runs`,
    }]);
    assert.equal(ws.runs('t'), 0);
  });

  it('a command field read only by a conforms line needs consent too', async () => {
    const { outcome } = await audited(ws, text, { trust: cli, only: 'checked' });
    assert.match(outcome.failures[0]?.reason ?? '', /^'n_searched' command "node reward\.mjs --value searches --record out\/n" was not run: /);
    assert.equal(ws.runs('n'), 0);
  });

  it('in an untrusted editor workspace: trust it to run the program', async () => {
    const { outcome } = await audited(ws, text, { trust: WorkspaceTrust.of([ws.root]), only: 'a' });
    assert.match(outcome.failures[0]?.reason ?? '', /^'t' command ".*" was not run: a spec's programs run only with consent; trust the workspace to run it/);
    assert.equal(ws.runs('t'), 0);
  });

  it('an audit that reads no program runs without consent', async () => {
    const audit = auditOf((await audited(ws, text, { trust: cli, only: 'plain' })).outcome, 'plain');
    assert.equal(audit.commandTerms, undefined);
    assert.equal(ws.runs('t') + ws.runs('n'), 0);
  });

  it('with consent, each audit runs the programs it reads', async () => {
    const { outcome } = await audited(ws, text, { trust: WorkspaceTrust.everything.withCommands(commandConsent(true, {})) });
    assert.deepEqual(outcome.report?.audits.map((a) => [a.name, (a.commandTerms ?? []).map((c) => c.term)]), [['a', ['t']], ['checked', ['n_searched']], ['plain', []]]);
    assert.deepEqual([ws.runs('t'), ws.runs('n')], [1, 1]);
  });
});
