import assert from 'node:assert/strict';
import { formatSpec, layoutSpec } from '../../server/src/format/format.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import type { FileStatus } from '../../server/src/inputs/file-probe.js';
import type { Span } from '../../server/src/problems/span.js';
import { issueCodes } from '../../server/src/problems/issue-codes.js';
import { parse } from '../../server/src/syntax/parse.js';
import { rewardLexer } from '../../server/src/syntax/tokens.js';

const syntaxCodes = new Set<string>([issueCodes.lexError, issueCodes.unterminatedString, issueCodes.parseError]);

/** A fake file system that answers every way, so the linked-file checks run too (and do no I/O). */
function probeFile(absolutePath: string): FileStatus {
  const statuses: FileStatus[] = ['ok', 'missing', 'unreadable'];
  return statuses[absolutePath.length % 3]!;
}

function assertInside(span: Span, text: string, what: string): void {
  const ok = Number.isInteger(span.start) && Number.isInteger(span.end) && span.start >= 0 && span.start <= span.end && span.end <= text.length;
  assert.ok(ok, `${what} span ${JSON.stringify(span)} is outside the document of length ${text.length}`);
}

/**
 * `analyze` is total: it returns, and every position it hands to an editor (problems, their related
 * locations, symbol occurrences, comments) lies inside the document.
 */
export function assertAnalyzeSound(text: string): ReturnType<typeof analyze> {
  const result = analyze(text, { specFile: '/specs/spec.reward', probeFile });
  for (const problem of result.problems) {
    assertInside(problem.span, text, `problem ${problem.code} (${problem.message})`);
    for (const related of problem.related ?? []) assertInside(related.span, text, `related information of ${problem.code}`);
  }
  for (const occurrence of result.model.occurrences) assertInside(occurrence.span, text, `occurrence of ${occurrence.symbol.kind}`);
  for (const comment of result.parsed.spec.comments) assertInside(comment.span, text, 'comment');
  return result;
}

/** The lex and parse errors among an analysis's problems, readable in a failure message. */
export function syntaxProblems(analyzed: ReturnType<typeof analyze>): string[] {
  return analyzed.problems.filter((p) => syntaxCodes.has(p.code)).map((p) => `${p.code} at ${p.span.start}: ${p.message}`);
}

/** The tokens (kind and text) and the comments (without trailing blanks): what formatting must keep. */
function content(text: string): { tokens: string[]; comments: string[] } {
  const lexed = rewardLexer.tokenize(text);
  return {
    tokens: lexed.tokens.map((t) => `${t.tokenType.name} ${t.image}`),
    comments: (lexed.groups['comments'] ?? []).map((c) => c.image.replace(/[ \t]+$/, '')),
  };
}

const sortedCodes = (text: string): string[] => analyze(text).problems.map((p) => p.code).sort();

/**
 * The formatter returns broken text unchanged; on a clean spec its layout keeps every token and
 * comment in order (checked on `layoutSpec` itself, so formatSpec's own safety check cannot hide
 * a layout bug), means the same to the checker, and is a fixed point.
 */
export function assertFormatSound(text: string): void {
  const formatted = formatSpec(text);
  const parsed = parse(text);
  if (parsed.problems.length > 0) {
    assert.equal(formatted, text, 'a spec with syntax errors must come back unchanged');
    return;
  }
  const laidOut = layoutSpec(text, parsed);
  assert.deepEqual(content(laidOut), content(text), 'formatting changed the tokens or the comments');
  assert.equal(formatted, laidOut, "formatSpec's safety check rejected the layout");
  assert.deepEqual(sortedCodes(laidOut), sortedCodes(text), 'the formatted spec has different problems');
  assert.equal(formatSpec(laidOut), laidOut, 'formatting is not idempotent');
}
