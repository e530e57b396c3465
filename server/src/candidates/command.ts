// The command generator's protocol (docs/generators.md): what the product writes to a user's
// program and how it reads the program's answers. Pure: `inputs/command-runner.ts` runs the
// program, this file decides what it may see and what its output means.
//
// A request holds visible fields only, built here from a fixed list, so a new gold field in the
// pool format can never reach a command by accident (test/edits/command-generator.test.ts).
import { stepFields } from '../language/view.js';
import { traceOf, type CandidateList, type Trajectory } from '../pool/types.js';

/** One request line: a (trajectory, citation position) whose citation the attack may replace. */
export interface CommandRequest {
  /** The request's number, 0-based, in the order written; an answer names it. */
  readonly request: number;
  readonly trajectory_id: string;
  /** The citation position being replaced (0-based). */
  readonly position: number;
  readonly question: string;
  /** The final answer ('' without a final). */
  readonly answer: string;
  /** The final's full text ('' without a final). */
  readonly final_text: string;
  /** Every id the trajectory retrieved (search results and opened documents), in first-seen order. */
  readonly retrieved: readonly string[];
  /** The final's citations, in order. */
  readonly cited: readonly string[];
}

/** Every request of the pools' rows: one per citation position, rows in pool order. */
export function commandRequests(rows: readonly Trajectory[]): CommandRequest[] {
  const requests: CommandRequest[] = [];
  for (const row of rows) {
    // Read field by field, never through the whole view (which carries gold): the same retrieved
    // ids as the detectors' E(τ), and the citations the launder attack replaces.
    const cited = row.final?.citations ?? [];
    const retrieved = [...stepFields(traceOf(row)).retrieved];
    for (let position = 0; position < cited.length; position++) {
      requests.push({
        request: requests.length, trajectory_id: row.id, position, question: row.question,
        answer: row.final?.answer ?? '', final_text: row.final?.text ?? '', retrieved, cited: [...cited],
      });
    }
  }
  return requests;
}

/** The stdin text: one JSON object per line, in request order. */
export function requestLines(requests: readonly CommandRequest[]): string {
  return requests.map((r) => `${JSON.stringify(r)}\n`).join('');
}

export type ParsedAnswers = { readonly ok: true; readonly lists: CandidateList[] } | { readonly ok: false; readonly error: string };

const shown = (text: string): string => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads the program's stdout: one JSON line per request, `{"request": N, "candidates": ["id", …]}`,
 * in any order; blank lines are skipped. Every request must be answered exactly once. The first
 * fault is the error, naming the output line ("command output line 3: …").
 */
export function parseAnswers(output: string, requests: readonly CommandRequest[]): ParsedAnswers {
  const answered = new Map<number, CandidateList>();
  const lines = output.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!.trim();
    if (text.length === 0) continue;
    const at = `command output line ${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { ok: false, error: `${at}: not JSON: ${JSON.stringify(shown(text))}` };
    }
    if (!isObject(value)) return { ok: false, error: `${at}: expected an object {"request": N, "candidates": [ids]}` };
    const n = value['request'];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n >= requests.length) {
      return { ok: false, error: `${at}: "request" must be a request number from 0 to ${requests.length - 1}, not ${JSON.stringify(n) ?? 'missing'}` };
    }
    const candidates = value['candidates'];
    if (!Array.isArray(candidates) || !candidates.every((id): id is string => typeof id === 'string')) {
      return { ok: false, error: `${at}: "candidates" must be an array of passage ids (strings)` };
    }
    if (answered.has(n)) return { ok: false, error: `${at}: request ${n} is answered twice` };
    const request = requests[n]!;
    answered.set(n, { traj_id: request.trajectory_id, citation_index: request.position, candidates });
  }
  const missing = requests.find((r) => !answered.has(r.request));
  if (missing !== undefined) {
    return { ok: false, error: `command output: no line answers request ${missing.request} (trajectory ${missing.trajectory_id}, position ${missing.position}); ${requests.length - answered.size} of ${requests.length} unanswered` };
  }
  return { ok: true, lists: requests.map((r) => answered.get(r.request)!) };
}
