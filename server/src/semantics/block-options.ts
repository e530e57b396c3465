import type { BlockItem } from '../syntax/ast.js';

// Reading a checked block's items into plain values. The checker has reported every problem, so
// these only run on error-free specs and never validate.

/** The names an option lists (`log a, b`). */
export function optionNames(items: readonly BlockItem[], key: string): string[] {
  return items.flatMap((i) => (i.kind === 'option' && i.key.text === key ? i.values.flatMap((v) => (v.kind === 'name' ? [v.name.text] : [])) : []));
}

/** An option's first number. */
export function optionNumber(items: readonly BlockItem[], key: string): number | undefined {
  for (const item of items) {
    if (item.kind !== 'option' || item.key.text !== key) continue;
    const value = item.values[0];
    if (value?.kind === 'number') return value.value;
  }
  return undefined;
}

/** An option's first word (`runs logs`). */
export function optionWord(items: readonly BlockItem[], key: string): string | undefined {
  return optionNames(items, key)[0];
}

/** The bootstrap seed and resample count a block sets (defaults 0 and 1000). */
export function resampling(items: readonly BlockItem[]): { seed: number; bootstrap: number } {
  let seed = 0;
  let bootstrap = 1000;
  for (const item of items) {
    if (item.kind !== 'setting') continue;
    if (item.key === 'seed') seed = item.values[0]?.value ?? seed;
    else if (item.key === 'bootstrap') bootstrap = item.values[0]?.value ?? bootstrap;
  }
  return { seed, bootstrap };
}
