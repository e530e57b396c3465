import { LineIndex } from '../problems/line-index.js';
import { parse } from '../syntax/parse.js';
import type { ExpectationLine, SpecOutline } from '../contract/protocol.js';

// A spec's analysis blocks and the `expect` lines of its audits, for the client's Test Explorer and
// task provider. Parsing only: no checker, no linked-file probe, so outlining a workspace's specs
// reads nothing but their text (also in an untrusted workspace).

/** The named blocks, and each named audit's `expect` lines at the ranges its report gives its expectations. */
export function specOutline(text: string): SpecOutline {
  const lines = new LineIndex(text);
  const decls = parse(text).spec.decls;
  const blocks: SpecOutline['blocks'][number][] = [];
  const expectations: ExpectationLine[] = [];
  for (const decl of decls) {
    if ((decl.kind !== 'audit' && decl.kind !== 'training' && decl.kind !== 'comparison') || decl.name === undefined) continue;
    const name = decl.name.text;
    blocks.push({ kind: decl.kind, name });
    if (decl.kind !== 'audit') continue;
    for (const item of decl.items) {
      if (item.kind !== 'expect-metric' && item.kind !== 'expect-minimal') continue;
      expectations.push({ audit: name, text: text.slice(item.span.start, item.span.end).replace(/\s+/g, ' '), range: lines.range(item.span) });
    }
  }
  return { blocks, expectations };
}
