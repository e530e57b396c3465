/**
 * A simulated search agent. It plans one search per hop from the question, learns the bridge entity
 * only from passages it actually retrieved, answers with a probability that grows with the gold
 * evidence it found (confusing the answer with a same-kind name it read otherwise) and mostly cites
 * retrieved passages that hold its answer. Rare, profile-controlled events add the tails the audit
 * looks for: no search, unretrieved or fake citations, repeated queries, invalid actions, no final.
 */
import { type Corpus, type MentionKind, type Passage } from './corpus.js';
import { type AgentProfile } from './models.js';
import { type Final, type SearchStep, type Step } from './pool-row.js';
import { at, type Rng } from './prng.js';
import { type Hop, isComparison, type Question } from './questions.js';
import { holdsPhrase, normalizeAnswer, terms } from './text.js';

export interface AgentContext {
  corpus: Corpus;
  search: (query: string, k: number) => string[];
  /** Results per search call (the retrieval cutoff). */
  cutoff: number;
  profile: AgentProfile;
  /** Scales the profile's answer accuracy for a dataset's difficulty. */
  difficulty: number;
  rng: Rng;
}

export interface AgentRun {
  steps: Step[];
  final: Final | null;
}

/** What the agent has seen so far: retrieved ids in first-seen order. */
interface Memory {
  order: string[];
  seen: Set<string>;
}

function passageOf(corpus: Corpus, id: string): Passage {
  const passage = corpus.byId.get(id);
  if (passage === undefined) throw new Error(`search returned unknown id ${id}`);
  return passage;
}

/** A query that misremembers the entity: a word dropped or the name cut short. */
function garble(entity: string, rng: Rng): string {
  const words = entity.split(' ');
  if (words.length > 1) {
    words.splice(rng.int(words.length), 1);
    return words.join(' ');
  }
  return entity.slice(0, Math.max(3, entity.length - 2));
}

function hopQuery(hop: Hop, ctx: AgentContext): string {
  const { rng } = ctx;
  const entity = rng.chance(ctx.profile.queryNoise) ? garble(hop.entity, rng) : hop.entity;
  const cues = hop.cues.filter(() => rng.chance(0.6));
  return rng.chance(0.75) ? [entity, ...cues].join(' ') : [...cues, entity].join(' ');
}

