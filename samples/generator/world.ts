/**
 * The invented world the corpus describes: countries, cities on rivers, people (with birth dates,
 * birthplaces, fathers, employers, contemporaries), organisations (founders, headquarters, rivals)
 * and works (films, novels, albums with creators, producers, settings and related works).
 * Entities are linked densely on purpose: a popular city is the birthplace, headquarters and setting
 * of many others, so many passages besides the gold ones mention a given answer.
 */
import { at, type Rng, zipfPicker } from './prng.js';
import { ALBUM_GENRES, createNameRegistry, FILM_GENRES, NOVEL_GENRES, type NameRegistry, workTitle } from './names.js';

/** Marks an absent link (no father, no employer, ...). */
export const NONE = -1;

/** The year the world's records stop; nobody is born, dies or publishes after it. */
const LAST_YEAR = 2023;

export type WorkKind = 'film' | 'novel' | 'album';
export type OrgType = 'film studio' | 'publishing house' | 'record label' | 'university' | 'company';
export type Occupation =
  | 'film director'
  | 'novelist'
  | 'musician'
  | 'painter'
  | 'architect'
  | 'physicist'
  | 'politician';

export interface Country {
  name: string;
  capital: number;
}

export interface City {
  name: string;
  country: number;
  river: number;
  founded: number;
  population: number;
}

export interface Person {
  name: string;
  family: string;
  female: boolean;
  born: number;
  died: number | null;
  birthCity: number;
  occupation: Occupation;
  father: number;
  employer: number;
  joined: number;
  university: number;
  contemporary: number;
  laterCity: number;
  works: number[];
}

export interface Org {
  name: string;
  type: OrgType;
  founded: number;
  founder: number;
  city: number;
  rival: number;
  works: number[];
}

export interface Work {
  title: string;
  kind: WorkKind;
  genre: string;
  year: number;
  creator: number;
  org: number;
  setting: number;
  related: number;
}

export interface World {
  countries: Country[];
  cities: City[];
  rivers: string[];
  people: Person[];
  orgs: Org[];
  works: Work[];
}

export interface WorkKindInfo {
  creator: Occupation;
  /** How a question names the creator: "the director of ...". */
  role: string;
  /** Passive participle: "directed by". */
  verb: string;
  /** Active past tense: "the person who wrote". */
  made: string;
  orgType: OrgType;
  genres: readonly string[];
  plural: string;
  /** No work of this kind is dated earlier (no films before cinema, no albums before LPs). */
  earliest: number;
}

export const WORK_KINDS: Record<WorkKind, WorkKindInfo> = {
  film: { creator: 'film director', role: 'director', verb: 'directed', made: 'directed', orgType: 'film studio', genres: FILM_GENRES, plural: 'films', earliest: 1908 },
  novel: { creator: 'novelist', role: 'author', verb: 'written', made: 'wrote', orgType: 'publishing house', genres: NOVEL_GENRES, plural: 'novels', earliest: 1800 },
  album: { creator: 'musician', role: 'musician', verb: 'recorded', made: 'recorded', orgType: 'record label', genres: ALBUM_GENRES, plural: 'albums', earliest: 1950 },
};

export interface OrgTypeInfo {
  /** How a question names an organisation of this type: "the studio that produced ...". */
  role: string;
  /** What an organisation of this type did to a work, or "" when it handles no works. */
  verb: string;
  earliest: number;
}

export const ORG_TYPES: Record<OrgType, OrgTypeInfo> = {
  'film studio': { role: 'studio', verb: 'produced', earliest: 1905 },
  'publishing house': { role: 'publisher', verb: 'published', earliest: 1790 },
  'record label': { role: 'label', verb: 'released', earliest: 1900 },
  university: { role: 'university', verb: '', earliest: 1650 },
  company: { role: 'company', verb: '', earliest: 1800 },
};

const OCCUPATIONS: readonly Occupation[] = ['film director', 'novelist', 'musician', 'painter', 'architect', 'physicist', 'politician'];
const OCCUPATION_WEIGHTS = [24, 24, 20, 8, 8, 8, 8];
const WORK_KIND_ORDER: readonly WorkKind[] = ['film', 'novel', 'album'];
const WORK_KIND_WEIGHTS = [40, 35, 25];

