// Issue 17, §1: `candidates command "…"`. The protocol round trip, what the command's stdin holds
// (visible fields only), bad output named by its line, a hanging command killed with everything it
// started, and the command cache (a re-audit does not run the command again).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditSpec } from '../../../server/src/audit/audit-spec.js';
import { runCommandGenerators } from '../../../server/src/audit/command-candidates.js';
import type { AttackPlan } from '../../../server/src/edits/attack-plan.js';
import { commandRequests, parseAnswers, requestLines } from '../../../server/src/candidates/command.js';
import { WorkspaceTrust } from '../../../server/src/inputs/trust.js';
import { failureFindings } from '../../../server/src/findings/data-findings.js';
import type { Trajectory } from '../../../server/src/pool/types.js';
import { workspace } from '../../inputs/workspace.js';
import { trajectory } from './fixtures.js';

const visibleKeys = ['request', 'trajectory_id', 'position', 'question', 'answer', 'final_text', 'retrieved', 'cited'];

const attackWith = (command: string): AttackPlan => ({
  name: 'launder', kind: 'launder', targets: ['L'], generators: [{ kind: 'command', command, label: `candidates command ${JSON.stringify(command)}` }],
  span: { start: 0, end: 0 },
});

function twoCitations(id: string, gold: Trajectory['gold']): Trajectory {
  const t = trajectory(id, 'Which river flows through Paris?', 'the Seine', gold);
  return { ...t, steps: [{ type: 'search', query: 'Paris river', results: ['r1', 'r2'] }], final: { answer: 'the Seine', citations: ['r1', 'r2'], text: 'the Seine [r1][r2]' } };
}

describe('the command protocol', () => {
  const rows = [twoCitations('t1', { answers: ['Seine'], support_ids: ['g1'] }), trajectory('t2', 'Who?', null)];

  it('one request per (trajectory, citation position), visible fields only, answered in any order', () => {
    const requests = commandRequests(rows);
    assert.deepEqual(requests.map((r) => [r.request, r.trajectory_id, r.position]), [[0, 't1', 0], [1, 't1', 1]]);
    const lines = requestLines(requests).trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const line of lines) assert.deepEqual(Object.keys(line), visibleKeys);
    assert.deepEqual(lines[1], { request: 1, trajectory_id: 't1', position: 1, question: 'Which river flows through Paris?', answer: 'the Seine', final_text: 'the Seine [r1][r2]', retrieved: ['r1', 'r2'], cited: ['r1', 'r2'] });
    const parsed = parseAnswers('{"request": 1, "candidates": ["b"]}\n\n{"request": 0, "candidates": ["a", "c"]}\n', requests);
    assert.deepEqual(parsed, { ok: true, lists: [{ traj_id: 't1', citation_index: 0, candidates: ['a', 'c'] }, { traj_id: 't1', citation_index: 1, candidates: ['b'] }] });
  });

  it('the stdin holds no gold: rows differing only in gold write the same bytes, and unreadable gold is never read', () => {
    const a = [twoCitations('t', { answers: ['Seine'], support_ids: ['g1'] })];
    const b = [twoCitations('t', { answers: ['GOLD-ONLY-ANSWER'], support_ids: ['GOLD-ONLY-ID'] })];
    const sealed = [Object.defineProperty({ ...a[0]! }, 'gold', { get() { throw new Error('a command request read gold'); } })];
    const text = requestLines(commandRequests(b));
    assert.equal(text, requestLines(commandRequests(a)));
    assert.equal(requestLines(commandRequests(sealed)), text);
    assert.ok(!text.includes('GOLD-ONLY') && !text.includes('gold'), text);
  });

  it('bad output is an error naming the output line, never a crash', () => {
    const requests = commandRequests(rows);
    const cases: [string, RegExp][] = [
      ['{"request":0,"candidates":[]}\nnot json\n', /^command output line 2: not JSON: "not json"$/],
      ['{"request":0,"candidates":[]}\n{"request":0,"candidates":[]}\n', /^command output line 2: request 0 is answered twice$/],
      ['{"request":7,"candidates":[]}\n', /^command output line 1: "request" must be a request number from 0 to 1, not 7$/],
      ['\n\n{"request":0,"candidates":[1,2]}\n', /^command output line 3: "candidates" must be an array of passage ids/],
      ['[1]\n', /^command output line 1: expected an object/],
      ['{"request":1,"candidates":[]}\n', /^command output: no line answers request 0 \(trajectory t1, position 0\); 1 of 2 unanswered$/],
    ];
    for (const [output, error] of cases) {
      const parsed = parseAnswers(output, requests);
      assert.equal(parsed.ok, false);
      if (!parsed.ok) assert.match(parsed.error, error);
    }
  });
});

