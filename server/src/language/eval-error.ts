/**
 * A value an expression cannot compute within the engine's bounds on one trajectory (a `matches`
 * over a text too long for its pattern). Raised while evaluating and turned into `audit-failed`,
 * naming the term and the row, where features are evaluated (edits/attack-run.ts).
 */
export class EvaluationError extends Error {}