/** Creators are born late enough to make a work of their kind by their mid-sixties. */
function occupationWeights(born: number): number[] {
  return OCCUPATIONS.map((occupation, i) => {
    const kind = WORK_KIND_ORDER.find((k) => WORK_KINDS[k].creator === occupation);
    return kind !== undefined && born + 60 < WORK_KINDS[kind].earliest ? 0 : at(OCCUPATION_WEIGHTS, i);
  });
}

const EMPLOYER_TYPE: Record<Occupation, OrgType> = {
  'film director': 'film studio',
  novelist: 'publishing house',
  musician: 'record label',
  physicist: 'university',
  painter: 'company',
  architect: 'company',
  politician: 'university',
};

const ORG_TYPE_ORDER: readonly OrgType[] = ['film studio', 'publishing house', 'record label', 'university', 'company'];
const ORG_TYPE_WEIGHTS = [25, 22, 20, 18, 15];

function indicesByType(orgs: readonly Org[]): Map<OrgType, number[]> {
  const byType = new Map<OrgType, number[]>();
  orgs.forEach((org, index) => {
    const list = byType.get(org.type);
    if (list === undefined) byType.set(org.type, [index]);
    else list.push(index);
  });
  return byType;
}

/** Indices of the people born in [from, to], given people sorted by birth year. */
function bornBetween(people: readonly Person[], from: number, to: number): [number, number] {
  const lowerBound = (year: number): number => {
    let lo = 0;
    let hi = people.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (at(people, mid).born < year) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return [lowerBound(from), lowerBound(to + 1)];
}

function buildPlaces(rng: Rng, names: NameRegistry, cityCount: number): Pick<World, 'countries' | 'cities' | 'rivers'> {
  const countryCount = Math.max(4, Math.round(Math.sqrt(cityCount) * 1.3));
  const countries: Country[] = [];
  for (let i = 0; i < countryCount; i++) countries.push({ name: names.coin(rng), capital: NONE });
  const rivers: string[] = [];
  for (let i = 0; i < Math.max(5, Math.round(cityCount * 0.35)); i++) rivers.push(names.coin(rng));
  const cities: City[] = [];
  for (let i = 0; i < cityCount; i++) {
    cities.push({
      name: names.coin(rng),
      // The first cities go round-robin so every country has one.
      country: i < countryCount ? i : rng.int(countryCount),
      river: rng.int(rivers.length),
      founded: rng.between(780, 1890),
      population: Math.round(Math.exp(rng.between(800, 1450) / 100) / 100) * 100,
    });
  }
  cities.forEach((city, index) => {
    const country = at(countries, city.country);
    if (country.capital === NONE || at(cities, country.capital).population < city.population) country.capital = index;
  });
  return { countries, cities, rivers };
}

function buildPeople(rng: Rng, names: NameRegistry, count: number, cityRank: (rng: Rng) => number): Person[] {
  const births = Array.from({ length: count }, () => rng.between(1850, 1998)).sort((a, b) => a - b);
  const familyPool = Array.from({ length: Math.max(20, Math.round(count / 2.5)) }, () => names.coin(rng));
  const givenPool = Array.from({ length: Math.max(30, Math.round(count / 5)) }, () => names.coin(rng));
  const familyRank = zipfPicker(familyPool.length, 0.6);
  const people: Person[] = [];
  for (const born of births) {
    const female = rng.chance(0.45);
    let father = NONE;
    if (rng.chance(0.45)) {
      const [lo, hi] = bornBetween(people, born - 45, born - 22);
      for (let attempt = 0; attempt < 8 && hi > lo; attempt++) {
        const candidate = lo + rng.int(hi - lo);
        if (!at(people, candidate).female) {
          father = candidate;
          break;
        }
      }
    }
    const family = father === NONE ? at(familyPool, familyRank(rng)) : at(people, father).family;
    let name = '';
    for (let attempt = 0; name === ''; attempt++) {
      const given = attempt < 30 ? rng.pick(givenPool) : names.coin(rng);
      if (names.claim(`${given} ${family}`)) name = `${given} ${family}`;
    }
    const died = born < 1945 || rng.chance(0.08) ? born + rng.between(40, 96) : null;
    people.push({
      name,
      family,
      female,
      born,
      died: died !== null && died <= LAST_YEAR ? died : null,
      birthCity: cityRank(rng),
      occupation: at(OCCUPATIONS, rng.weighted(occupationWeights(born))),
      father,
      employer: NONE,
      joined: 0,
      university: NONE,
      contemporary: NONE,
      laterCity: NONE,
      works: [],
    });
  }
  return people;
}

function orgName(rng: Rng, names: NameRegistry, type: OrgType, city: City): string {
  for (;;) {
    let name: string;
    switch (type) {
      case 'film studio':
        name = `${names.coin(rng)} ${rng.pick(['Pictures', 'Films', 'Studios'])}`;
        break;
      case 'publishing house':
        name = rng.chance(0.3) ? `${names.coin(rng)} and ${names.coin(rng)}` : `${names.coin(rng)} ${rng.pick(['Press', 'Books', 'House'])}`;
        break;
      case 'record label':
        name = `${names.coin(rng)} ${rng.pick(['Records', 'Sound', 'Music'])}`;
        break;
      case 'university':
        // "University of <city>" puts the city's name in every passage about the university.
        name = rng.chance(0.5) ? `University of ${city.name}` : `${names.coin(rng)} ${rng.pick(['College', 'Institute'])}`;
        break;
      case 'company':
        name = `${names.coin(rng)} ${rng.pick(['Industries', 'Works', 'Company', 'Group'])}`;
        break;
    }
    if (names.claim(name)) return name;
  }
}

function buildOrgs(rng: Rng, names: NameRegistry, count: number, people: readonly Person[], cities: readonly City[], cityRank: (rng: Rng) => number): Org[] {
  const orgs: Org[] = [];
  for (let i = 0; i < count; i++) {
    // The first orgs cycle through the types so even a tiny world has one of each.
    const type = i < ORG_TYPE_ORDER.length ? at(ORG_TYPE_ORDER, i) : at(ORG_TYPE_ORDER, rng.weighted(ORG_TYPE_WEIGHTS));
    const founded = rng.between(Math.max(1820, ORG_TYPES[type].earliest), 1995);
    const [lo, hi] = bornBetween(people, founded - 65, founded - 22);
    const cityIndex = cityRank(rng);
    orgs.push({
      name: orgName(rng, names, type, at(cities, cityIndex)),
      type,
      founded,
      founder: hi > lo ? lo + rng.int(hi - lo) : rng.int(people.length),
      city: cityIndex,
      rival: NONE,
      works: [],
    });
  }
  const byType = indicesByType(orgs);
  orgs.forEach((org, index) => {
    const peers = byType.get(org.type) ?? [];
    if (peers.length > 1 && rng.chance(0.45)) {
      const rival = rng.pick(peers);
      if (rival !== index && at(orgs, rival).founded !== org.founded) org.rival = rival;
    }
  });
  return orgs;
}

function linkPeople(rng: Rng, people: Person[], orgs: readonly Org[], cityCount: number): void {
  const byType = indicesByType(orgs);
  const universities = byType.get('university') ?? [];
  for (const person of people) {
    const employers = byType.get(EMPLOYER_TYPE[person.occupation]) ?? [];
    // A few random tries instead of filtering every organisation keeps large worlds linear.
    for (let attempt = 0; attempt < 6 && employers.length > 0 && person.employer === NONE; attempt++) {
      const candidate = rng.pick(employers);
      if (at(orgs, candidate).founded <= person.born + 50) person.employer = candidate;
    }
    if (person.employer !== NONE && rng.chance(0.3)) person.employer = NONE;
    if (person.employer !== NONE) {
      person.joined = Math.min(LAST_YEAR, Math.max(person.born + 20, at(orgs, person.employer).founded) + rng.between(0, 15));
    }
    if (universities.length > 0 && rng.chance(0.55)) person.university = rng.pick(universities);
    if (rng.chance(0.5)) {
      const [lo, hi] = bornBetween(people, person.born - 12, person.born + 12);
      const other = lo + rng.int(hi - lo);
      if (at(people, other).born !== person.born) person.contemporary = other;
    }
    if (rng.chance(0.5)) person.laterCity = rng.int(cityCount);
  }
}

function buildWorks(rng: Rng, names: NameRegistry, count: number, people: Person[], orgs: Org[], cityRank: (rng: Rng) => number): Work[] {
  const creators = new Map<WorkKind, number[]>();
  const orgsOfType = indicesByType(orgs);
  for (const kind of WORK_KIND_ORDER) {
    const earliest = WORK_KINDS[kind].earliest;
    const ofKind = people.flatMap((p, index) =>
      p.occupation === WORK_KINDS[kind].creator && p.born + 22 <= LAST_YEAR && Math.min(p.died ?? LAST_YEAR, LAST_YEAR) >= earliest ? [index] : [],
    );
    creators.set(kind, rng.shuffle(ofKind));
  }
  const creatorRank = new Map<WorkKind, (rng: Rng) => number>();
  for (const [kind, list] of creators) if (list.length > 0) creatorRank.set(kind, zipfPicker(list.length, 0.5));

  // A kind without creators or without organisations to produce it cannot occur in this world.
  const kindWeights = WORK_KIND_ORDER.map((kind, i) =>
    creatorRank.has(kind) && orgsOfType.has(WORK_KINDS[kind].orgType) ? at(WORK_KIND_WEIGHTS, i) : 0,
  );
  const works: Work[] = [];
  while (works.length < count && kindWeights.some((w) => w > 0)) {
    const kind = at(WORK_KIND_ORDER, rng.weighted(kindWeights));
    const rank = creatorRank.get(kind);
    const candidates = orgsOfType.get(WORK_KINDS[kind].orgType) ?? [];
    if (rank === undefined) continue;
    const creator = at(creators.get(kind) ?? [], rank(rng));
    const person = at(people, creator);
    const latest = Math.min(person.died ?? LAST_YEAR, LAST_YEAR);
    const year = Math.min(latest, Math.max(WORK_KINDS[kind].earliest, person.born + rng.between(22, 65)));
    let org = person.employer !== NONE && at(orgs, person.employer).founded <= year ? person.employer : NONE;
    // A few random tries for an organisation that existed by then, as in linkPeople; else any.
    for (let attempt = 0; attempt < 8 && org === NONE; attempt++) {
      const candidate = rng.pick(candidates);
      if (at(orgs, candidate).founded <= year) org = candidate;
    }
    if (org === NONE) org = rng.pick(candidates);
    let title = workTitle(rng);
    for (let attempt = 0; !names.claim(title); attempt++) title = attempt < 20 ? workTitle(rng) : `${workTitle(rng)} ${names.coin(rng)}`;
    const index = works.length;
    works.push({ title, kind, genre: rng.pick(WORK_KINDS[kind].genres), year, creator, org, setting: cityRank(rng), related: NONE });
    person.works.push(index);
    at(orgs, org).works.push(index);
  }
  works.forEach((work, index) => {
    if (!rng.chance(0.55)) return;
    const siblings = rng.chance(0.5) ? at(people, work.creator).works : at(orgs, work.org).works;
    const related = rng.pick(siblings);
    if (related !== index && at(works, related).year !== work.year) work.related = related;
  });
  return works;
}

/** Builds a world around `peopleCount` people; the other entity counts scale with it. */
export function buildWorld(rng: Rng, peopleCount: number): World {
  const names = createNameRegistry();
  const { countries, cities, rivers } = buildPlaces(rng, names, Math.max(10, Math.round(peopleCount * 0.22)));
  // Popularity follows a random order, not the index, so the capital is not always the busiest city.
  const cityOrder = rng.shuffle(cities.map((_, index) => index));
  const cityZipf = zipfPicker(cities.length, 0.9);
  const cityRank = (r: Rng): number => at(cityOrder, cityZipf(r));
  const people = buildPeople(rng, names, peopleCount, cityRank);
  const orgs = buildOrgs(rng, names, Math.max(8, Math.round(peopleCount * 0.28)), people, cities, cityRank);
  linkPeople(rng, people, orgs, cities.length);
  const works = buildWorks(rng, names, Math.round(peopleCount * 1.05), people, orgs, cityRank);
  return { countries, cities, rivers, people, orgs, works };
}