describe('running a command', () => {
  const ws = workspace();
  const rows = [twoCitations('t1', { answers: ['Seine'], support_ids: ['g1'] })];
  const ctx = { cwd: ws.dir, timeoutSeconds: 30, corpusHash: undefined, cacheDir: false as const };

  it('answers are read back; ids are matched to their request', async () => {
    ws.write('answer.mjs', `import { createInterface } from 'node:readline';
for await (const line of createInterface({ input: process.stdin })) { const r = JSON.parse(line); console.log(JSON.stringify({ request: r.request, candidates: ['x' + r.position] })); }`);
    const outcome = await runCommandGenerators([attackWith('node answer.mjs')], rows, ctx);
    assert.equal(outcome.kind, 'done');
    if (outcome.kind !== 'done') return;
    const answers = outcome.answers.get('node answer.mjs');
    assert.deepEqual(answers?.lists.map((l) => [l.citation_index, l.candidates]), [[0, ['x0']], [1, ['x1']]]);
    assert.equal(answers?.record.requests, 2);
    assert.match(answers?.record.outputSha256 ?? '', /^[0-9a-f]{64}$/);
  });

  it('bad output stops the audit with the command and its output line', async () => {
    const outcome = await runCommandGenerators([attackWith(`printf '{"request":0,"candidates":[]}\\nnot json\\n'`)], rows, ctx);
    assert.equal(outcome.kind, 'failed');
    if (outcome.kind === 'failed') assert.match(outcome.error, /^candidates command ".*": command output line 2: not JSON: "not json"$/);
  });

  it('a failing command: its status and the end of its stderr', async () => {
    const outcome = await runCommandGenerators([attackWith('echo model not found >&2; exit 3')], rows, ctx);
    assert.equal(outcome.kind, 'failed');
    if (outcome.kind === 'failed') assert.match(outcome.error, /exited with status 3: model not found$/);
  });

  // The sleeper is Node itself: `npm test` runs with only node and npm on PATH (scripts/test-bare.mjs).
  const sleeper = `${JSON.stringify(process.execPath)} -e "setTimeout(() => {}, 600000)"`;

  it('a command that hangs is killed at the timeout, with the processes it started (no orphan)', async () => {
    const pidFile = path.join(ws.dir, 'sleeper.pid');
    const started = Date.now();
    const outcome = await runCommandGenerators([attackWith(`${sleeper} & echo $! > ${JSON.stringify(pidFile)}; wait`)], rows, { ...ctx, timeoutSeconds: 1 });
    assert.ok(Date.now() - started < 10_000, 'killed near the timeout');
    assert.equal(outcome.kind, 'failed');
    if (outcome.kind === 'failed') assert.match(outcome.error, /did not finish within 1 s \(the audit's timeout\): it and every process it started were killed/);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    assert.ok(pid > 0);
    assert.ok(await gone(pid), `process ${pid} (the command's child) is still running`);
  });

  it('a cancelled audit kills the command', async () => {
    let cancelled = false;
    setTimeout(() => (cancelled = true), 300);
    const started = Date.now();
    const outcome = await runCommandGenerators([attackWith(sleeper)], rows, { ...ctx, isCancelled: () => cancelled });
    assert.equal(outcome.kind, 'cancelled');
    assert.ok(Date.now() - started < 5_000);
  });
});

/** True once `pid` is no process or a zombie waiting to be reaped (it runs nothing). */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    try {
      process.kill(pid, 0);
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return true;
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

describe('a command in an audit', () => {
  const ws = workspace();
  const pool = fs.readFileSync(path.join(ws.dir, 'data/hotpot.jsonl'), 'utf8').split('\n').slice(0, 40).join('\n');
  ws.write('data/small.jsonl', `${pool}\n`);
  ws.write('gen.mjs', `import { appendFileSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
appendFileSync('runs.txt', 'run\\n');
const ids = readFileSync('data/corpus.jsonl', 'utf8').split('\\n').filter(Boolean).slice(0, 30).map((l) => JSON.parse(l).id);
for await (const line of createInterface({ input: process.stdin })) {
  const r = JSON.parse(line);
  appendFileSync('stdin.jsonl', line + '\\n');
  console.log(JSON.stringify({ request: r.request, candidates: ['not-a-passage', ...r.retrieved.slice(0, 1), ...ids] }));
}`);
  const spec = `corpus wiki = "data/corpus.jsonl"
pool hotpot = "data/small.jsonl"
detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved
reward R0 {
  answer 1.0 * token_f1(answer, gold.answers)
  grounding 0.6 * grounding(citations, gold.answers)
}
reward R_L = R0 - 1.2 * L
audit quick {
  reward R0
  compare R_L
  corpus wiki
  pools hotpot
  attack dense = launder targets L using candidates command "node gen.mjs"
  lattice L = 1.2
}
`;
  const specFile = ws.write('spec.reward', spec);
  const cacheDir = path.join(ws.root, 'cache');

  it('runs once, records the command and its output hash, drops ids outside the corpus or retrieved, and a re-audit reads the cache', async () => {
    const first = await auditSpec(spec, specFile, { candidateCache: cacheDir });
    assert.deepEqual(first.failures, []);
    const attack = first.report?.audits[0]?.attacks[0];
    assert.equal(attack?.commands?.[0]?.command, 'node gen.mjs');
    assert.ok((attack?.counts.edits.constructible ?? 0) > 0);
    assert.match(attack?.candidateNotes[0] ?? '', /^candidates command "node gen.mjs": supplied candidates ignored: \d+ not corpus ids, \d+ already retrieved or cited$/);
    const stdin = fs.readFileSync(path.join(ws.dir, 'stdin.jsonl'), 'utf8').trimEnd().split('\n');
    assert.equal(stdin.length, attack?.commands?.[0]?.requests);
    for (const line of stdin) assert.deepEqual(Object.keys(JSON.parse(line) as object), visibleKeys, 'the stdin holds visible fields only');
    const second = await auditSpec(spec, specFile, { candidateCache: cacheDir });
    assert.equal(fs.readFileSync(path.join(ws.dir, 'runs.txt'), 'utf8'), 'run\n', 'the second audit did not run the command');
    assert.deepEqual(second.report?.audits[0]?.attacks[0], attack);
  });

  it('bad output: the audit fails with the output line, shown on the generator', async () => {
    const bad = spec.replace('"node gen.mjs"', '"echo nonsense"');
    const outcome = await auditSpec(bad, specFile, { candidateCache: false });
    assert.equal(outcome.report, undefined);
    assert.deepEqual(outcome.failures, [{ audit: 'quick', command: 'echo nonsense', reason: 'candidates command "echo nonsense": command output line 1: not JSON: "nonsense"' }]);
    const [finding] = failureFindings([], outcome.failures, outcome.model);
    assert.equal(bad.slice(finding!.span.start, finding!.span.end), 'candidates command "echo nonsense"');
  });

  it('in an untrusted workspace the command is not run, and the audit says why', async () => {
    const outcome = await auditSpec(spec, specFile, { trust: WorkspaceTrust.of([ws.dir]), candidateCache: false });
    assert.equal(outcome.report, undefined);
    assert.match(outcome.failures[0]?.reason ?? '', /^candidates command "node gen.mjs" was not run: a spec's programs run only with consent; trust the workspace to run it \(VS Code: Manage Workspace Trust; another editor: send initializationOptions {"workspaceTrusted": true}/);
    assert.equal(fs.readFileSync(path.join(ws.dir, 'runs.txt'), 'utf8'), 'run\n');
    // The diagnostic sits on the generator, where the fix (trusting the workspace) applies.
    const [finding] = failureFindings([], outcome.failures, outcome.model);
    assert.equal(spec.slice(finding!.span.start, finding!.span.end), 'candidates command "node gen.mjs"');
  });
});
