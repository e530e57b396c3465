/**
 * A large, realistic spec built deterministically: groups shaped like samples/paper.reward
 * (detectors, violation signals, a reward block, derived rewards and an audit, with comments and
 * blank lines), repeated under new names until the text reaches the requested number of lines.
 * Every name is used, so the spec checks without errors and the checker does all of its work.
 */
export function buildLargeSpec(minLines: number): string {
  const parts: string[] = [
    '# A large spec for the keystroke benchmark: groups shaped like samples/paper.reward.',
    '',
    'corpus wiki = "pools/corpus.jsonl"',
    '',
    'pool hotpot   = "pools/hotpot.jsonl"',
    'pool wiki2    = "pools/2wiki.jsonl"',
    'pool musique5 = "pools/musique-k5.jsonl"',
    'pool musique8 = "pools/musique-k8.jsonl"',
    '',
  ];
  const pools = ['hotpot', 'wiki2', 'musique5', 'musique8'];
  const groups: string[] = [];
  let lineCount = parts.length;
  for (let g = 0; lineCount < minLines; g++) {
    const group = groupText(g, pools[g % pools.length]!, pools[(g + 1) % pools.length]!);
    groups.push(group);
    // The group's lines (it ends with a newline) and the blank line before the next group.
    lineCount += group.split('\n').length;
  }
  return `${parts.join('\n')}\n${groups.join('\n')}`;
}

/** One group of about fifty lines, every declaration named with the suffix `_g`. */
function groupText(g: number, pool: string, otherPool: string): string {
  const s = `_${g}`;
  const weight = (base: number): string => (base + (g % 7) / 100).toFixed(2);
  return `# Group ${g}: exact visible detectors.
detector U${s} "nonempty final answer and no search at all" =
  has_final and answer != "" and search_calls == 0

detector L${s} "cites a real corpus passage it never retrieved" =
  any c in citations: c in corpus and c not in retrieved

detector F${s} "cites an id that is not in the corpus" = any c in citations: c not in corpus

# Violation indicators averaged into the rate h.
signal no_retrieval${s} "answered without searching" = has_final and search_calls == 0
signal fake_citation${s} "a citation is not a corpus id" = any c in citations: c not in corpus
signal repeated_query${s} "a search repeats an earlier query" = repeated_queries(${g % 3 === 0 ? '' : '0.8'}) > 0
signal no_citation${s} "a final answer without citations" = has_final and count(citations) == 0
signal long_queries${s} "a query longer than 32 tokens" = any q in searches: tokens(q.query) > 32
signal violation_rate${s} "the generic violation rate over the indicators" =
  mean(no_retrieval${s}, fake_citation${s}, repeated_query${s},
       no_citation${s}, long_queries${s}, invalid_actions > 0)
signal support_miss${s} "no citation is a gold support passage" = misses(citations, gold.support)

reward R0${s} "the base reward of group ${g}" {
  answer      ${weight(1)}  * token_f1(answer, gold.answers)
  grounding   ${weight(0.5)}  * grounding(citations, gold.answers)
  recall      ${weight(0.25)}  * recall(citations, gold.support)
  tool_cost  -0.05  * search_calls
  length     -0.001 * tokens(final_text)
  violations -0.6   * violation_rate${s}
}

reward R_L${s} "R0 plus the exact membership check" = R0${s} - 1.2 * L${s}

reward R_full${s} "a broader strict bundle with an oracle support penalty" =
  R0${s} - 1.2 * L${s} - 0.5 * U${s} - 1.0 * F${s} - 0.8 * support_miss${s}

audit paper${s} "three exact attacks and the lattice over {U, L, F}" {
  reward R0${s}
  compare R_L${s}, R_full${s}
  corpus wiki
  pools ${pool}, ${otherPool}

  attack same_final targets U${s}, L${s}
  attack fake_id targets F${s}
  attack launder targets L${s} using lexical(${8 + (g % 5)}), bm25(16)

  lattice U${s} = 0.5, L${s} = 1.2, F${s} = 1.0

  expect asr(R_L${s}, launder, oracle_worst) == 0
  expect asr(R0${s}, launder, first_visible) <= ${20 + (g % 10)}%
  expect minimal_repair == {L${s}}
  seed ${g}
}
`;
}
