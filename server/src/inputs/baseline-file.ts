import * as fs from 'node:fs';
import { baselineSchema, type Baseline } from '../report/baseline-schema.js';

// The baseline file a spec's audits are checked against: `<spec>.baseline.json`, beside the spec.

export function baselineFileOf(specFile: string): string {
  return `${specFile}.baseline.json`;
}

export function writeBaseline(file: string, baseline: Baseline): void {
  fs.writeFileSync(file, `${JSON.stringify(baseline, null, 2)}\n`);
}

export type BaselineRead = { readonly kind: 'none' } | { readonly kind: 'ok'; readonly baseline: Baseline } | { readonly kind: 'invalid'; readonly reason: string };

/** Reads a baseline; a missing file is no baseline, a malformed one says why. */
export function readBaseline(file: string): BaselineRead {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { kind: 'none' };
  }
  try {
    const parsed = baselineSchema.safeParse(JSON.parse(text));
    return parsed.success ? { kind: 'ok', baseline: parsed.data } : { kind: 'invalid', reason: parsed.error.issues[0]?.message ?? 'not a baseline' };
  } catch (error) {
    return { kind: 'invalid', reason: (error as Error).message };
  }
}

