import * as path from 'node:path';

// A researcher's own spec on samples/search-r1's rollouts (issue 37): a grounding term, L over
// citations and the paper's three attacks, on a verl dump that logs no citations. Its reward's doc
// holds `<answer>`, which a hover must show as text. Paths are relative to the sample's folder.

export const sampleDir = path.resolve(__dirname, '../../../samples/search-r1');

/** A researcher's own spec on the sample's rollouts: a grounding term, L over citations, the paper's three attacks. */
export const searchR1Spec = `corpus wiki = "../pools/corpus.jsonl"
pool rollouts = "rollout/*.jsonl" from verl(dialect: search_r1)

detector U "nonempty final answer and no search at all" =
  has_final and answer != "" and search_calls == 0
detector L "cites a real corpus passage it never retrieved" =
  any c in citations: c in corpus and c not in retrieved

reward R "the last <answer>, grounded" {
  answer      1.0   * token_f1(answer, gold.answers)
  ground      0.5   * grounding(citations, gold.answers)
  tool_cost  -0.03  * search_calls
}

audit a {
  reward R
  corpus wiki
  pools rollouts
  attack same_final targets U, L
  attack fake_id
  attack launder using lexical(8)
}
`;