/** The question pasted as keywords, as agents often do on their first call. */
function questionQuery(question: string): string {
  return question
    .replace(/[?,']/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '' && terms(word).length > 0)
    .join(' ');
}

const INVALID_TEMPLATES: readonly ((query: string) => string)[] = [
  () => '<search></search>',
  (query) => `<serach>${query}</serach>`,
  () => 'I need to look this up before answering.',
  (query) => `<search>${query}`,
  () => '<tool_call>{"name": "search"}',
];

function invalidAction(rng: Rng, query: string): Step {
  return { type: 'invalid', text: rng.pick(INVALID_TEMPLATES)(query) };
}

function finalText(rng: Rng, answer: string, citations: readonly string[], question: Question): string {
  const reasons = [
    'Based on the retrieved passages, I can now answer the question.',
    `The passages about ${at(question.seed.hops, 0).entity} give the link needed.`,
    'I compared the relevant passages before answering.',
  ];
  const prefix = rng.chance(0.3) ? `${rng.pick(reasons)} ` : '';
  return `${prefix}<answer>${answer}</answer>${citations.map((c) => ` [${c}]`).join('')}`;
}

/** A correct answer written loosely enough to lose exact match but keep some token overlap. */
function partial(answer: string, kind: MentionKind): string {
  const words = answer.split(' ');
  switch (kind) {
    case 'person':
      return at(words, words.length - 1);
    case 'org':
      return answer.startsWith('University of ') ? answer.slice('University of '.length) : at(words, 0);
    case 'city':
      return `the city of ${answer}`;
    case 'year':
      return `around ${answer}`;
    case 'river':
    case 'country':
      return `${answer} region`;
    case 'title':
      return words.length > 2 ? words.slice(0, -1).join(' ') : `${answer} series`;
  }
}

/** A wrong answer of the right kind: preferably a name the agent read, else one from the corpus. */
function confusion(question: Question, memory: Memory, ctx: AgentContext): string {
  const seed = question.seed;
  if (seed.options !== null) {
    const gold = normalizeAnswer(at(seed.answers, 0));
    return normalizeAnswer(seed.options[0]) === gold ? seed.options[1] : seed.options[0];
  }
  const golds = new Set(seed.answers.map(normalizeAnswer));
  const pool: string[] = [];
  for (const id of memory.order) {
    for (const mention of passageOf(ctx.corpus, id).mentions) {
      if (mention.kind === seed.answerKind && !golds.has(normalizeAnswer(mention.name))) pool.push(mention.name);
    }
  }
  // The product of two uniforms leans towards names read first, i.e. in the top results.
  if (pool.length > 0) return at(pool, Math.floor(ctx.rng.next() * ctx.rng.next() * pool.length));
  for (let attempt = 0; attempt < 20; attempt++) {
    const mentions = ctx.rng.pick(ctx.corpus.passages).mentions.filter((m) => m.kind === seed.answerKind && !golds.has(normalizeAnswer(m.name)));
    if (mentions.length > 0) return ctx.rng.pick(mentions).name;
  }
  return 'unknown';
}

function chooseAnswer(question: Question, memory: Memory, ctx: AgentContext): string {
  const { rng, profile } = ctx;
  const seed = question.seed;
  const evidence = seed.hops.filter((hop) => memory.seen.has(hop.support)).length;
  let p = profile.correctGiven[evidence as 0 | 1 | 2] * ctx.difficulty;
  // Naming one of two options is right half the time even without evidence.
  if (isComparison(seed)) p = Math.max(p, 0.5);
  if (!rng.chance(p)) return confusion(question, memory, ctx);
  const gold = at(seed.answers, 0);
  return rng.chance(profile.partialAnswer) ? partial(gold, seed.answerKind) : gold;
}

/**
 * Retrieved passages that hold the answer first, then those naming a question entity. The noise term
 * is as large as the entity bonus, so among passages that hold the answer the agent often cites a
 * non-gold one: real agents' citations miss the annotated support ids a good part of the time.
 */
function honestCitations(answer: string, count: number, question: Question, memory: Memory, ctx: AgentContext): string[] {
  const normalized = normalizeAnswer(answer);
  const entities = question.seed.hops.map((hop) => normalizeAnswer(hop.entity));
  const score = (id: string): number => {
    const passage = passageOf(ctx.corpus, id);
    const holdsAnswer = holdsPhrase(passage.matchText, normalized) ? 2 : 0;
    const namesEntity = entities.some((e) => holdsPhrase(passage.matchText, e)) ? 1 : 0;
    return holdsAnswer + namesEntity + ctx.rng.next();
  };
  const ranked = memory.order.map((id, position) => ({ id, position, score: score(id) }));
  ranked.sort((a, b) => b.score - a.score || a.position - b.position);
  const chosen = ranked.slice(0, count);
  // Most of the time the agent cites only what supports its answer, even if it meant to cite more.
  const supporting = chosen.filter((entry) => entry.score >= 2);
  return (supporting.length > 0 && ctx.rng.chance(0.75) ? supporting : chosen).map((entry) => entry.id);
}

/** A real passage the agent never retrieved: remembered gold, a related passage, or any passage. */
function unretrievedPassage(question: Question, answer: string, memory: Memory, ctx: AgentContext): string | null {
  const { rng } = ctx;
  const roll = rng.next();
  const pick = (ids: readonly string[]): string | undefined => ids.find((id) => !memory.seen.has(id));
  let id: string | undefined;
  if (roll < 0.45) id = pick(question.seed.hops.map((hop) => hop.support));
  else if (roll < 0.8) id = pick(ctx.search(`${answer} ${at(question.seed.hops, 0).entity}`, 8));
  for (let attempt = 0; id === undefined && attempt < 20; attempt++) id = pick([rng.pick(ctx.corpus.passages).id]);
  return id ?? null;
}

function fakeId(rng: Rng): string {
  // Corpus ids are w:<1..size> with size far below a million, so neither form can be real.
  return rng.chance(0.6) ? `w:${rng.between(1_000_000, 9_999_999)}` : `w:${rng.between(100_000, 999_999)}x`;
}

/** Puts `id` in place of a random citation, or after them when there are none (or 30% of the time). */
function substitute(citations: string[], id: string, rng: Rng): void {
  if (citations.length === 0 || rng.chance(0.3)) citations.push(id);
  else citations[rng.int(citations.length)] = id;
}

function citationCount(rng: Rng): number {
  return 1 + rng.weighted([35, 52, 13]);
}

/** The next query of the two-hop plan, or null when the agent stops searching. */
function plannedQuery(question: Question, memory: Memory, ctx: AgentContext): string | null {
  const { rng, profile } = ctx;
  const [hop1, hop2] = question.seed.hops;
  const found1 = memory.seen.has(hop1.support);
  const found2 = memory.seen.has(hop2.support);
  if (found1 && found2) return rng.chance(profile.confirm) ? `${hop2.entity} ${rng.pick(['biography', 'history', 'overview'])}` : null;
  // The first hop's passage names the second hop's entity (the question filter checks it).
  if (found1) return rng.chance(profile.stopEarly) ? null : hopQuery(hop2, ctx);
  // Until the first hop is found the agent retries it, or goes straight to the second hop when some
  // retrieved passage already named that entity.
  const bridge = normalizeAnswer(hop2.entity);
  const knowsBridge = hop2.named || memory.order.some((id) => holdsPhrase(passageOf(ctx.corpus, id).matchText, bridge));
  if (knowsBridge && !found2 && rng.chance(0.4)) return hopQuery(hop2, ctx);
  return hopQuery(hop1, ctx);
}

function searchPhase(question: Question, memory: Memory, steps: Step[], ctx: AgentContext): void {
  const { rng, profile } = ctx;
  const budget = 1 + rng.weighted(profile.budget);
  let lastQuery = '';
  for (let call = 0; call < budget; call++) {
    let query: string | null;
    if (call > 0 && rng.chance(profile.repeatQuery)) query = lastQuery;
    else if (call === 0 && rng.chance(0.3)) query = questionQuery(question.text);
    else query = plannedQuery(question, memory, ctx);
    if (query === null) return;
    if (rng.chance(profile.invalidAction)) steps.push(invalidAction(rng, query));
    const results = ctx.search(query, ctx.cutoff);
    steps.push({ type: 'search', query, results });
    for (const id of results) {
      if (!memory.seen.has(id)) {
        memory.seen.add(id);
        memory.order.push(id);
      }
    }
    lastQuery = query;
  }
}

export function runAgent(question: Question, ctx: AgentContext): AgentRun {
  const { rng, profile } = ctx;
  const steps: Step[] = [];
  const memory: Memory = { order: [], seen: new Set() };

  if (rng.chance(profile.noSearch)) {
    // Answers from parametric memory; citations, if any, are recalled, not retrieved.
    const answer = chooseAnswer(question, memory, ctx);
    const citations: string[] = [];
    const roll = rng.next();
    if (roll < 0.3) {
      const recalled = unretrievedPassage(question, answer, memory, ctx);
      if (recalled !== null) citations.push(recalled);
    } else if (roll < 0.45) {
      citations.push(fakeId(rng));
    }
    return { steps, final: { answer, citations, text: finalText(rng, answer, citations, question) } };
  }

  searchPhase(question, memory, steps, ctx);
  const answer = chooseAnswer(question, memory, ctx);

  if (rng.chance(profile.noFinal)) {
    // Ran out of turns mid-answer: the cut-off output is logged as an invalid action half the time.
    if (rng.chance(0.5)) steps.push({ type: 'invalid', text: `<answer>${answer.slice(0, Math.max(1, answer.length >> 1))}` });
    return { steps, final: null };
  }

  let citations: string[] = [];
  if (!rng.chance(profile.noCitation)) {
    const count = citationCount(rng);
    const lastSearch = [...steps].reverse().find((step): step is SearchStep => step.type === 'search');
    citations =
      rng.chance(profile.sloppyCitation) && lastSearch !== undefined
        ? lastSearch.results.slice(0, count)
        : honestCitations(answer, count, question, memory, ctx);
  }
  if (rng.chance(profile.unretrievedCitation)) {
    const id = unretrievedPassage(question, answer, memory, ctx);
    if (id !== null) substitute(citations, id, rng);
  }
  if (rng.chance(profile.fakeCitation)) substitute(citations, fakeId(rng), rng);
  return { steps, final: { answer, citations, text: finalText(rng, answer, citations, question) } };
}
