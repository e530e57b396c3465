// How an attack success rate maps to a colour class, shared by the lattice diagram, its legend and
// the browser-side view. Steps, not a gradient: the paper's rates are a few percent, and the step
// from 0 to anything above it is the one that matters.

export type AsrClass = 'asr-none' | 'asr-zero' | 'asr-low' | 'asr-mid' | 'asr-high' | 'asr-severe';

export const asrSteps: readonly { readonly cls: AsrClass; readonly title: string }[] = [
  { cls: 'asr-zero', title: '0 (sufficient)' },
  { cls: 'asr-low', title: '≤ 1%' },
  { cls: 'asr-mid', title: '≤ 5%' },
  { cls: 'asr-high', title: '≤ 20%' },
  { cls: 'asr-severe', title: '> 20%' },
  { cls: 'asr-none', title: 'no eligible edit' },
];

/** `undefined` when no attack had an isolated-eligible edit (the rate is undefined). */
export function asrClass(asr: number | undefined): AsrClass {
  if (asr === undefined || !Number.isFinite(asr)) return 'asr-none';
  if (asr <= 0) return 'asr-zero';
  if (asr <= 0.01) return 'asr-low';
  if (asr <= 0.05) return 'asr-mid';
  if (asr <= 0.2) return 'asr-high';
  return 'asr-severe';
}
