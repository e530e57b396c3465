// The candidates a supplied list drops (not corpus ids, already retrieved or cited, repeats),
// counted by each file or command generator and summed over the parts of a preparation. The edit
// engine sums them and words the report's notes, so they live with it; the generators count them.

export interface DropCounts {
  /** Supplied ids that are not passages of the corpus. */
  readonly notInCorpus: number;
  /** Supplied ids the trajectory already retrieved or cites (the request's `exclude`). */
  readonly excluded: number;
  /** Repeats of an id earlier in the same list. */
  readonly duplicates: number;
}

/** One file or command generator's drops, under its label as the spec writes it. */
export interface GeneratorDrops {
  readonly label: string;
  readonly dropped: DropCounts;
}

/** The drops of several parts of one attack (the same generators in each), generator by generator. */
export function sumDrops(parts: readonly (readonly GeneratorDrops[])[]): GeneratorDrops[] {
  return (parts[0] ?? []).map(({ label }, g) => {
    const total = { notInCorpus: 0, excluded: 0, duplicates: 0 };
    for (const part of parts) {
      const counts = part[g]!.dropped;
      total.notInCorpus += counts.notInCorpus;
      total.excluded += counts.excluded;
      total.duplicates += counts.duplicates;
    }
    return { label, dropped: total };
  });
}

/** The report's notes on an attack's dropped candidates, one per generator that dropped any. */
export function dropNotes(drops: readonly GeneratorDrops[]): string[] {
  return drops.flatMap(({ label, dropped }) => {
    const note = describeDrops(dropped);
    return note === undefined ? [] : [`${label}: ${note}`];
  });
}

/** A note for the report ("supplied candidates ignored: 12 not corpus ids, 3 already retrieved or cited"), or undefined. */
export function describeDrops(counts: DropCounts): string | undefined {
  const parts: string[] = [];
  if (counts.notInCorpus > 0) parts.push(`${counts.notInCorpus} not ${counts.notInCorpus === 1 ? 'a corpus id' : 'corpus ids'}`);
  if (counts.excluded > 0) parts.push(`${counts.excluded} already retrieved or cited`);
  if (counts.duplicates > 0) parts.push(`${counts.duplicates} repeated within a list`);
  return parts.length === 0 ? undefined : `supplied candidates ignored: ${parts.join(', ')}`;
}
