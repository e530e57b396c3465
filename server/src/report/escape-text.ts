// How every view writes text that may come from the data or the spec (trajectory ids, row reasons,
// file names, question text, candidate ids): control characters and bidirectional-formatting
// characters become visible escapes, so a value can neither start a line of its own (forging a
// `skipped row` line), drive a terminal (ANSI escapes), nor reorder what a reader sees (bidi
// overrides). Each output applies it once, to whole messages and cells; the report's JSON keeps the
// values as they are.

/**
 * C0 and C1 controls and DEL; the Arabic letter mark, LRM and RLM, the line and paragraph
 * separators, the bidi embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
 * Global: for `replace`, not `test`.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const invisibleCharacters = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/** One UTF-16 code unit as `\uXXXX`, which JSON and JavaScript read back as that character. */
export function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

const short: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `a\nb` → `a\\nb`, ESC → `\\u001b`, U+202E → `\\u202e`. Everything else, backslashes included, is
 * left as it is: the result is for reading, not for decoding.
 */
export function escapeControls(text: string): string {
  return text.replace(invisibleCharacters, (c) => short[c] ?? unicodeEscape(c));
}
