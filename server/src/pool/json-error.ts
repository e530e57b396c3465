// Where and why a text is not JSON, without a word of the text itself. V8's JSON.parse messages
// quote the offending text ("Unexpected token 'S', "SECRET=…" is not valid JSON"), and reasons
// reach diagnostics, reports and CI artifacts: a spec that links a secrets file must not read it
// out that way. jsonc-parser (strict options: no comments, no trailing commas) finds the position
// and the kind of the first error.
import { ParseErrorCode, visit } from 'jsonc-parser';

const kinds: Record<ParseErrorCode, string> = {
  [ParseErrorCode.InvalidSymbol]: 'unexpected character',
  [ParseErrorCode.InvalidNumberFormat]: 'malformed number',
  [ParseErrorCode.PropertyNameExpected]: 'a property name expected',
  [ParseErrorCode.ValueExpected]: 'a value expected',
  [ParseErrorCode.ColonExpected]: "':' expected",
  [ParseErrorCode.CommaExpected]: "',' expected",
  [ParseErrorCode.CloseBraceExpected]: "'}' expected",
  [ParseErrorCode.CloseBracketExpected]: "']' expected",
  [ParseErrorCode.EndOfFileExpected]: 'more text after the value',
  [ParseErrorCode.InvalidCommentToken]: 'a comment',
  [ParseErrorCode.UnexpectedEndOfComment]: 'an unterminated comment',
  [ParseErrorCode.UnexpectedEndOfString]: 'an unterminated string',
  [ParseErrorCode.UnexpectedEndOfNumber]: 'an unterminated number',
  [ParseErrorCode.InvalidUnicode]: 'a malformed \\u escape',
  [ParseErrorCode.InvalidEscapeCharacter]: 'a malformed escape',
  [ParseErrorCode.InvalidCharacter]: 'a control character in a string',
};

// jsonc-parser recurses once per level: a line of 100,000 `[` exhausted the stack. Past this many
// levels a rejected text is described by where it crosses them (JSON.parse itself has no such bound).
const scannedNesting = 1_000;

/** Where a text first opens more than `scannedNesting` arrays and objects (strings skipped), if it does. */
function tooDeepAt(text: string): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      if (++depth > scannedNesting) return i;
    } else if (c === ']' || c === '}') depth--;
  }
  return undefined;
}

/** The first syntax error of a text JSON.parse rejected: its offset (UTF-16 units) and kind. */
function firstError(text: string): { offset: number; kind: string } | undefined {
  const deep = tooDeepAt(text);
  if (deep !== undefined) return { offset: deep, kind: `nested deeper than ${scannedNesting.toLocaleString('en-US')} levels` };
  let found: { offset: number; kind: string } | undefined;
  visit(text, { onError: (error, offset) => (found ??= { offset, kind: kinds[error] }) }, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  return found;
}

/** A rejected JSONL line: `invalid JSON at column 8: a value expected`. */
export function jsonLineReason(line: string): string {
  // A raw NUL is never JSON (an escaped `\u0000` is): say so where it is, not at its string's start.
  const nul = line.indexOf('\0');
  if (nul >= 0) return `invalid JSON at column ${nul + 1}: a NUL byte (binary content)`;
  const error = firstError(line);
  return error === undefined ? 'invalid JSON' : `invalid JSON at column ${error.offset + 1}: ${error.kind}`;
}

/** A rejected JSON file: `invalid JSON at line 3, column 8: a value expected`. */
export function jsonFileReason(text: string): string {
  const error = firstError(text);
  if (error === undefined) return 'invalid JSON';
  const before = text.slice(0, error.offset);
  const line = before.split('\n').length;
  const column = error.offset - (before.lastIndexOf('\n') + 1) + 1;
  return `invalid JSON at line ${line}, column ${column}: ${error.kind}`;
}
