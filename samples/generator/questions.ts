/**
 * Two-hop questions over the world, in the shapes of HotpotQA (bridge and comparison), 2WikiMultiHopQA
 * (comparison and family inference) and MuSiQue (composed single hops): their types, and how often
 * each family appears in a pool of each style.
 */
import { type MentionKind } from './corpus.js';

export type QuestionStyle = 'hotpot' | '2wiki' | 'musique';

export type Family =
  | 'work-creator-birthplace'
  | 'work-creator-birthyear'
  | 'work-org-city'
  | 'work-org-founder'
  | 'person-employer-founder'
  | 'person-employer-founded'
  | 'person-birthplace-river'
  | 'person-grandfather'
  | 'compare-born'
  | 'compare-released'
  | 'compare-founded';

/** One retrieval step the question needs: find the passage about `entity`, using `cues` as extra words. */
export interface Hop {
  entity: string;
  cues: readonly string[];
  /** Whether the question names the entity; otherwise the agent learns it from an earlier hop. */
  named: boolean;
  support: string;
}

/** A question before it is phrased: the facts, the gold and the hops. */
export interface QuestionSeed {
  family: Family;
  answers: string[];
  answerKind: MentionKind;
  hops: [Hop, Hop];
  /** For comparisons, the two options in the order the question names them. */
  options: [string, string] | null;
  /** Phrasings for each style; one is chosen per question with the question's own stream. */
  phrasings: Record<QuestionStyle, readonly string[]>;
}

export interface Question {
  id: string;
  text: string;
  seed: QuestionSeed;
}

export function isComparison(seed: QuestionSeed): boolean {
  return seed.options !== null;
}

/** How often each family appears in a pool of a given style (HotpotQA is ~80% bridge, 20% comparison). */
export const STYLE_MIX: Record<QuestionStyle, Partial<Record<Family, number>>> = {
  hotpot: {
    'work-creator-birthplace': 16,
    'work-creator-birthyear': 12,
    'work-org-city': 12,
    'work-org-founder': 10,
    'person-employer-founder': 12,
    'person-employer-founded': 8,
    'person-birthplace-river': 10,
    'compare-born': 6,
    'compare-released': 8,
    'compare-founded': 6,
  },
  '2wiki': {
    'work-creator-birthplace': 10,
    'work-creator-birthyear': 8,
    'person-birthplace-river': 6,
    'person-grandfather': 22,
    'compare-born': 22,
    'compare-released': 22,
    'compare-founded': 10,
  },
  musique: {
    'work-org-city': 18,
    'work-org-founder': 22,
    'person-employer-founder': 20,
    'person-employer-founded': 20,
    'person-birthplace-river': 20,
  },
};
