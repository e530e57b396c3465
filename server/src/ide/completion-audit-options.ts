import type { IToken } from 'chevrotain';
import * as T from '../syntax/tokens.js';
import { auditOptionDocs } from '../semantics/audit-options.js';
import type { Want } from './completion-context.js';
import { is } from './completion-tokens.js';

// Completion for an audit's options (`select first`, `robustness stored, best(R0)`, `clusters
// common`), around the audit items' own completion: an option is an identifier where an item starts.

/** The keywords that start an audit item. */
export const auditItemStarts = [T.Reward, T.Compare, T.Corpus, T.Pools, T.Attack, T.Lattice, T.Expect, T.Seed, T.Bootstrap, T.Sweep];


/** The option being written at the cursor: its tokens from its key on; undefined when the cursor is in an item. */
function currentOption(inner: readonly IToken[]): readonly IToken[] | undefined {
  let start = -1;
  let valueDone = true;
  let depth = 0;
  inner.forEach((t, i) => {
    if (is(t, T.LBrace, T.LParen)) depth++;
    else if (is(t, T.RBrace, T.RParen)) depth--;
    if (depth > 0 || is(t, T.LBrace, T.RBrace, T.LParen, T.RParen)) return;
    if (is(t, ...auditItemStarts)) {
      start = -1;
      valueDone = false;
    } else if (is(t, T.Identifier) && valueDone && Object.hasOwn(auditOptionDocs, t.image)) {
      start = i;
      valueDone = false;
    } else {
      // `targets`, `using`, `=`, `-` and commas in items are followed by their values, like a key.
      valueDone = !is(t, T.Comma, T.Minus, T.Plus, T.Targets, T.Using, T.Equals);
    }
  });
  return start < 0 ? undefined : inner.slice(start);
}

/** What an audit block wants at the cursor: an option's values, or the items' wants with the option names at an item's start. */
export function auditWantsWithOptions(inner: readonly IToken[], itemWants: () => Want[]): Want[] {
  const option = currentOption(inner);
  const last = option?.[option.length - 1];
  if (option !== undefined && (option.length === 1 || is(last, T.Comma, T.LParen))) {
    if (is(last, T.LParen)) return [{ kind: 'declared', declKind: 'reward', exclude: new Set() }];
    if (option[0]!.image === 'clusters') return [{ kind: 'keywords', words: ['common', 'each'] }];
    return [{ kind: 'audit-words', category: 'pool-selection' }];
  }
  const afterOption: Want[] = [{ kind: 'audit-item-keywords' }];
  const wants = option === undefined ? itemWants() : afterOption;
  return wants.some((w) => w.kind === 'audit-item-keywords') ? [...wants, { kind: 'audit-words', category: 'audit-option' }] : wants;
}
