import { editText, marginChain } from '../../findings/wording.js';
import { plural } from '../../report/format-numbers.js';
import { pairFile } from '../../report/pair-file.js';
import type { AuditReport, WorkedPair } from '../../report/schema.js';
import { h, type Html } from './html.js';
import { rowFileAttribute, rowLineAttribute } from './page-contract.js';
import { pairAttribute } from './view-messages.js';

// The worked pairs an audit's findings rest on, listed where a reader sees them: each one trajectory
// of a pool and one edit of it, with its paired margin under every reward and why the report names
// it. Each item carries its row (file, line) and which pair it is, so the editor's view can open the
// pool file at that row or the original and the edited trajectory side by side.

interface NamedPair {
  readonly pair: WorkedPair;
  /** `cancellation:<i>` or `certificate:<i>`. */
  readonly ref: string;
  readonly reasons: string[];
}

/** Every worked pair of the audit, once each, with every reason the report names it for. */
export function auditPairs(audit: AuditReport): NamedPair[] {
  const named = new Map<string, NamedPair>();
  const add = (pair: WorkedPair, ref: string, reason: string): void => {
    const key = JSON.stringify([pair.pool, pair.trajectory, pair.attack, pair.position, pair.replacement]);
    const known = named.get(key);
    if (known === undefined) named.set(key, { pair, ref, reasons: [reason] });
    else if (!known.reasons.includes(reason)) known.reasons.push(reason);
  };
  audit.cancellation.forEach((f, i) => add(f.example, `cancellation:${i}`, `${f.attack} wins under ${f.larger} by switching off ${f.term}`));
  audit.certificate.forEach((c, i) => {
    if (c.example !== null) add(c.example, `certificate:${i}`, `largest ${audit.reward.name} gain among the edits that trigger ${c.detector}`);
  });
  return [...named.values()];
}

/** The card, or null when the audit names no worked pair. */
export function workedPairsCard(audit: AuditReport): Html | null {
  const pairs = auditPairs(audit);
  if (pairs.length === 0) return null;
  return h('figure', { class: 'card wide worked-pairs' },
    h('h3', {}, `Worked pairs (${pairs.length})`),
    h('p', { class: 'note' },
      `${plural(pairs.length, 'trajectory', 'trajectories')} of the pools, each with one edit and its paired margin M = R(A(τ)) − R(τ) under every scored reward: `,
      'the cases to check by hand. In the editor, a row opens its pool file at that line, and "side by side" shows the original and the edited trajectory with each term of the margin.'),
    h('ul', { class: 'pairs' }, pairs.map(({ pair, ref, reasons }) => {
      const file = pairFile(audit, pair);
      const edit = pair.position === null ? editText(pair) : `${pair.attack}, ${editText(pair)}`;
      return h('li', { class: 'worked-pair', [rowFileAttribute]: file, [rowLineAttribute]: pair.line, [pairAttribute]: ref },
        h('code', {}, `${file}:${pair.line}`), ' ', h('b', {}, pair.trajectory), ` (${edit}): ${marginChain(pair)} `,
        h('span', { class: 'muted' }, `(${reasons.join('; ')})`));
    })));
}
