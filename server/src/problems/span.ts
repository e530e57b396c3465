/** A stretch of a spec's text: character offsets, end exclusive. Lines and columns come from `LineIndex`. */
export interface Span {
  readonly start: number;
  readonly end: number;
}
