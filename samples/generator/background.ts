/**
 * Background sentences: facts no question asks about. They give passages more of the length and the
 * shared, topic-typical vocabulary of encyclopedia text, so retrieval and word-overlap candidates
 * meet the noise they would meet in a real corpus. They name no entity, year or other answer.
 */
import { type Rng } from './prng.js';
import { type Occupation, type OrgType, type WorkKind } from './world.js';

export interface Pronouns {
  he: string;
  He: string;
  his: string;
  His: string;
}

const PERSON: Record<Occupation, readonly ((p: Pronouns) => string)[]> = {
  'film director': [
    (p) => `${p.He} began ${p.his} career as an assistant editor on newsreels.`,
    (p) => `${p.He} was known for long takes and for working with non-professional actors.`,
    (p) => `Before directing, ${p.he} wrote screenplays for several studios.`,
  ],
  novelist: [
    (p) => `${p.He} first worked as a journalist for a regional newspaper.`,
    (p) => `${p.His} novels often deal with memory, family and exile.`,
    (p) => `${p.He} also published essays and short stories.`,
  ],
  musician: [
    (p) => `${p.He} trained as a pianist before turning to composition.`,
    (p) => `${p.He} toured widely with a small ensemble.`,
    (p) => `${p.His} recordings mix folk melodies with modern arrangements.`,
  ],
  painter: [(p) => `${p.He} worked mostly in oil on large canvases.`, (p) => `${p.His} landscapes were shown in several national exhibitions.`],
  architect: [(p) => `${p.He} designed schools, libraries and railway stations.`, (p) => `${p.His} buildings are noted for their use of brick and timber.`],
  physicist: [(p) => `${p.His} research concerned the optics of thin films.`, (p) => `${p.He} published widely on the theory of heat.`],
  politician: [(p) => `${p.He} served two terms in the national parliament.`, (p) => `${p.He} sat on the regional council for many years.`],
};

const WORK: Record<WorkKind, readonly string[]> = {
  film: [
    'The film received mixed reviews on release but was later reassessed.',
    'It was a commercial success and was shown at several festivals.',
    'The film was restored in the early 2000s.',
  ],
  novel: ['The novel was widely translated.', 'It received mixed reviews but sold well.', 'It was later adapted for radio.'],
  album: ['The album was reissued with bonus tracks.', 'It reached a wide audience through radio play.', 'Critics praised its arrangements.'],
};

const ORG: Record<OrgType, readonly string[]> = {
  'film studio': ['It employs several hundred people.', 'Its original sound stages were replaced by larger ones.'],
  'publishing house': ['It publishes fiction, poetry and translations.', 'It has opened offices in several other cities.'],
  'record label': ['It began as a small independent label.', 'Its catalogue ranges from folk to jazz.'],
  university: ['It has faculties of law, medicine and engineering.', 'Its library holds a large collection of manuscripts.'],
  company: ['It employs several thousand people.', 'It has opened branches in several other cities.'],
};

const PLACE: readonly string[] = [
  'The local economy is based on trade, fishing and light industry.',
  'It has a market square and an old stone bridge.',
  'Its old quarter is a protected site.',
  'A railway line connects it with the capital.',
];

export function personBackground(rng: Rng, occupation: Occupation, pronouns: Pronouns): string {
  return rng.pick(PERSON[occupation])(pronouns);
}

export function workBackground(rng: Rng, kind: WorkKind): string {
  return rng.pick(WORK[kind]);
}

export function orgBackground(rng: Rng, type: OrgType): string {
  return rng.pick(ORG[type]);
}

export function placeBackground(rng: Rng): string {
  return rng.pick(PLACE);
}
