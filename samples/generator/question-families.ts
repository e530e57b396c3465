/**
 * Builds the questions of each family from the world, checking them against the corpus: a question is
 * kept only when its answer appears, as whole normalised words, in both gold support passages, and the
 * entities the agent must read are in the first one. Both-passage answers keep an honest citation of
 * either gold passage fully grounded, so a laundering edit can raise grounding only by swapping out a
 * citation that did not hold the answer.
 */
import { type Corpus, type Passage } from './corpus.js';
import { at, type Rng } from './prng.js';
import { type Family, type Hop, type QuestionSeed } from './questions.js';
import { holdsPhrase, normalizeAnswer } from './text.js';
import { NONE, ORG_TYPES, WORK_KINDS, type World } from './world.js';

type HopShape = Omit<Hop, 'support'>;
type SeedShape = Omit<QuestionSeed, 'family' | 'hops'> & { hops: [HopShape, HopShape] };

/**
 * The questions of one family, built on demand from an entity index (a work, a person or an
 * organisation). Building lazily keeps memory flat on a 100,000-passage world, where the families
 * hold hundreds of thousands of possible questions and a pool draws a few thousand.
 */
export interface FamilySource {
  family: Family;
  candidates: number;
  /** The question about entity `index`, or null when the corpus cannot support it. */
  build(index: number, rng: Rng): QuestionSeed | null;
}

function holds(passage: Passage, phrase: string): boolean {
  return holdsPhrase(passage.matchText, normalizeAnswer(phrase));
}

function finish(family: Family, first: Passage | undefined, second: Passage | undefined, shape: SeedShape): QuestionSeed | null {
  if (first === undefined || second === undefined || first === second) return null;
  const answerIn = (p: Passage) => shape.answers.some((a) => holds(p, a));
  if (!answerIn(first) || !answerIn(second)) return null;
  const [hop1, hop2] = shape.hops;
  if (!holds(first, hop1.entity) || !holds(first, hop2.entity) || !holds(second, hop2.entity)) return null;
  return {
    ...shape,
    family,
    hops: [
      { ...hop1, support: first.id },
      { ...hop2, support: second.id },
    ],
  };
}

function orderOptions(rng: Rng, a: string, b: string): [string, string] {
  return rng.chance(0.5) ? [a, b] : [b, a];
}

