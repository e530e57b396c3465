import * as fs from 'node:fs';
import { rowReason } from '../pool/row-reason.js';
import { baselineSchema, type Baseline } from '../report/baseline-schema.js';
import { maxBaselineBytes } from './input-limits.js';
import { jsonFileReason } from '../pool/json-error.js';
import { openInput, readOpened, UnreadableInput } from './open-input.js';
import { replaceFile, type Replaced } from './replace-file.js';
import { WorkspaceTrust } from './trust.js';

// The baseline file a spec's audits are checked against: `<spec>.baseline.json`, beside the spec.
// It is a file the spec reads (inputs/spec-inputs.ts lists it), so it is opened like the others,
// under the trust rule; and the one file HERALD writes beside a spec, so it is written with care.

export function baselineFileOf(specFile: string): string {
  return `${specFile}.baseline.json`;
}

export type BaselineWrite = Replaced;

/**
 * Writes a baseline by `replaceFile` (a new file in the spec's folder, renamed over the old one), so
 * the write never goes through a symbolic link and a crash never leaves half a baseline. Refused when
 * the baseline's name is a symbolic link or not a regular file, or the trust rule rules it out.
 */
export function writeBaseline(file: string, baseline: Baseline, trust = WorkspaceTrust.everything): BaselineWrite {
  try {
    const existing = fs.lstatSync(file);
    if (existing.isSymbolicLink()) return { ok: false, reason: `${file} is a symbolic link: a baseline is not written through one` };
    if (!existing.isFile()) return { ok: false, reason: `${file} is not a regular file` };
  } catch {
    // No baseline yet: it is created.
  }
  if (!trust.allows(file)) return { ok: false, reason: `${file} is outside this untrusted workspace` };
  const written = replaceFile(file, [`${JSON.stringify(baseline, null, 2)}\n`]);
  return written.ok ? written : { ok: false, reason: `${file} could not be written: ${written.reason}` };
}

export type BaselineRead = { readonly kind: 'none' } | { readonly kind: 'ok'; readonly baseline: Baseline } | { readonly kind: 'invalid'; readonly reason: string };

/**
 * Reads a baseline through `openInput` under the trust rule; a missing file is no baseline, any
 * other that cannot be used says why, by position and kind only: never a word of the file, which
 * may be a link to anything.
 */
export function readBaseline(file: string, trust = WorkspaceTrust.everything): BaselineRead {
  const opened = openInput(file, { trust, maxBytes: maxBaselineBytes, limitName: 'for a baseline' });
  if (!opened.ok) return opened.missing ? { kind: 'none' } : { kind: 'invalid', reason: opened.reason };
  let text: string;
  try {
    text = readOpened(opened, maxBaselineBytes).toString('utf8');
  } catch (error) {
    return { kind: 'invalid', reason: error instanceof UnreadableInput ? error.reason : 'the file cannot be read' };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: jsonFileReason(text) };
  }
  const parsed = baselineSchema.safeParse(value);
  return parsed.success ? { kind: 'ok', baseline: parsed.data } : { kind: 'invalid', reason: rowReason(parsed.error, value) };
}
