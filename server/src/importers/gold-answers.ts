// Gold answers as the verl family logs them (`gts`, `reward_spec.ground_truth`, R1-Searcher's
// `answer`): a string, a list, or `{target: [...]}` (Search-R1's datasets). Numbers are accepted
// and written as text (GSM-style targets); anything else is a reason, never a guess.
import { isRecord, jsonKind } from './jsonl-records.js';

export type GoldRead = { readonly ok: true; readonly answers: readonly string[] | undefined } | { readonly ok: false; readonly reason: string };

function answerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** The gold answers of `value`; `answers` undefined when the field is absent or null (the log has no gold). */
export function goldAnswers(value: unknown, field: string): GoldRead {
  if (value === undefined || value === null) return { ok: true, answers: undefined };
  const target = isRecord(value) && 'target' in value ? value.target : value;
  const single = answerText(target);
  if (single !== undefined) return { ok: true, answers: [single] };
  if (Array.isArray(target)) {
    const texts = target.map(answerText);
    const bad = texts.findIndex((t) => t === undefined);
    if (bad === -1) return { ok: true, answers: texts.filter((t): t is string => t !== undefined) };
    return { ok: false, reason: `${field}: answer ${bad + 1} is ${jsonKind(target[bad])}, expected a string or a number` };
  }
  return { ok: false, reason: `${field}: expected a string, a list of strings or {"target": [...]}, got ${jsonKind(target)}` };
}
