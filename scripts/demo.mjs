// `npm run demo`: check every sample spec, audit the bundled samples, and run the training-signal
// audit and the paired comparison, as the README's quick start describes. Each command's whole
// output (about 1,600 lines in all) goes to a file under demo-output/; the terminal gets a short
// summary per command: its exit, the count of findings by severity and code, and the key findings.
// `npm run demo -- --full` prints every command's output as it runs instead.
// Exits 1 when a command exits with a code the sample does not expect (the list below).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
// `--out DIR` puts the outputs elsewhere (the test of this script does).
const outAt = process.argv.indexOf('--out');
const outDir = outAt >= 0 && process.argv[outAt + 1] !== undefined ? path.resolve(process.argv[outAt + 1]) : path.join(root, 'demo-output');
const full = process.argv.includes('--full');

/** Each command, the exit codes the samples give by design (signal and compare exit 1: see the README), and whether it takes --quiet. */
const steps = [
  { name: 'check', args: ['check', 'samples/*.reward', 'samples/*/*.reward'], expect: [0] },
  { name: 'audit-paper', args: ['audit', 'samples/paper.reward'], expect: [0], quiet: true },
  { name: 'audit-search-r1', args: ['audit', 'samples/search-r1/search-r1.reward'], expect: [0], quiet: true },
  { name: 'audit-deep-research', args: ['audit', 'samples/deep-research/deep-research.reward'], expect: [0], quiet: true },
  { name: 'audit-robustness', args: ['audit', 'samples/robustness.reward', '--tables', 'text'], expect: [0], quiet: true },
  { name: 'audit-attacks', args: ['audit', 'samples/attacks.reward', '--tables', 'text'], expect: [0], quiet: true },
  { name: 'audit-edits', args: ['audit', 'samples/deep-research/edits.reward'], expect: [0], quiet: true },
  { name: 'signal-training', args: ['signal', 'samples/training.reward'], expect: [0, 1] },
  { name: 'compare-training', args: ['compare', 'samples/training.reward'], expect: [0, 1] },
  { name: 'compare-seed-runs', args: ['compare', 'samples/seed-runs.reward', '--tables', 'text'], expect: [0, 1] },
];

const entries = (dir) => readdirSync(dir, { withFileTypes: true });

/** `samples/*.reward` and `samples/*\/*.reward` as the shell expands them (Node 20 has no glob). */
function expand(pattern) {
  if (!pattern.includes('*')) return [pattern];
  const [top, ...rest] = pattern.split('/');
  const folders = rest.length === 2 && rest[0] === '*' ? entries(path.join(root, top)).filter((e) => e.isDirectory()).map((e) => `${top}/${e.name}`) : [top];
  const suffix = rest[rest.length - 1].replace('*', '');
  return folders.flatMap((f) => entries(path.join(root, f)).filter((e) => e.isFile() && e.name.endsWith(suffix)).map((e) => `${f}/${e.name}`)).sort();
}

/** `file:line:col: severity code message`, the form every finding and problem is printed in. */
const findingLine = /^(\S+?):(\d+):(\d+): (error|warning|information|hint) (\S+) (.*)$/;
/** The codes that say most about a reward, shown first among the key findings. */
const keyCodes = ['expect-failed', 'attack-succeeds', 'penalty-cancellation', 'asr-regression', 'frozen-field', 'small-sample'];
const severityRank = { error: 0, warning: 1, information: 2, hint: 3 };
const maxKeyFindings = 3;
const maxMessage = 120;

