import type { CellPower } from '../report/compare-schema.js';
import { powerLevel, powerTarget, reductionPower } from '../stats/power.js';

export interface CellDesign {
  readonly questions: number;
  readonly baseRows: number;
  readonly treatmentRows: number;
  readonly baseEvents: number;
  readonly treatmentEvents: number;
  readonly differences: readonly number[];
}

/** The power figures of a rate cell; null for other metrics and for a cell without pairs. */
export function cellPower(rate: boolean, design: CellDesign, claimPoints: number): CellPower {
  if (!rate) return null;
  const claim = claimPoints / 100;
  const perQuestion = design.questions === 0 ? 0 : (design.baseRows + design.treatmentRows) / (2 * design.questions);
  const figures = reductionPower({ ...design, perQuestion }, claim);
  if (figures === undefined) return null;
  return {
    questions: design.questions, perQuestion, baseRate: figures.baseRate, rateSource: figures.rateSource, designEffect: figures.designEffect,
    level: powerLevel, power: powerTarget, detectable: figures.detectable, claim, questionsNeeded: figures.questionsNeeded,
    underpowered: figures.detectable === null || figures.detectable > claim,
  };
}
