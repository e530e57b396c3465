import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { report } from '../../server/src/report/schema.js';

// `herald signal` and `herald compare` as users run them: the bundled CLI on samples/training.reward.
// Figures are checked against counts made here from the raw JSONL, and the table against the JSON.
const herald = path.resolve('dist/herald.js');
const spec = path.resolve('samples/training.reward');
const pools = path.resolve('samples/pools');

function runHerald(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [herald, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

type Row = { question_id: string; steps: { type: string; results?: string[] }[]; final: { answer: string; citations: string[] } | null; gold: { answers: string[] }; meta: Record<string, unknown> };
const readJsonl = (file: string): Row[] => readFileSync(path.join(pools, file), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Row);
const corpus = new Set(readFileSync(path.join(pools, 'corpus.jsonl'), 'utf8').split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { id: string }).id));

/** L restated: a citation that is a corpus id and that no search returned. */
function firesL(row: Row): boolean {
  const retrieved = new Set(row.steps.flatMap((s) => s.results ?? []));
  return (row.final?.citations ?? []).some((c) => corpus.has(c) && !retrieved.has(c));
}

const squad = (t: string): string => t.toLowerCase().replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '').replace(/\b(a|an|the)\b/g, ' ').replace(/\s+/g, ' ').trim();