function summarize(stdout, stderr) {
  // `herald check` prints its problems on stdout, the other commands their findings on stderr.
  const findings = `${stdout}\n${stderr}`.split('\n').map((line) => findingLine.exec(line)).filter((m) => m !== null)
    .map((m) => ({ where: `${m[1]}:${m[2]}`, severity: m[4], code: m[5], message: m[6] }));
  const bySeverity = new Map();
  const byCode = new Map();
  for (const f of findings) {
    bySeverity.set(f.severity, (bySeverity.get(f.severity) ?? 0) + 1);
    byCode.set(f.code, (byCode.get(f.code) ?? 0) + 1);
  }
  const rank = (f) => [severityRank[f.severity] ?? 9, keyCodes.includes(f.code) ? keyCodes.indexOf(f.code) : keyCodes.length];
  const key = [...findings].sort((a, b) => {
    const [ra, rb] = [rank(a), rank(b)];
    return ra[0] - rb[0] || ra[1] - rb[1];
  }).filter((f) => f.severity === 'error' || f.severity === 'warning').slice(0, maxKeyFindings);
  // The report's own one-line verdict: `spec paper.reward · 3 audits · 6 expectations: 6 passed, 0 failed`.
  const verdict = stdout.split('\n').find((line) => /^spec \S+ · /.test(line) || /^checked \d+ specs?: /.test(line))
    ?? stderr.split('\n').find((line) => /^checked \d+ specs?: /.test(line));
  // What a command says about its outcome besides findings (`herald: matched: EM non-inferiority fails on …`).
  const notes = stderr.split('\n').filter((line) => line.startsWith('herald: ')).slice(0, 2);
  return { findings, bySeverity, byCode, key, verdict, notes };
}

const cut = (s) => ([...s].length <= maxMessage ? s : `${[...s].slice(0, maxMessage - 1).join('')}…`);

mkdirSync(outDir, { recursive: true });
let failed = 0;
for (const step of steps) {
  const args = step.args.flatMap(expand);
  const command = `herald ${step.args.join(' ')}`;
  if (full) console.log(`\n$ ${command}`);
  // Progress lines (of the commands that print them) only in the full run: the summary reads the findings.
  const quiet = !full && step.quiet === true ? ['--quiet'] : [];
  const run = spawnSync(process.execPath, [path.join(root, 'dist/herald.js'), ...args, ...quiet], {
    cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: full ? 'inherit' : 'pipe',
  });
  const code = run.status ?? 1;
  const ok = step.expect.includes(code);
  if (!ok) failed += 1;
  if (full) {
    if (!ok) console.log(`herald exited ${code}; the sample expects ${step.expect.join(' or ')}`);
    continue;
  }
  const file = path.join(outDir, `${step.name}.txt`);
  writeFileSync(file, `$ ${command}\n${run.stdout}${run.stderr === '' ? '' : `\n--- stderr ---\n${run.stderr}`}`);
  const { findings, bySeverity, byCode, key, verdict, notes } = summarize(run.stdout, run.stderr);
  const counts = ['error', 'warning', 'information'].map((s) => `${bySeverity.get(s) ?? 0} ${s === 'information' ? 'info' : `${s}s`}`).join(', ');
  const codes = [...byCode].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ×${n}`).join(', ');
  console.log(`${ok ? '✓' : '✗'} ${command}  (exit ${code}${ok ? '' : `; expected ${step.expect.join(' or ')}`})`);
  if (verdict !== undefined) console.log(`    ${verdict}`);
  for (const note of notes) console.log(`    ${cut(note)}`);
  console.log(`    findings: ${findings.length === 0 ? 'none' : `${counts}${codes === '' ? '' : ` (${codes})`}`}`);
  for (const f of key) console.log(`    ${f.severity} ${f.code} at ${f.where}: ${cut(f.message)}`);
  console.log(`    full output: ${path.relative(process.cwd(), file)} (${(run.stdout + run.stderr).split('\n').length} lines)`);
}
if (!full) console.log(`\nEvery command's whole output is in ${path.relative(process.cwd(), outDir)}/; \`npm run demo -- --full\` prints it all here.`);
if (failed > 0) {
  console.error(`demo: ${failed} command(s) exited with a code the samples do not expect`);
  process.exit(1);
}
