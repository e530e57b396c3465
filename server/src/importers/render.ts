// The other direction of a log format: a row read through a format, edited by an attack, written
// back as the framework would have logged the edited rollout. A reward that reads the logged text (the
// response transcript, the observation blocks, the chat messages) then reads the text of the edited
// trajectory, not the text of the original (docs/import.md, "Rendering").
import type { Trajectory } from '../pool/types.js';

/** What an edit made of a row: its steps (by original index) and its final parts, as the edited view holds them. */
export interface EditedRow {
  /** The index in the row's trace of each step of the edited trajectory, in order (a step repeated appears twice). */
  readonly stepOrigin: readonly number[];
  /** The final answer ("" when none). */
  readonly answer: string;
  /** The final text. */
  readonly finalText: string;
  readonly citations: readonly string[];
}

/** The edit that changes nothing: what the round trip renders. */
export function identityEdit(row: Trajectory): EditedRow {
  const steps = row.trace ?? row.steps;
  return { stepOrigin: steps.map((_s, i) => i), answer: row.final?.answer ?? '', finalText: row.final?.text ?? '', citations: row.final?.citations ?? [] };
}

/**
 * The rendered fields, under `meta`, keyed as the importer keeps them (`transcript`, `observations`,
 * `messages`…); or why this edit cannot be written in the format (then the figures that read a
 * rendered field do not count the edit: they would be exact for a text no trainer saw).
 */
export type RenderOutcome = { readonly ok: true; readonly meta: Readonly<Record<string, unknown>> } | { readonly ok: false; readonly reason: string };

export interface FormatRenderer {
  /** The keys under `meta` this format renders: they follow an edit. Every other logged value is frozen. */
  readonly renders: readonly string[];
  /**
   * The rendered fields of `row` edited as `edit` says. Rendering the identity edit gives what the row
   * logged, byte for byte (the round trip), for every record docs/import.md does not name an exception.
   */
  render(row: Trajectory, edit: EditedRow): RenderOutcome;
}

/** Where a rendered value first differs from the logged one: the UTF-16 offset, or undefined when they are the same. */
export function firstDifference(logged: unknown, rendered: unknown): number | undefined {
  const a = typeof logged === 'string' ? logged : JSON.stringify(logged);
  const b = typeof rendered === 'string' ? rendered : JSON.stringify(rendered);
  if (a === b) return undefined;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** A record whose identity render is not what it logged: the key and the first differing offset, or why it cannot be rendered. */
export interface RoundTripMiss {
  readonly row: Trajectory;
  readonly key?: string;
  readonly offset?: number;
  readonly reason?: string;
}

/** Renders each row unedited and compares every rendered key with the value the row logged (`herald import --roundtrip`). */
export function roundTrip(rows: readonly Trajectory[], renderer: FormatRenderer): { readonly total: number; readonly misses: readonly RoundTripMiss[] } {
  const misses: RoundTripMiss[] = [];
  for (const row of rows) {
    const out = renderer.render(row, identityEdit(row));
    if (!out.ok) {
      misses.push({ row, reason: out.reason });
      continue;
    }
    for (const key of renderer.renders) {
      const offset = firstDifference(row.meta[key], out.meta[key]);
      if (offset === undefined) continue;
      misses.push({ row, key, offset });
      break;
    }
  }
  return { total: rows.length, misses };
}
