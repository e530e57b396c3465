import type { Span } from '../../server/src/problems/span.js';

/**
 * Strips `⟦…⟧` markers from a spec and returns the spans they enclosed, so a test can say where
 * a diagnostic must be without counting characters.
 */
export function marked(source: string): { text: string; spans: Span[] } {
  const spans: Span[] = [];
  let text = '';
  let open = -1;
  for (const ch of source) {
    if (ch === '⟦') open = text.length;
    else if (ch === '⟧') {
      spans.push({ start: open, end: text.length });
      open = -1;
    } else text += ch;
  }
  return { text, spans };
}
