/**
 * Deals questions to pools. Each family's entities are shuffled once and dealt in turn, so pools drawn
 * from one sampler get distinct questions until a family runs out; then the family starts over (so
 * at very large scales on a small corpus, questions repeat under new ids).
 */
import { type Corpus } from './corpus.js';
import { at, createRng, type Rng } from './prng.js';
import { type FamilySource, familySources } from './question-families.js';
import { type Family, type Question, type QuestionSeed, type QuestionStyle, STYLE_MIX } from './questions.js';
import { type World } from './world.js';

export interface QuestionSampler {
  /** Question `id` of a pool in `style`; its family is drawn by the style's mix. */
  draw(style: QuestionStyle, id: string): Question;
}

interface Deck {
  source: FamilySource;
  order: number[];
  position: number;
  /** Set once a full pass found no question the corpus supports. */
  empty: boolean;
}

function deal(deck: Deck, rng: Rng): QuestionSeed | null {
  for (let scanned = 0; scanned < deck.order.length; scanned++) {
    const index = at(deck.order, deck.position);
    deck.position = (deck.position + 1) % deck.order.length;
    const built = deck.source.build(index, rng);
    if (built !== null) return built;
  }
  deck.empty = true;
  return null;
}

export function createQuestionSampler(world: World, corpus: Corpus, seed: string): QuestionSampler {
  const order = createRng([seed, 'question-order']);
  const decks = new Map<Family, Deck>();
  for (const source of familySources(world, corpus)) {
    const indices = Array.from({ length: source.candidates }, (_, i) => i);
    decks.set(source.family, { source, order: order.shuffle(indices), position: 0, empty: indices.length === 0 });
  }
  return {
    draw: (style, id) => {
      const rng = createRng([seed, 'question', id]);
      for (;;) {
        const open = (Object.entries(STYLE_MIX[style]) as [Family, number][]).filter(([family]) => decks.get(family)?.empty === false);
        if (open.length === 0) throw new Error(`the corpus is too small to hold any ${style} question; raise --corpus-size`);
        const [family] = at(open, rng.weighted(open.map(([, weight]) => weight)));
        const deck = decks.get(family);
        const questionSeed = deck === undefined ? null : deal(deck, rng);
        if (questionSeed !== null) return { id, text: rng.pick(questionSeed.phrasings[style]), seed: questionSeed };
      }
    },
  };
}
