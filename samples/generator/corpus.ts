/**
 * Renders the world as encyclopedia-style passages and assembles a corpus of an exact size.
 *
 * Every passage records the names it mentions (people, places, organisations, titles, years). The
 * simulated agent reads them to confuse one city for another, and the dense-candidate generator to
 * rank by shared entities; both are facts a reader could recover from the visible passage text.
 */
import { orgBackground, personBackground, placeBackground, workBackground } from './background.js';
import { MONTHS } from './names.js';
import { at, createRng, type Rng } from './prng.js';
import { matchText } from './text.js';
import { buildWorld, NONE, ORG_TYPES, type Person, WORK_KINDS, type World } from './world.js';

export type MentionKind = 'person' | 'city' | 'country' | 'river' | 'org' | 'title' | 'year';

export interface Mention {
  kind: MentionKind;
  name: string;
}

export interface Passage {
  id: string;
  /** What the passage is about, e.g. `bio:12` (person 12) or `work:7`; questions look passages up by it. */
  key: string;
  title: string;
  text: string;
  /** `matchText(text)`, computed once for the answer-containment checks. */
  matchText: string;
  mentions: Mention[];
}

export interface Corpus {
  passages: Passage[];
  byKey: Map<string, Passage>;
  byId: Map<string, Passage>;
}

interface Draft {
  key: string;
  title: string;
  sentences: string[];
  mentions: Mention[];
}

/** Per-entity back-links the passages list (natives of a city, works of a setting, ...). */
interface Backlinks {
  natives: number[][];
  orgsInCity: number[][];
  worksSetIn: number[][];
  citiesOnRiver: number[][];
  citiesInCountry: number[][];
  employees: number[][];
  alumni: number[][];
}

function backlinks(world: World): Backlinks {
  const lists = (n: number): number[][] => Array.from({ length: n }, () => []);
  const links: Backlinks = {
    natives: lists(world.cities.length),
    orgsInCity: lists(world.cities.length),
    worksSetIn: lists(world.cities.length),
    citiesOnRiver: lists(world.rivers.length),
    citiesInCountry: lists(world.countries.length),
    employees: lists(world.orgs.length),
    alumni: lists(world.orgs.length),
  };
  world.people.forEach((p, i) => {
    at(links.natives, p.birthCity).push(i);
    if (p.employer !== NONE) at(links.employees, p.employer).push(i);
    if (p.university !== NONE) at(links.alumni, p.university).push(i);
  });
  world.orgs.forEach((o, i) => at(links.orgsInCity, o.city).push(i));
  world.works.forEach((w, i) => at(links.worksSetIn, w.setting).push(i));
  world.cities.forEach((c, i) => {
    at(links.citiesOnRiver, c.river).push(i);
    at(links.citiesInCountry, c.country).push(i);
  });
  return links;
}

