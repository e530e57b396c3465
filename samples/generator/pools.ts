/**
 * The pools the generator ships, shaped like the HERALD paper's: best-of-8 pools of 200 questions from
 * three benchmark styles (the MuSiQue questions logged at two retrieval cutoffs, sharing question ids),
 * and four models answering the same 1,000 HotpotQA-style questions once each.
 */
import { type AgentProfile, LLAMA3_8B, QWEN3_14B, QWEN3_1_7B, QWEN3_8B } from './models.js';
import { type QuestionStyle } from './questions.js';

/** One output file: an agent with a retrieval cutoff, run on every question of its set. */
export interface Arm {
  file: string;
  /** Suffix that keeps row ids unique when several files share a question set (`@k5`, `@qwen3-8b`). */
  tag: string | null;
  profile: AgentProfile;
  cutoff: number;
  /** When set, the dense-candidate file written for this arm's rows. */
  candidatesFile: string | null;
}

export interface QuestionSet {
  prefix: string;
  style: QuestionStyle;
  /** Questions at scale 1. */
  questions: number;
  samples: number;
  /** Multiplies the agents' answer accuracy: MuSiQue-style questions are harder. */
  difficulty: number;
  arms: Arm[];
}

/** Search-R1's default of three results per call, for the pools the paper gives no cutoff for. */
const DEFAULT_CUTOFF = 3;

export const POOL_SHAPES: readonly QuestionSet[] = [
  {
    prefix: 'hotpot',
    style: 'hotpot',
    questions: 200,
    samples: 8,
    difficulty: 1,
    arms: [{ file: 'hotpot.jsonl', tag: null, profile: QWEN3_8B, cutoff: DEFAULT_CUTOFF, candidatesFile: 'dense-candidates.jsonl' }],
  },
  {
    prefix: '2wiki',
    style: '2wiki',
    questions: 200,
    samples: 8,
    difficulty: 0.95,
    arms: [{ file: '2wiki.jsonl', tag: null, profile: QWEN3_8B, cutoff: DEFAULT_CUTOFF, candidatesFile: null }],
  },
  {
    prefix: 'musique',
    style: 'musique',
    questions: 200,
    samples: 8,
    difficulty: 0.75,
    arms: [
      { file: 'musique-k5.jsonl', tag: 'k5', profile: QWEN3_8B, cutoff: 5, candidatesFile: null },
      { file: 'musique-k8.jsonl', tag: 'k8', profile: QWEN3_8B, cutoff: 8, candidatesFile: null },
    ],
  },
  {
    prefix: 'hqa',
    style: 'hotpot',
    questions: 1000,
    samples: 1,
    difficulty: 1,
    arms: [QWEN3_1_7B, QWEN3_8B, QWEN3_14B, LLAMA3_8B].map((profile) => ({
      file: `model-${profile.model}.jsonl`,
      tag: profile.model,
      profile,
      cutoff: DEFAULT_CUTOFF,
      candidatesFile: null,
    })),
  },
];
