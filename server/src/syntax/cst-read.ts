import type { IToken } from 'chevrotain';
import type { Span } from '../problems/span.js';
import type * as A from './ast.js';

// Reading the children of a CST node as cst-types.d.ts types them. A node the recovering parser
// cut short may lack any child, even one the grammar requires, so a builder reads its children as
// Partial, and only tokens the parser really read.

export type Children<N extends { children: object }> = Partial<N['children']>;

/** The token at `index` of a list, if the recovering parser really read it (inserted tokens have no position and no text). */
export function read(list: readonly IToken[] | undefined, index = 0): IToken | undefined {
  const t = list?.[index];
  return t === undefined || t.isInsertedInRecovery === true || Number.isNaN(t.startOffset) ? undefined : t;
}

export function readAll(list: readonly IToken[] | undefined): IToken[] {
  return (list ?? []).filter((t) => t.isInsertedInRecovery !== true && !Number.isNaN(t.startOffset));
}

/** Builds the first node of a child list, if the parser made one. */
export function one<N extends { children: object }, R>(nodes: readonly N[] | undefined, build: (c: Children<N>) => R): R | undefined {
  const node = nodes?.[0];
  return node === undefined ? undefined : build(node.children);
}

/** Builds every node of a child list, leaving out those that came to nothing. */
export function each<N extends { children: object }, R>(nodes: readonly N[] | undefined, build: (c: Children<N>) => R | undefined): R[] {
  const built: R[] = [];
  for (const node of nodes ?? []) {
    const result = build(node.children);
    if (result !== undefined) built.push(result);
  }
  return built;
}

/** What the first alternative whose token the parser really read stands for, with that token. */
export function pick<T>(alternatives: readonly (readonly [readonly IToken[] | undefined, T])[]): { token: IToken; value: T } | undefined {
  for (const [list, value] of alternatives) {
    const token = read(list);
    if (token !== undefined) return { token, value };
  }
  return undefined;
}

export function tokenSpan(t: IToken): Span {
  return { start: t.startOffset, end: (t.endOffset ?? t.startOffset) + 1 };
}

type SpanPart = Span | IToken | { readonly span: Span } | undefined;

/**
 * The smallest span covering the given parts; parts the parser never read are skipped. A list of
 * parts is passed as it is, not spread: a block may hold more items than a call takes arguments.
 */
export function cover(...parts: (SpanPart | readonly SpanPart[])[]): Span {
  let start = Infinity;
  let end = -Infinity;
  const add = (part: SpanPart): void => {
    if (part === undefined) return;
    // Tokens carry offsets; AST nodes and names carry a span; a bare span is itself.
    const span = 'startOffset' in part ? tokenSpan(part) : 'span' in part ? part.span : part;
    if (span.start < start) start = span.start;
    if (span.end > end) end = span.end;
  };
  for (const part of parts) {
    if (isList(part)) for (const item of part) add(item);
    else add(part);
  }
  return start === Infinity ? { start: 0, end: 0 } : { start, end };
}

function isList(part: SpanPart | readonly SpanPart[]): part is readonly SpanPart[] {
  return Array.isArray(part);
}

export function nameOf(t: IToken | undefined): A.Name | undefined {
  return t === undefined ? undefined : { text: t.image, span: tokenSpan(t) };
}

export function unquote(image: string): string {
  return image.slice(1, -1).replace(/\\(.)/g, '$1');
}

export function stringOf(t: IToken | undefined): A.StringLit | undefined {
  return t === undefined ? undefined : { kind: 'string', value: unquote(t.image), raw: t.image.slice(1, -1), span: tokenSpan(t) };
}

export function numberOf(t: IToken | undefined): A.NumberLit | undefined {
  return t === undefined ? undefined : { kind: 'number', value: Number(t.image), span: tokenSpan(t) };
}
