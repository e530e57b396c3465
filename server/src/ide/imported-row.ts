import { traceOf, type TraceStep, type Trajectory } from '../pool/types.js';

// A row an importer made has no JSON line of its own in the log (the line is the framework's record):
// the worked pair shows it in pool format v2, as the audit read it (ids resolved against the corpus),
// so the diff of the original and the edited row is over the same fields as for a pool file.

const withReward = (reward: number | undefined): { reward?: number } => (reward === undefined ? {} : { reward });

function stepJson(step: TraceStep): Record<string, unknown> {
  switch (step.type) {
    case 'search':
      // Result objects as logged, each with the id it resolved to (and how); bare ids otherwise.
      return { type: 'search', query: step.query, results: step.hits ?? step.results, ...withReward(step.reward) };
    case 'tool':
      return {
        type: 'tool', tool: step.tool, args: step.args, ...(step.call_id === undefined ? {} : { call_id: step.call_id }),
        results: step.hits ?? step.results, ...(step.output === undefined ? {} : { output: step.output }), ...withReward(step.reward),
      };
    case 'reasoning':
    case 'invalid':
      return { type: step.type, text: step.text, ...withReward(step.reward) };
  }
}

/** The trajectory as a pool row in format v2 (without `source`): what `herald import` would write, with the ids the audit resolved. */
export function poolRowJson(row: Trajectory): Record<string, unknown> {
  const status = row.finalStatus === undefined ? {} : { status: row.finalStatus };
  const final = row.final === null
    ? (row.finalStatus === undefined ? null : { answer: null, ...status })
    : { answer: row.final.answer, citations: row.final.citations, text: row.final.text, ...status };
  return { id: row.id, question_id: row.question_id, question: row.question, steps: traceOf(row).map(stepJson), final, gold: row.gold, meta: row.meta };
}
