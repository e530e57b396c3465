// The steps a tagged transcript becomes, as pool-format-v2 JSON (docs/pools.md), built while the
// transcript is read: a call's step is written when the call is seen and gets its results when the
// observation that answers it arrives.
import type { ResultJson } from './tagged-documents.js';

export interface SearchStepJson {
  readonly type: 'search';
  readonly query: string;
  results: ResultJson[];
}

export interface ToolStepJson {
  readonly type: 'tool';
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  output?: string;
}

export type StepJson =
  | { readonly type: 'reasoning'; readonly text: string }
  | { readonly type: 'invalid'; readonly text: string }
  | SearchStepJson
  | ToolStepJson;

/** The steps one call block made, waiting for the observation that answers them (in call order). */
export type PendingCall = { readonly kind: 'search'; readonly steps: readonly SearchStepJson[] } | { readonly kind: 'tool'; readonly step: ToolStepJson };

/** What one call block is: steps that wait for an observation, or an invalid step (a call that cannot be read). */
export type CallRead = { readonly pending: PendingCall } | { readonly invalid: string };
