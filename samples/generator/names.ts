/**
 * Invented names. Proper names are coined from syllables so they never collide with real entities or
 * with English words; work titles use English words so that titles share words with each other and
 * with questions, which is what makes word-overlap and BM25 generators find plausible distractors.
 */
import { type Rng } from './prng.js';

// Single consonants are listed more than once so that clusters stay rare and names pronounceable.
const ONSETS = ['b', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'b', 'd', 'k', 'l', 'm', 'n', 'r', 's', 't', 'br', 'dr', 'gr', 'kr', 'st', 'tr', 'th', 'sh', 'w', 'z', 'j'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'a', 'e', 'o', 'ai', 'ei', 'ou'];
const CODAS = ['', '', 'n', 'r', 'l', 's', 'k', 'm', 'th', 'nd', 'st', 'rn'];

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * Hands out names that are unique across the whole world, compared after lower-casing, so that a
 * name in a passage or an answer identifies exactly one entity.
 */
export interface NameRegistry {
  /** A new coined word of 2 or 3 syllables, unused by any entity. */
  coin(rng: Rng): string;
  /** Reserves a composed name; false when it is taken. */
  claim(name: string): boolean;
}

export function createNameRegistry(): NameRegistry {
  const taken = new Set<string>();
  const claim = (name: string): boolean => {
    const key = name.toLowerCase();
    if (taken.has(key)) return false;
    taken.add(key);
    return true;
  };
  return {
    claim,
    coin: (rng) => {
      for (;;) {
        const syllables = rng.chance(0.65) ? 2 : 3;
        let word = '';
        for (let i = 0; i < syllables; i++) word += rng.pick(ONSETS) + rng.pick(VOWELS);
        word += rng.pick(CODAS);
        if (word.length >= 4 && word.length <= 9 && claim(word)) return capitalise(word);
      }
    },
  };
}

const ADJECTIVES = (
  'Silent Golden Broken Hidden Last Northern Quiet Distant Burning Winter Summer Autumn Crimson Silver ' +
  'Hollow Bitter Gentle Endless Lonely Narrow Pale Scarlet Secret Shining Wild Empty Iron Paper Glass ' +
  'Salt Stone Velvet Amber Ashen Blue Grey Green White Black Red Early Late Second Final Lost Open ' +
  'Small Great Little Long Deep High Low Cold Warm Bright Dark Sleeping Wandering Falling Rising Faded ' +
  'Forgotten Sacred Restless Frozen Painted Borrowed Crooked Hungry Patient Careless Wounded'
).split(' ');

const NOUNS = (
  'Road River Harbour Garden Mirror Lantern Winter Summer Orchard Bridge Tower Island Valley Mountain ' +
  'Forest Window Letter Promise Shadow Signal Station Theatre Voyage Wedding Archive Border Chorus ' +
  'Compass Country Crossing Daughter Dream Empire Evening Festival Fever Frontier Harvest Horizon Hunter ' +
  'Journey Kingdom Ladder Lighthouse Machine Market Meadow Memory Morning Night Ocean Passage Pilgrim ' +
  'Portrait Prophet Quarry Rain Requiem Return Rivalry Season Sister Sky Song Spring Storm Stranger ' +
  'Street Tide Traveller Vessel Village Voice Wall Water Wind Wire Witness Years Anthem Atlas ' +
  'Ballad Canal Carnival Cathedral Circus Clockwork Coast Covenant Dance Desert Echo Engine Exile Feast ' +
  'Field Fire Flood Glacier Guardian Heir Hymn Inheritance Lake Legacy Maps Mill Moon North Palace Pier'
).split(' ');

/** A work title such as "The Salt Road" or "Letter of Ashes"; the caller checks uniqueness. */
export function workTitle(rng: Rng): string {
  const adjective = rng.pick(ADJECTIVES);
  const noun = rng.pick(NOUNS);
  switch (rng.int(5)) {
    case 0:
      return `The ${adjective} ${noun}`;
    case 1:
      return `${noun} of ${rng.pick(NOUNS)}`;
    case 2:
      return `${adjective} ${noun}`;
    case 3:
      return `The ${noun} and the ${rng.pick(NOUNS)}`;
    default:
      return `${/^[AEIOU]/.test(noun) ? 'An' : 'A'} ${noun} in ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`;
  }
}

export const FILM_GENRES = ['drama', 'comedy', 'thriller', 'documentary', 'western', 'musical', 'war', 'romance', 'science fiction'];
export const NOVEL_GENRES = ['historical', 'crime', 'epistolary', 'satirical', 'gothic', 'coming of age', 'adventure'];
export const ALBUM_GENRES = ['jazz', 'folk', 'rock', 'electronic', 'choral', 'blues', 'chamber pop'];
export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
