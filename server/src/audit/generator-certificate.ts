// The certificate per generator (issue 17, §2): the finite-set certificate covers only the edits
// that were run, so it must say which generators ran them. Each triggering edit is credited to the
// generators that proposed its passage (edits/edit-origins.ts; an id several generators
// proposed belongs to each), and an exact attack's edits to the attack's kind.
import type { AttackRun } from '../edits/attack-run.js';
import type { GeneratorPlan } from '../edits/attack-plan.js';
import type { Scorer } from '../edits/features.js';
import type { ScoringMemo } from '../edits/scoring-memo.js';
import type { GeneratorCertificate, GeneratorGain } from '../report/generator-schema.js';
import { triggeringEdits } from './certificate.js';
import type { LatticePenalty } from './lattice.js';

/** The families a reader would expect tested, and how the report names one that was not. */
const families: readonly { readonly kind: GeneratorPlan['kind']; readonly name: string }[] = [
  { kind: 'lexical', name: 'lexical(K)' },
  { kind: 'bm25', name: 'bm25(K)' },
  { kind: 'file', name: 'a candidates file' },
  { kind: 'command', name: 'a command (dense retriever, LLM)' },
];

/** The generators of one attack as the certificate names them: a launder attack's, else its kind. */
function labelsOf(run: AttackRun): string[] {
  return run.plan.kind === 'launder' ? run.plan.generators.map((g) => g.label) : [run.plan.kind];
}

/** Which of the attack's generators proposed an edit (bit g); one generator, or an exact attack: bit 0. */
function originOf(run: AttackRun, edit: number): number {
  return labelsOf(run).length === 1 ? 1 : Math.max(0, run.index.editOrigins?.[edit] ?? 0);
}

export function certifyByGenerator(
  runs: readonly AttackRun[],
  originalValues: Float64Array,
  base: Scorer,
  penalties: readonly LatticePenalty[],
  memo: ScoringMemo,
): GeneratorCertificate[] {
  const present = new Set(runs.flatMap((run) => (run.plan.kind === 'launder' ? run.plan.generators.map((g) => g.kind) : [])));
  const untested = families.filter((f) => !present.has(f.kind)).map((f) => f.name);
  return penalties.map((p, j) => {
    const gains = new Map<AttackRun, { edits: number; maxGain: number | null; certified: boolean }[]>(
      runs.map((run) => [run, labelsOf(run).map(() => ({ edits: 0, maxGain: null, certified: true }))]));
    for (const { run, edits, gains: margins, strengthened } of triggeringEdits(runs, originalValues, base, penalties, j, memo)) {
      for (const e of edits) {
        const mask = originOf(run, e);
        gains.get(run)!.forEach((g, bit) => {
          if ((mask & (1 << bit)) === 0) return;
          g.edits += 1;
          g.maxGain = g.maxGain === null ? margins.at(e) : Math.max(g.maxGain, margins.at(e));
          if (strengthened.at(e) >= 0) g.certified = false;
        });
      }
    }
    const generators: GeneratorGain[] = runs.flatMap((run) => labelsOf(run).map((generator, bit) => ({ attack: run.plan.name, generator, ...gains.get(run)![bit]! })));
    const tested = generators.filter((g) => g.edits > 0);
    const fails = [...new Set(tested.filter((g) => !g.certified).map((g) => g.generator))];
    const certifies = [...new Set(tested.map((g) => g.generator))].filter((label) => !fails.includes(label));
    return { detector: p.name, lambda: p.lambda, generators, certifies, fails, untested };
  });
}
