import * as path from 'node:path';

// One spec with an audit and a training block over the sample pools, for the language server's
// tests: one run in the worker analyses both. `hotpot` is the audited pool's path (a copy the test
// may delete or break).

export const samplePools = path.resolve(__dirname, '../../../samples/pools');

export function auditAndTrainingSpec(hotpot = `${samplePools}/hotpot.jsonl`): string {
  const pools = samplePools;
  return `corpus wiki = "${pools}/corpus.jsonl"
pool hotpot = "${hotpot}"
pool train = "${pools}/train-R_L.jsonl"

detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved

reward R0 {
  answer    1.0 * token_f1(answer, gold.answers)
  grounding 0.6 * grounding(citations, gold.answers)
}

reward R_L = R0 - 1.2 * L

audit quick {
  reward R0
  compare R_L
  corpus wiki
  pools hotpot
  attack launder targets L using lexical(4)
  lattice L = 1.2
  expect asr(R_L, launder, oracle_worst) == 0
}

training exposure {
  reward R_L
  corpus wiki
  log train
  min_groups 1000
}
`;
}
