/**
 * What one check may spend on did-you-mean suggestions, in cells of the edit-distance table. A
 * spec with thousands of unknown names among thousands of declarations would otherwise cost
 * names × candidates distance tables on every keystroke; past the budget, names get no suggestion.
 */
export interface SuggestionBudget {
  remaining: number;
}

/** About 20 ms of work: every suggestion an ordinary spec needs, many times over. */
const cellsPerCheck = 10_000_000;

export function suggestionBudget(): SuggestionBudget {
  return { remaining: cellsPerCheck };
}

/** Optimal-string-alignment distance (Damerau–Levenshtein with adjacent transpositions). */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1]!;
}

/**
 * The closest candidate within a typo's reach: a third of the name's length, at least one edit;
 * names under three letters only match another casing, since any one-letter name is one edit away.
 * A candidate whose length differs by more than that is out of reach without a table. With a
 * budget, each candidate looked at costs a cell and each table its cells; once the budget is
 * spent, nothing more is compared.
 */
export function suggestName(name: string, candidates: Iterable<string>, budget?: SuggestionBudget): string | undefined {
  const limit = name.length < 3 ? 0.5 : Math.max(1, Math.floor(name.length / 3));
  const lowered = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (budget !== undefined) {
      if (budget.remaining <= 0) break;
      budget.remaining--;
    }
    if (candidate === name || Math.abs(candidate.length - name.length) > limit) continue;
    let distance = 0.5;
    if (candidate.length !== name.length || candidate.toLowerCase() !== lowered) {
      const cells = (name.length + 1) * (candidate.length + 1);
      if (budget !== undefined) {
        if (cells > budget.remaining) continue;
        budget.remaining -= cells;
      }
      distance = editDistance(name, candidate);
    }
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Every candidate within a typo's reach of `name` (the reach `suggestName` uses), closest first, at
 * most `max`; ties keep the candidates' order. For short lists (a folder's file names), no budget.
 */
export function closeNames(name: string, candidates: readonly string[], max: number): string[] {
  const limit = name.length < 3 ? 0.5 : Math.max(1, Math.floor(name.length / 3));
  const lowered = name.toLowerCase();
  return candidates
    .filter((candidate) => candidate !== name && Math.abs(candidate.length - name.length) <= limit)
    .map((candidate) => ({ candidate, distance: candidate.toLowerCase() === lowered ? 0.5 : editDistance(name, candidate) }))
    .filter((c) => c.distance <= limit)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, max)
    .map((c) => c.candidate);
}
