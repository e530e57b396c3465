// A BrowseComp-Plus run's `result` items written back from an edited row (docs/import.md,
// "Rendering chat messages"): the items are flat, so a deleted step drops the items it was read
// from, a repeated one writes them again right after themselves, and the final text and answer go
// into the run's last `output_text` item. The rendering is read back with the row's rules before it
// is returned, like every chat-message rendering (./chat-render.ts).
import type { Trajectory } from '../pool/types.js';
import { itemMessages } from './browsecomp-items.js';
import { isObject } from './chat-messages.js';
import { callCount, finalText, PieceCounts, readsBackAs, refused, rowChatRules, stepCounts } from './chat-render.js';
import type { Made } from './chat-render.js';
import { chatTrajectory } from './chat-trajectory.js';
import type { FormatRenderer, EditedRow, RenderOutcome } from './render.js';

function renderItems(items: readonly unknown[], row: Trajectory, edit: EditedRow): Made<unknown[]> {
  const rules = rowChatRules(row);
  if (rules === undefined) return refused('the row does not say the rules it was read with (meta.chat_rules)');
  const layout = itemMessages(items);
  if (!layout.ok) return layout;
  const { messages, origins } = layout.value;
  const original = chatTrajectory(messages, rules, row.finalStatus);
  const trace = row.trace ?? row.steps;
  if (original.steps.length !== trace.length) return refused(`the logged items read as ${original.steps.length} steps, not the row's ${trace.length}`);
  const counted = stepCounts(edit, trace.length);
  if (!counted.ok) return counted;
  const counts = new PieceCounts(original.pieces, counted.value);
  // How many times each item is written, and the final message's text when the edit changes it.
  const times = new Array<number>(items.length).fill(1);
  let finalItem: { readonly at: number; readonly text: string } | undefined;
  let written: string | undefined;
  for (const [m, message] of messages.entries()) {
    if (message.role !== 'assistant') continue;
    const origin = origins[m]!;
    for (const [k, at] of origin.reasoning.entries()) times[at] = counts.of({ kind: 'reasoning', message: m, index: k });
    if (origin.call !== undefined) {
      const count = callCount(counts, original.pieces, m, 0);
      if (!count.ok) return count;
      times[origin.call] = count.value;
      const beside = counts.of({ kind: 'beside', message: m });
      if (beside > 1) return refused(`the edit repeats the text before call item ${origin.call}`);
      for (const at of origin.text) times[at] = beside;
      continue;
    }
    const turn = counts.of({ kind: 'turn', message: m });
    for (const at of origin.text) times[at] = turn;
    if (original.finalMessage === m) {
      const logged = row.final?.text ?? message.content;
      const text = finalText(logged, row.final?.answer ?? '', edit, rules.answer);
      if (!text.ok) return text;
      written = text.value;
      if (text.value !== logged) {
        if (origin.text.length !== 1) return refused('the final text is written in several output_text items, which the render does not rewrite');
        finalItem = { at: origin.text[0]!, text: text.value };
      }
    }
  }
  const out: unknown[] = [];
  for (const [i, item] of items.entries()) {
    const written = finalItem?.at === i && isObject(item) ? { ...item, output: finalItem.text } : item;
    for (let k = 0; k < times[i]!; k++) out.push(written);
  }
  const reread = itemMessages(out);
  if (!reread.ok) return reread;
  const wrong = readsBackAs(chatTrajectory(reread.value.messages, rules, row.finalStatus), original, row, edit, rules, written);
  return wrong !== undefined && !wrong.ok ? wrong : { ok: true, value: out };
}

/** BrowseComp-Plus rows render their run's `result` items (`meta.items`). */
export const browseCompPlusRenderer: FormatRenderer = {
  renders: ['items'],
  render(row, edit): RenderOutcome {
    const items = row.meta.items;
    if (!Array.isArray(items)) return refused('the row does not keep its run\'s result items (meta.items)');
    const made = renderItems(items, row, edit);
    return made.ok ? { ok: true, meta: { items: made.value } } : made;
  },
};
