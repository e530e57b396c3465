/** One line per keyword, shown on hover and as completion documentation. */
export const keywordDocs: Readonly<Record<string, string>> = {
  corpus: '`corpus NAME = "path.jsonl"` declares a passage corpus: one `{"id","title","text"}` object per line, the path relative to the spec.',
  pool: '`pool NAME = "path.jsonl"` declares a pool of logged trajectories, one JSON object per line.',
  signal: '`signal NAME "doc" = EXPR` names a number or boolean computed from a trajectory; it may read oracle fields (`gold`).',
  detector: '`detector NAME "doc" = EXPR` names an exact 0/1 check of a violation; it must be boolean and visible (no `gold`).',
  reward: '`reward NAME "doc" { TERM… }` is a weighted sum of terms; `reward NAME = BASE - W * X` derives one reward from another.',
  audit: '`audit NAME "doc" { … }` is a HERALD audit: counterfactual attacks on logged trajectories, scored by the audited reward.',
  training: '`training NAME "doc" { reward R; corpus C; log P; normalize std; min_groups N }` audits the training signal: in how many logged update groups a detector\'s penalty changes the group-normalised (GRPO) advantages, and in how many the group mean cancels it.',
  comparison: '`comparison NAME "doc" { reward R0; corpus C; base P; treatment Q; detectors D; attack …; margin 2; claim 1 }` pairs two trained policies\' evaluation logs by question and sample: paired differences with question-cluster bootstrap intervals and an EM non-inferiority gate.',
  compare: '`compare R1, R2` names further rewards scored on the same attacked trajectories.',
  pools: '`pools P1, P2` names the pools the audit reads; rows sharing a `question_id` form one cluster.',
  attack: '`attack NAME = KIND targets D…` (or `attack KIND targets D…`) declares an edit of the trajectories: same_final, fake_id or launder.',
  targets: '`targets D1, D2` names the detectors the attack is meant to trip.',
  using: '`using G1, G2` lists the candidate generators of a launder attack: lexical(K), bm25(K), candidates "file.jsonl".',
  candidates: '`candidates "file.jsonl"` reads user-supplied laundering candidates (e.g. from dense retrieval).',
  lattice: '`lattice D = λ, …` gives the detectors whose subsets are searched for a minimal repair, with their penalties λ > 0.',
  expect: '`expect METRIC(REWARD, ATTACK, SELECTION) OP VALUE` or `expect minimal_repair == {D…}` states what the audit must find.',
  seed: '`seed N` fixes the bootstrap seed (default 0).',
  bootstrap: '`bootstrap N` sets the number of bootstrap resamples (default 1000).',
  sweep: '`sweep s1, s2, …` sets the penalty scales swept over the lattice (default 0, 0.25, 0.5, 1, 2).',
  any: '`any x in COLL: BOOL` holds when the body holds for at least one element; the body reaches as far right as it can.',
  all: '`all x in COLL: BOOL` holds when the body holds for every element; the body reaches as far right as it can.',
  count: '`count x in COLL: BOOL` is the number of elements for which the body holds; `count(COLL)` is the number of elements.',
  in: '`X in IDS` tests membership (an id in an id set, a text in a text set); in a quantifier it introduces the collection.',
  not: '`not A` negates a boolean; `X not in IDS` tests non-membership.',
  and: '`A and B` holds when both sides hold.',
  or: '`A or B` holds when either side holds.',
  true: 'The boolean constant true (1 as an indicator).',
  false: 'The boolean constant false (0 as an indicator).',
};

/** Inside an audit block some keywords name an item instead of declaring something. */
export const auditKeywordDocs: Readonly<Record<string, string>> = {
  reward: '`reward R` names the audited reward (exactly one per audit).',
  corpus: '`corpus C` names the corpus that `corpus` and the candidate generators read.',
};