/** "A and B", "A, B and C". */
function listing(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${at(items, items.length - 1)}`;
}

function sentenceCase(phrase: string): string {
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}

/** "a drama", "an epistolary", "an 1891" (read "eighteen ninety-one"). */
function withArticle(phrase: string): string {
  return /^(?:[aeiou]|8|18\d\d\b)/i.test(phrase) ? `an ${phrase}` : `a ${phrase}`;
}

/** Up to `n` distinct items drawn without replacement, in a random order. */
function sample<T>(rng: Rng, items: readonly T[], n: number): T[] {
  if (items.length <= n) return rng.shuffle([...items]);
  const chosen = new Set<number>();
  while (chosen.size < n) chosen.add(rng.int(items.length));
  return [...chosen].map((i) => at(items, i));
}

/** Renders every passage of the world, in a fixed entity order. */
function renderDrafts(world: World, rng: Rng): Draft[] {
  const links = backlinks(world);
  const drafts: Draft[] = [];

  const open = (key: string, title: string) => {
    const draft: Draft = { key, title, sentences: [], mentions: [] };
    drafts.push(draft);
    const note = (kind: MentionKind, name: string): string => {
      draft.mentions.push({ kind, name });
      return name;
    };
    return {
      draft,
      say: (sentence: string) => draft.sentences.push(sentence),
      person: (i: number) => note('person', at(world.people, i).name),
      city: (i: number) => note('city', at(world.cities, i).name),
      country: (i: number) => note('country', at(world.countries, i).name),
      river: (i: number) => note('river', `${at(world.rivers, i)} River`),
      // "the University of X" mid-sentence; the mention and the title keep the bare name.
      org: (i: number) => {
        const name = note('org', at(world.orgs, i).name);
        return name.startsWith('University of ') ? `the ${name}` : name;
      },
      title: (i: number) => note('title', at(world.works, i).title),
      year: (year: number) => note('year', String(year)),
      date: (year: number) => `${rng.between(1, 28)} ${rng.pick(MONTHS)} ${note('year', String(year))}`,
    };
  };
  const pronouns = (p: Person) =>
    p.female ? { he: 'she', He: 'She', his: 'her', His: 'Her', son: 'daughter', grandson: 'granddaughter' } : { he: 'he', He: 'He', his: 'his', His: 'His', son: 'son', grandson: 'grandson' };

  world.people.forEach((p, i) => {
    const pr = pronouns(p);
    const bio = open(`bio:${i}`, p.name);
    const city = at(world.cities, p.birthCity);
    bio.say(
      p.died !== null
        ? `${bio.person(i)} (${bio.date(p.born)} – ${bio.date(p.died)}) was ${withArticle(p.occupation)} from ${bio.country(city.country)}.`
        : `${bio.person(i)} (born ${bio.date(p.born)}) is ${withArticle(p.occupation)} from ${bio.country(city.country)}.`,
    );
    let parent = '';
    if (p.father !== NONE) {
      parent = `, the ${pr.son} of ${bio.person(p.father)}`;
      const grandfather = at(world.people, p.father).father;
      if (grandfather !== NONE && rng.chance(0.75)) parent += ` and ${pr.grandson} of ${bio.person(grandfather)}`;
    }
    const place = city.population < 50000 ? 'town' : 'city';
    bio.say(
      rng.chance(0.6)
        ? `${pr.He} was born in ${bio.city(p.birthCity)}, a ${place} on the ${bio.river(city.river)}${parent}.`
        : `Born in ${bio.city(p.birthCity)} on the ${bio.river(city.river)}${parent}, ${pr.he} grew up in ${bio.country(city.country)}.`,
    );
    if (p.university !== NONE && rng.chance(0.9)) {
      bio.say(rng.chance(0.5) ? `${pr.He} studied at ${bio.org(p.university)}.` : `${pr.He} was educated at ${bio.org(p.university)}.`);
    }
    if (p.contemporary !== NONE) {
      const other = at(world.people, p.contemporary);
      bio.say(
        rng.chance(0.5)
          ? `${pr.He} was a contemporary of ${bio.person(p.contemporary)} (born ${bio.year(other.born)}).`
          : `${pr.He} is often mentioned alongside ${bio.person(p.contemporary)}, who was born in ${bio.year(other.born)}.`,
      );
    }
    // Only some biographies name the works: otherwise a search for a title would find the creator's
    // biography as often as the work, and the second hop would come for free.
    const known = p.works.slice(0, rng.chance(0.35) ? 1 : 0).map((w) => `${bio.title(w)} (${bio.year(at(world.works, w).year)})`);
    if (known.length > 0) bio.say(`${p.family} is best known for ${listing(known)}.`);
    if (rng.chance(0.7)) bio.say(personBackground(rng, p.occupation, pr));

    const later = p.works.slice(1, 4);
    if (p.employer === NONE && later.length === 0) return;
    const career = open(`career:${i}`, `${p.name} (career)`);
    if (p.employer !== NONE) {
      const org = at(world.orgs, p.employer);
      const role = ORG_TYPES[org.type].role;
      if (org.founder === i) {
        career.say(`In ${career.year(org.founded)}, ${career.person(i)} founded ${career.org(p.employer)}, ${withArticle(role)} based in ${career.city(org.city)}.`);
      } else if (rng.chance(0.6)) {
        career.say(`In ${career.year(p.joined)}, ${career.person(i)} joined ${career.org(p.employer)}, the ${role} founded by ${career.person(org.founder)} in ${career.year(org.founded)}.`);
      } else {
        career.say(`${career.person(i)} joined ${career.org(p.employer)} in ${career.year(p.joined)}; the ${role} had been founded by ${career.person(org.founder)} in ${career.year(org.founded)}.`);
      }
      const colleagues = at(links.employees, p.employer).filter((e) => e !== i);
      if (colleagues.length > 0) career.say(`There ${pr.he} worked alongside ${career.person(rng.pick(colleagues))}.`);
    }
    if (later.length > 0) {
      const kinds = WORK_KINDS[at(world.works, at(later, 0)).kind].plural;
      career.say(`${pr.His} later ${kinds} include ${listing(later.map((w) => `${career.title(w)} (${career.year(at(world.works, w).year)})`))}.`);
    }
    if (p.laterCity !== NONE) career.say(`${pr.He} spent ${pr.his} later years in ${career.city(p.laterCity)}.`);
  });

  world.works.forEach((w, i) => {
    const kind = WORK_KINDS[w.kind];
    const creator = at(world.people, w.creator);
    const org = at(world.orgs, w.org);
    const orgType = ORG_TYPES[org.type];
    const page = open(`work:${i}`, `${w.title} (${w.kind})`);
    page.say(
      rng.chance(0.6)
        ? `${page.title(i)} is ${withArticle(page.year(w.year))} ${w.genre} ${w.kind} ${kind.verb} by ${page.person(w.creator)} (born ${page.year(creator.born)}), a native of ${page.city(creator.birthCity)}.`
        : `${page.title(i)} is ${withArticle(w.genre)} ${w.kind} from ${page.year(w.year)}, ${kind.verb} by ${page.person(w.creator)}, a native of ${page.city(creator.birthCity)} born in ${page.year(creator.born)}.`,
    );
    page.say(
      rng.chance(0.6)
        ? `It was ${orgType.verb} by ${page.org(w.org)}, the ${orgType.role} based in ${page.city(org.city)} that ${page.person(org.founder)} founded in ${page.year(org.founded)}.`
        : `${page.org(w.org)}, ${withArticle(orgType.role)} founded by ${page.person(org.founder)} in ${page.year(org.founded)} and based in ${page.city(org.city)}, ${orgType.verb} it.`,
    );
    page.say(
      w.kind === 'album'
        ? `The album was recorded in ${page.city(w.setting)}.`
        : rng.chance(0.5)
          ? `The ${w.kind} is set in ${page.city(w.setting)}.`
          : `The story takes place in ${page.city(w.setting)}, ${page.country(at(world.cities, w.setting).country)}.`,
    );
    if (rng.chance(0.7)) page.say(workBackground(rng, w.kind));
    if (w.related !== NONE) {
      const related = at(world.works, w.related);
      page.say(
        rng.chance(0.5)
          ? `It is often compared with ${page.title(w.related)} (${page.year(related.year)}).`
          : `Critics have compared it to ${page.title(w.related)}, released in ${page.year(related.year)}.`,
      );
    }
  });

  world.orgs.forEach((o, i) => {
    const page = open(`org:${i}`, o.name);
    const city = at(world.cities, o.city);
    page.say(`${sentenceCase(page.org(i))} is ${withArticle(o.type)} based in ${page.city(o.city)}, ${page.country(city.country)}.`);
    page.say(
      rng.chance(0.5)
        ? `It was founded in ${page.year(o.founded)} by ${page.person(o.founder)}.`
        : `${page.person(o.founder)} founded it in ${page.year(o.founded)}.`,
    );
    if (o.rival !== NONE) {
      const rival = at(world.orgs, o.rival);
      page.say(
        rng.chance(0.5)
          ? `Its main rival is ${page.org(o.rival)} (founded ${page.year(rival.founded)}).`
          : `It has long competed with ${page.org(o.rival)}, founded in ${page.year(rival.founded)}.`,
      );
    }
    if (rng.chance(0.7)) page.say(orgBackground(rng, o.type));
    if (o.works.length > 0) {
      const plural = WORK_KINDS[at(world.works, at(o.works, 0)).kind].plural;
      page.say(`Its best known ${plural} include ${listing(sample(rng, o.works, 2).map((w) => page.title(w)))}.`);
    } else {
      const people = o.type === 'university' ? at(links.alumni, i) : at(links.employees, i);
      if (people.length > 0) {
        const label = o.type === 'university' ? 'Alumni include' : 'Its staff have included';
        page.say(`${label} ${listing(sample(rng, people, 2).map((p) => page.person(p)))}.`);
      }
    }
  });

  world.cities.forEach((c, i) => {
    const page = open(`city:${i}`, c.name);
    page.say(`${page.city(i)} is a ${c.population < 50000 ? 'town' : 'city'} in ${page.country(c.country)}, on the ${page.river(c.river)}.`);
    page.say(`It was founded in ${page.year(c.founded)} and has about ${c.population.toLocaleString('en-US')} inhabitants.`);
    const natives = sample(rng, at(links.natives, i), 3);
    if (natives.length > 0) page.say(`Notable people born in ${c.name} include ${listing(natives.map((p) => page.person(p)))}.`);
    const orgs = sample(rng, at(links.orgsInCity, i), 2);
    if (orgs.length > 0) page.say(`${c.name} is home to ${listing(orgs.map((o) => page.org(o)))}.`);
    if (rng.chance(0.7)) page.say(placeBackground(rng));

    const settings = at(links.worksSetIn, i);
    if (settings.length < 2) return;
    const culture = open(`culture:${i}`, `Culture of ${c.name}`);
    const shown = sample(rng, settings, 4).map((w) => `${culture.title(w)} (${culture.year(at(world.works, w).year)})`);
    culture.say(`${culture.city(i)} has been the setting or recording place of several works, including ${listing(shown)}.`);
    if (natives.length > 0) culture.say(`Artists from the ${c.population < 50000 ? 'town' : 'city'} include ${culture.person(rng.pick(natives))}.`);
  });

  world.rivers.forEach((name, i) => {
    const cities = sample(rng, at(links.citiesOnRiver, i), 3);
    if (cities.length === 0) return;
    const page = open(`river:${i}`, `${name} River`);
    page.say(`The ${page.river(i)} flows through ${listing(cities.map((c) => page.city(c)))}.`);
    page.say(`It is about ${rng.between(40, 900)} kilometres long.`);
  });

  world.countries.forEach((country, i) => {
    const page = open(`country:${i}`, country.name);
    page.say(`${page.country(i)} is a country whose capital is ${page.city(country.capital)}.`);
    const cities = sample(rng, at(links.citiesInCountry, i).filter((c) => c !== country.capital), 3);
    if (cities.length > 0) page.say(`Its other major cities include ${listing(cities.map((c) => page.city(c)))}.`);
  });

  return drafts;
}

/** Rendered passages per person, measured on the sample worlds; only the first size guess uses it. */
const PASSAGES_PER_PERSON = 3.4;

/**
 * Builds a world just large enough for `size` passages, then keeps a seeded random `size` of them as
 * `w:1` … `w:<size>`: the passages' order and ids carry no hint of what they are about.
 */
export function buildCorpus(seed: string, size: number): { world: World; corpus: Corpus } {
  let people = Math.ceil(size / PASSAGES_PER_PERSON);
  for (;;) {
    const world = buildWorld(createRng([seed, 'world']), people);
    const drafts = renderDrafts(world, createRng([seed, 'passages']));
    if (drafts.length >= size) {
      const kept = createRng([seed, 'corpus-order']).shuffle(drafts).slice(0, size);
      const passages = kept.map((draft, index): Passage => {
        const text = draft.sentences.join(' ');
        return { id: `w:${index + 1}`, key: draft.key, title: draft.title, text, matchText: matchText(text), mentions: draft.mentions };
      });
      return {
        world,
        corpus: {
          passages,
          byKey: new Map(passages.map((p) => [p.key, p])),
          byId: new Map(passages.map((p) => [p.id, p])),
        },
      };
    }
    people = Math.ceil((people * size * 1.03) / drafts.length) + 1;
  }
}