describe('herald signal on the sample training log', () => {
  const json = runHerald(['signal', spec, '--format', 'json']);
  const table = runHerald(['signal', spec]);

  it('prints the exposure tables, and exits 1 because L reaches fewer groups than min_groups 10', () => {
    assert.equal(table.code, 1, table.stderr);
    assert.match(table.stdout, /detector exposure/);
    assert.match(table.stdout, /exposure per training step/);
    assert.match(table.stderr, /^\S*training\.reward:\d+:\d+: warning sparse-training-signal L's penalty reaches the optimizer in \d+ of 128 training groups \(training 'exposure' asks for 10\)/m);
  });

  it('counts firing rows, groups, mixed and all-firing groups as the raw log says', () => {
    assert.equal(json.code, 1);
    const parsed = report.parse(JSON.parse(json.stdout));
    const signal = parsed.signals![0]!;
    const L = signal.detectors.find((d) => d.name === 'L')!;
    const rows = readJsonl('train-R_L.jsonl');
    const byGroup = new Map<string, boolean[]>();
    for (const row of rows) byGroup.set(String(row.meta.group), [...(byGroup.get(String(row.meta.group)) ?? []), firesL(row)]);
    const firing = [...byGroup.values()].filter((g) => g.some(Boolean));
    assert.equal(signal.rows, rows.length);
    assert.equal(signal.groups, byGroup.size);
    assert.equal(L.lambda, 1.2);
    assert.equal(L.firingRows, rows.filter(firesL).length);
    assert.equal(L.firingGroups, firing.length);
    assert.equal(L.allFiringGroups, firing.filter((g) => g.every(Boolean)).length);
    assert.equal(L.mixedGroups, firing.filter((g) => !g.every(Boolean)).length);
    assert.equal(L.changedGroups + L.cancelledGroups, L.firingGroups);
    // An all-firing group is always cancelled by the group mean.
    assert.ok(L.cancelledGroups >= L.allFiringGroups);
    assert.equal(L.reachesOptimizer, L.changedGroups >= 10);
    // Every step of the log appears once, with its rows.
    const steps = new Map<number, number>();
    for (const row of rows) steps.set(Number(row.meta.step), (steps.get(Number(row.meta.step)) ?? 0) + 1);
    assert.deepEqual(signal.steps.map((s) => [s.step, s.rows]), [...steps].sort(([a], [b]) => a - b));
    assert.equal(signal.steps.reduce((n, s) => n + s.detectors[0]!.changedGroups, 0), L.changedGroups);

    // The table prints the same figures.
    const line = table.stdout.split('\n').find((l) => /^\s+L\s+1\.2\s/.test(l));
    assert.ok(line !== undefined, table.stdout);
    const cells = line.trim().split(/\s+/);
    assert.deepEqual(cells.slice(0, 3), ['L', '1.2', String(L.firingRows)]);
    assert.deepEqual(cells.slice(4, 9).map(Number), [L.firingGroups, L.mixedGroups, L.allFiringGroups, L.changedGroups, L.cancelledGroups]);
  });

  it('runs from the command line alone on a spec without a training block, with the same figures', () => {
    const paper = path.resolve('samples/paper.reward');
    const flagged = runHerald(['signal', paper, '--reward', 'R_L', '--log', path.join(pools, 'train-R_L.jsonl'), '--format', 'json']);
    const fromFlags = report.parse(JSON.parse(flagged.stdout)).signals![0]!;
    const fromBlock = report.parse(JSON.parse(json.stdout)).signals![0]!;
    assert.equal(fromFlags.range, null);
    assert.equal(fromFlags.minGroups, 5);
    assert.deepEqual(fromFlags.detectors.map(({ reachesOptimizer: _r, ...d }) => d), fromBlock.detectors.map(({ reachesOptimizer: _r, ...d }) => d));
    assert.equal(runHerald(['signal', paper, '--log', path.join(pools, 'train-R_L.jsonl')]).code, 2, 'no block and no --reward');
  });

  it('reads a training log given on the command line instead of the block\'s', () => {
    const other = runHerald(['signal', spec, '--log', path.join(pools, 'train-R0.jsonl'), '--format', 'json']);
    const signal = report.parse(JSON.parse(other.stdout)).signals![0]!;
    assert.equal(signal.logs[0]!.name, 'train-R0');
    assert.equal(signal.detectors[0]!.firingRows, readJsonl('train-R0.jsonl').filter(firesL).length);
  });
});

describe('herald compare on the sample evaluation logs', () => {
  const json = runHerald(['compare', spec, '--format', 'json']);
  const table = runHerald(['compare', spec]);
  const parsed = report.parse(JSON.parse(json.stdout));
  const comparison = parsed.comparisons![0]!;

  it('prints the comparison and non-inferiority tables; exit code follows the gate', () => {
    assert.match(table.stdout, /paired differences \(treatment − base, points\)/);
    assert.match(table.stdout, /EM non-inferiority/);
    assert.equal(table.code, comparison.nonInferiority.passed ? 0 : 1);
    assert.deepEqual(comparison.benchmarks, ['hotpot', '2wiki', 'musique']);
    assert.equal(comparison.pairs, readJsonl('eval-R0.jsonl').length);
  });

  it('computes EM and natural L incidence per benchmark as the raw logs say', () => {
    const em = comparison.metrics.find((m) => m.key === 'em')!;
    const incidence = comparison.metrics.find((m) => m.key === 'incidence:L')!;
    for (const [arm, file] of [['base', 'eval-R0.jsonl'], ['treatment', 'eval-R_L.jsonl']] as const) {
      const rows = readJsonl(file);
      for (const benchmark of comparison.benchmarks) {
        const mine = rows.filter((r) => r.meta.benchmark === benchmark);
        // Two samples per question: the cluster-weighted mean equals the row mean.
        const exact = mine.filter((r) => r.gold.answers.some((a) => squad(a) === squad(r.final?.answer ?? ''))).length / mine.length;
        assert.ok(Math.abs(em.cells.find((c) => c.benchmark === benchmark)![arm]! - exact) < 1e-12, `${arm} ${benchmark}`);
        const events = incidence.cells.find((c) => c.benchmark === benchmark)![arm === 'base' ? 'baseEvents' : 'treatmentEvents'];
        assert.equal(events, mine.filter(firesL).length, `${arm} ${benchmark} L events`);
      }
    }
  });

  it('prints the same differences and intervals in the table as in the JSON', () => {
    const points = (x: number | null): string => {
      if (x === null) return 'n/a';
      const t = (x * 100).toFixed(2);
      return /^-?0\.00$/.test(t) ? '0.00' : t.startsWith('-') ? `−${t.slice(1)}` : `+${t}`;
    };
    for (const metric of comparison.metrics.filter((m) => m.key === 'em' || m.key === 'incidence:L')) {
      for (const cell of metric.cells) {
        const line = table.stdout.split('\n').find((l) => l.includes(metric.label) && l.includes(` ${cell.benchmark} `));
        assert.ok(line !== undefined, `${metric.key} ${cell.benchmark}`);
        assert.ok(line.includes(`${points(cell.difference)}  [${points(cell.interval.low)}, ${points(cell.interval.high)}]`), line);
        assert.ok(line.includes(cell.verdict), line);
      }
    }
    for (const g of comparison.nonInferiority.benchmarks) {
      assert.ok(table.stdout.split('\n').some((l) => new RegExp(`^\\s+${g.benchmark}\\s+${points(g.lower)}\\s+${g.passed ? '✓' : '✗'}`).test(l)), g.benchmark);
    }
  });

  it('swapping the arms on the command line negates every difference', () => {
    const swapped = runHerald(['compare', spec, '--base', path.join(pools, 'eval-R_L.jsonl'), '--treatment', path.join(pools, 'eval-R0.jsonl'), '--format', 'json']);
    const other = report.parse(JSON.parse(swapped.stdout)).comparisons![0]!;
    assert.deepEqual(other.base.map((l) => l.name), ['eval-R_L']);
    for (const metric of comparison.metrics) {
      const mirror = other.metrics.find((m) => m.key === metric.key)!;
      metric.cells.forEach((c, i) => assert.ok(Math.abs(c.difference! + mirror.cells[i]!.difference!) < 1e-12, `${metric.key} ${c.benchmark}`));
    }
  });

  it('rejects one arm on the command line without the other', () => {
    assert.equal(runHerald(['compare', spec, '--base', path.join(pools, 'eval-R0.jsonl')]).code, 2);
  });
});