export function familySources(world: World, corpus: Corpus): FamilySource[] {
  const passage = (key: string): Passage | undefined => corpus.byKey.get(key);

  const workFacts = (i: number) => {
    const w = at(world.works, i);
    const org = at(world.orgs, w.org);
    return {
      w,
      kind: WORK_KINDS[w.kind],
      creator: at(world.people, w.creator),
      org,
      orgRole: ORG_TYPES[org.type].role,
      orgVerb: ORG_TYPES[org.type].verb,
      page: passage(`work:${i}`),
    };
  };
  const employerFacts = (i: number) => {
    const p = at(world.people, i);
    if (p.employer === NONE) return null;
    const org = at(world.orgs, p.employer);
    const hops: [HopShape, HopShape] = [
      { entity: p.name, cues: ['career', 'joined'], named: true },
      { entity: org.name, cues: ['founded'], named: false },
    ];
    return { p, org, role: ORG_TYPES[org.type].role, hops, career: passage(`career:${i}`), orgPage: passage(`org:${p.employer}`) };
  };

  return [
    {
      family: 'work-creator-birthplace',
      candidates: world.works.length,
      build: (i) => {
        const { w, kind, creator, page } = workFacts(i);
        return finish('work-creator-birthplace', page, passage(`bio:${w.creator}`), {
          answers: [at(world.cities, creator.birthCity).name],
          answerKind: 'city',
          options: null,
          hops: [
            { entity: w.title, cues: [w.kind, kind.role], named: true },
            { entity: creator.name, cues: ['born'], named: false },
          ],
          phrasings: {
            hotpot: [`The ${kind.role} of the ${w.kind} ${w.title} was born in which city?`, `In which city was the ${kind.role} of ${w.title} born?`],
            '2wiki': [`Where was the ${kind.role} of ${w.kind} ${w.title} born?`],
            musique: [`What is the birthplace of the ${kind.role} of ${w.title}?`],
          },
        });
      },
    },
    {
      family: 'work-creator-birthyear',
      candidates: world.works.length,
      build: (i) => {
        const { w, kind, creator, page } = workFacts(i);
        return finish('work-creator-birthyear', page, passage(`bio:${w.creator}`), {
          answers: [String(creator.born)],
          answerKind: 'year',
          options: null,
          hops: [
            { entity: w.title, cues: [w.kind, kind.role], named: true },
            { entity: creator.name, cues: ['born'], named: false },
          ],
          phrasings: {
            hotpot: [`In what year was the ${kind.role} of the ${w.kind} ${w.title} born?`, `${w.title} was ${kind.verb} by a person born in what year?`],
            '2wiki': [`When was the ${kind.role} of ${w.kind} ${w.title} born?`],
            musique: [`What year was the person who ${kind.made} ${w.title} born?`],
          },
        });
      },
    },
    {
      family: 'work-org-city',
      candidates: world.works.length,
      build: (i) => {
        const { w, org, orgRole, orgVerb, page } = workFacts(i);
        return finish('work-org-city', page, passage(`org:${w.org}`), {
          answers: [at(world.cities, org.city).name],
          answerKind: 'city',
          options: null,
          hops: [
            { entity: w.title, cues: [w.kind, orgVerb], named: true },
            { entity: org.name, cues: ['based'], named: false },
          ],
          phrasings: {
            hotpot: [`The ${orgRole} that ${orgVerb} ${w.title} is based in which city?`],
            '2wiki': [`Where is the ${orgRole} of ${w.kind} ${w.title} based?`],
            musique: [`In what city is the ${orgRole} that ${orgVerb} ${w.title} based?`],
          },
        });
      },
    },
    {
      family: 'work-org-founder',
      candidates: world.works.length,
      build: (i) => {
        const { w, org, orgRole, orgVerb, page } = workFacts(i);
        if (org.founder === w.creator) return null;
        return finish('work-org-founder', page, passage(`org:${w.org}`), {
          answers: [at(world.people, org.founder).name],
          answerKind: 'person',
          options: null,
          hops: [
            { entity: w.title, cues: [w.kind, orgVerb], named: true },
            { entity: org.name, cues: ['founded'], named: false },
          ],
          phrasings: {
            hotpot: [`Who founded the ${orgRole} that ${orgVerb} the ${w.kind} ${w.title}?`],
            '2wiki': [`Who is the founder of the ${orgRole} of ${w.kind} ${w.title}?`],
            musique: [`Who founded the ${orgRole} that ${orgVerb} ${w.title}?`],
          },
        });
      },
    },
    {
      family: 'compare-released',
      candidates: world.works.length,
      build: (i, rng) => {
        const { w, page } = workFacts(i);
        if (w.related === NONE) return null;
        const related = at(world.works, w.related);
        const later = related.year > w.year;
        const options = orderOptions(rng, w.title, related.title);
        const noun = related.kind === w.kind ? w.kind : 'work';
        return finish('compare-released', page, passage(`work:${w.related}`), {
          answers: [related.title],
          answerKind: 'title',
          options,
          hops: [
            { entity: w.title, cues: [w.kind, 'released'], named: true },
            { entity: related.title, cues: [related.kind], named: true },
          ],
          phrasings: {
            hotpot: [`Which ${noun} was released ${later ? 'more recently' : 'first'}, ${options[0]} or ${options[1]}?`],
            '2wiki': [`Which ${noun} came out ${later ? 'later' : 'first'}, ${options[0]} or ${options[1]}?`],
            musique: [`Which was released ${later ? 'later' : 'earlier'}, ${options[0]} or ${options[1]}?`],
          },
        });
      },
    },
    {
      family: 'person-employer-founder',
      candidates: world.people.length,
      build: (i) => {
        const facts = employerFacts(i);
        if (facts === null || facts.org.founder === i) return null;
        const { p, org, role, hops } = facts;
        return finish('person-employer-founder', facts.career, facts.orgPage, {
          answers: [at(world.people, org.founder).name],
          answerKind: 'person',
          options: null,
          hops,
          phrasings: {
            hotpot: [`Who founded the ${role} that ${p.name} joined?`],
            '2wiki': [`Who is the founder of the ${role} where ${p.name} worked?`],
            musique: [`Who founded the ${role} that employed ${p.name}?`],
          },
        });
      },
    },
    {
      family: 'person-employer-founded',
      candidates: world.people.length,
      build: (i) => {
        const facts = employerFacts(i);
        if (facts === null) return null;
        const { p, org, role, hops } = facts;
        return finish('person-employer-founded', facts.career, facts.orgPage, {
          answers: [String(org.founded)],
          answerKind: 'year',
          options: null,
          hops,
          phrasings: {
            hotpot: [`In what year was the ${role} that ${p.name} joined founded?`],
            '2wiki': [`When was the ${role} where ${p.name} worked founded?`],
            musique: [`When was the ${role} that employed ${p.name} founded?`],
          },
        });
      },
    },
    {
      family: 'person-birthplace-river',
      candidates: world.people.length,
      build: (i) => {
        const p = at(world.people, i);
        const city = at(world.cities, p.birthCity);
        const river = at(world.rivers, city.river);
        return finish('person-birthplace-river', passage(`bio:${i}`), passage(`city:${p.birthCity}`), {
          answers: [`${river} River`, river],
          answerKind: 'river',
          options: null,
          hops: [
            { entity: p.name, cues: ['born'], named: true },
            { entity: city.name, cues: ['river'], named: false },
          ],
          phrasings: {
            hotpot: [`Which river flows through the birthplace of ${p.name}?`],
            '2wiki': [`Which river runs through the place where ${p.name} was born?`],
            musique: [`On which river is the city where ${p.name} was born?`],
          },
        });
      },
    },
    {
      family: 'person-grandfather',
      candidates: world.people.length,
      build: (i) => {
        const p = at(world.people, i);
        if (p.father === NONE) return null;
        const father = at(world.people, p.father);
        if (father.father === NONE) return null;
        return finish('person-grandfather', passage(`bio:${i}`), passage(`bio:${p.father}`), {
          answers: [at(world.people, father.father).name],
          answerKind: 'person',
          options: null,
          hops: [
            { entity: p.name, cues: ['son', 'father'], named: true },
            { entity: father.name, cues: ['son', 'father'], named: false },
          ],
          phrasings: {
            hotpot: [`Who was the father of ${p.name}'s father?`],
            '2wiki': [`Who is the paternal grandfather of ${p.name}?`],
            musique: [`Who is the father of the father of ${p.name}?`],
          },
        });
      },
    },
    {
      family: 'compare-born',
      candidates: world.people.length,
      build: (i, rng) => {
        const p = at(world.people, i);
        if (p.contemporary === NONE) return null;
        const other = at(world.people, p.contemporary);
        const later = other.born > p.born;
        const options = orderOptions(rng, p.name, other.name);
        return finish('compare-born', passage(`bio:${i}`), passage(`bio:${p.contemporary}`), {
          answers: [other.name],
          answerKind: 'person',
          options,
          hops: [
            { entity: p.name, cues: ['born'], named: true },
            { entity: other.name, cues: ['born'], named: true },
          ],
          phrasings: {
            hotpot: [`Who was born ${later ? 'later' : 'first'}, ${options[0]} or ${options[1]}?`],
            '2wiki': [`Which person was born ${later ? 'later' : 'earlier'}, ${options[0]} or ${options[1]}?`],
            musique: [`Who was born ${later ? 'later' : 'earlier'}, ${options[0]} or ${options[1]}?`],
          },
        });
      },
    },
    {
      family: 'compare-founded',
      candidates: world.orgs.length,
      build: (i, rng) => {
        const o = at(world.orgs, i);
        if (o.rival === NONE) return null;
        const rival = at(world.orgs, o.rival);
        const later = rival.founded > o.founded;
        const options = orderOptions(rng, o.name, rival.name);
        return finish('compare-founded', passage(`org:${i}`), passage(`org:${o.rival}`), {
          answers: [rival.name],
          answerKind: 'org',
          options,
          hops: [
            { entity: o.name, cues: ['founded'], named: true },
            { entity: rival.name, cues: ['founded'], named: true },
          ],
          phrasings: {
            hotpot: [`Which was founded ${later ? 'later' : 'first'}, ${options[0]} or ${options[1]}?`],
            '2wiki': [`Which organisation was founded ${later ? 'later' : 'earlier'}, ${options[0]} or ${options[1]}?`],
            musique: [`Which was established ${later ? 'later' : 'earlier'}, ${options[0]} or ${options[1]}?`],
          },
        });
      },
    },
  ];
}
