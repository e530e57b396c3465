import type { IToken } from 'chevrotain';
import { editModes, editVerbs, isEditVerb, settableFields, sourceWords } from '../language/edit-vocabulary.js';
import * as T from '../syntax/tokens.js';
import type { ScopedVariable, Want } from './completion-context.js';
import { expressionEnds, is, parenDepth } from './completion-tokens.js';

// What may be written at the cursor inside an `edit` declaration's operations (after its `=`):
// the verbs, their modes, the collection, the clauses `where`/`with`/`to`, the sources, and
// expressions with the operation's variables in scope. Read from the tokens, like completion-context.ts.

/** Expression completion with extra variables in scope (completion-context.ts supplies it). */
export type ExpressionWants = (tokens: readonly IToken[], scope: readonly ScopedVariable[]) => Want[];

const docOf = (rule: { readonly doc: string }): string => rule.doc;
const verbDocs = Object.fromEntries(Object.entries(editVerbs).map(([verb, rule]) => [verb, docOf(rule)]));
const collectionDocs: Readonly<Record<string, string>> = { steps: 'every logged step', citations: "the final's citations" };
const nothing: Want[] = [];

/** The operation the cursor is in: the tokens after the last comma outside parentheses. */
function currentOperation(body: readonly IToken[]): readonly IToken[] {
  let depth = 0;
  let start = 0;
  body.forEach((t, i) => {
    if (is(t, T.LParen)) depth++;
    else if (is(t, T.RParen)) depth--;
    else if (depth === 0 && is(t, T.Comma)) start = i + 1;
  });
  return body.slice(start);
}

/** Index of each clause word (`where`, `with`, `to`) outside parentheses, from `from` on. */
function clauses(op: readonly IToken[], from: number): { word: string; at: number }[] {
  const found: { word: string; at: number }[] = [];
  let depth = 0;
  op.forEach((t, i) => {
    if (is(t, T.LParen)) depth++;
    else if (is(t, T.RParen)) depth--;
    else if (i >= from && depth === 0 && is(t, T.Identifier) && (t.image === 'where' || t.image === 'with' || t.image === 'to')) found.push({ word: t.image, at: i });
  });
  return found;
}

function ended(tokens: readonly IToken[]): boolean {
  return parenDepth(tokens) === 0 && is(tokens[tokens.length - 1], ...expressionEnds);
}

/** Expression completion, and once the expression can end, the clause words that may follow. */
function thenClauses(expression: ExpressionWants, tokens: readonly IToken[], scope: readonly ScopedVariable[], next: readonly string[]): Want[] {
  const wants = expression(tokens, scope);
  return ended(tokens) && next.length > 0 ? [...wants, { kind: 'edit-words', words: Object.fromEntries(next.map((w) => [w, `starts the '${w}' clause`])) }] : wants;
}

export function editWants(body: readonly IToken[], expression: ExpressionWants): Want[] {
  const op = currentOperation(body);
  const verb = op[0];
  if (verb === undefined) return [{ kind: 'edit-words', words: verbDocs }];
  if (!isEditVerb(verb.image)) return nothing;
  const rule = editVerbs[verb.image];
  if (rule.assigns) {
    if (op.length === 1) return [{ kind: 'edit-words', words: settableFields }];
    const equals = op.findIndex((t) => is(t, T.Equals));
    return equals < 0 ? nothing : expression(op.slice(equals + 1), []);
  }
  if (op.length === 1) return [{ kind: 'edit-words', words: Object.fromEntries(rule.modes.map((m) => [m, editModes[m]])) }];
  if (op.length === 2) return nothing;
  if (op.length === 3) return [{ kind: 'keywords', words: ['in'] }];
  const variable = op[2]!;
  const found = clauses(op, 4);
  const collection = op.slice(4, found[0]?.at ?? op.length);
  const bound: ScopedVariable[] = [{ name: variable, collection }];
  const after = [...(rule.takesSource ? ['with'] : []), ...(rule.takesDestination ? ['to'] : [])];
  const source = found.find((f) => f.word === 'with');
  if (source !== undefined) return sourceWants(op.slice(source.at + 1), bound, expression);
  const last = found[found.length - 1];
  if (last === undefined) {
    if (rule.collections.length === 0) return thenClauses(expression, collection, [], ['where', ...after]);
    if (collection.length === 0) return [{ kind: 'edit-words', words: Object.fromEntries(rule.collections.map((c) => [c, collectionDocs[c] ?? c])) }];
    return [{ kind: 'edit-words', words: Object.fromEntries(['where', ...after].map((w) => [w, `starts the '${w}' clause`])) }];
  }
  const rest = op.slice(last.at + 1);
  if (last.word === 'to') return rest.length === 0 ? [{ kind: 'edit-words', words: { citations: "the final's citations" } }] : nothing;
  return thenClauses(expression, rest, bound, after);
}

/** After `with`: a source word, or `x in IDS where …` with the element and `x` in scope. */
function sourceWants(rest: readonly IToken[], bound: readonly ScopedVariable[], expression: ExpressionWants): Want[] {
  if (rest.length === 0) return [{ kind: 'edit-words', words: sourceWords }];
  if (rest.length === 1 || !is(rest[1], T.In)) return nothing;
  const where = clauses(rest, 2).find((f) => f.word === 'where');
  const candidates = rest.slice(2, where?.at ?? rest.length);
  const scope = [...bound, { name: rest[0]!, collection: candidates }];
  if (where === undefined) return thenClauses(expression, candidates, bound, ['where']);
  return expression(rest.slice(where.at + 1), scope);
}
