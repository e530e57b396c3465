import { z } from 'zod';
import { CodeActionKind, type CodeAction, type Diagnostic } from 'vscode-languageserver/node';
import type { RowPair } from '../problems/problem.js';
import type { DocumentAnalysis } from './document-analysis.js';
import { openWorkedPairCommand, pairEditLabel, type WorkedPairParams } from './protocol.js';

// The ways into the trajectory diff from the spec: a code action on every finding whose rows hold
// a worked pair, and command links in hovers. Both run the client's `herald.openWorkedPair`, so
// they are offered only to a client that said it has that command (the VS Code extension).

/** A worked pair where a finding, a hover or the report names it: the row's edit and its line. */
export type NamedPair = RowPair & { readonly line: number };

/** The request for a pair of the spec at `uri`. */
export function pairParams(uri: string, pair: NamedPair): WorkedPairParams {
  const { audit, trajectory, pool, line, attack, position, replacement, change } = pair;
  return { uri, audit, trajectory, pool, line, attack, position, replacement, ...(change === undefined ? {} : { change }) };
}

/** `t1, launder citation 0 → p2`: which pair, in a few words. */
export function pairLabel(pair: Omit<NamedPair, 'audit' | 'line' | 'pool'>): string {
  return `${pair.trajectory}, ${pair.attack} ${pairEditLabel(pair)}`;
}

const markupCharacters = /[\\`*_[\]<>|~]/g;

/** Markdown text, inside a line that starts with other text, with every character that could start markup escaped. */
export function markdownText(text: string): string {
  return text.replace(markupCharacters, '\\$&').replace(/\r?\n/g, ' ');
}

/** The text `markdownText` escaped, for a client that shows hovers as plain text. */
export function unescapeMarkdown(text: string): string {
  return text.replace(/\\([\\`*_[\]<>|~])/g, '$1');
}

/** A markdown link that opens the pair side by side; VS Code runs it only because the client trusts this one command. */
export function pairLink(label: string, params: WorkedPairParams): string {
  const args = encodeURIComponent(JSON.stringify([params]));
  return `[${markdownText(label)}](command:${openWorkedPairCommand}?${args} "Open the original and the edited trajectory side by side")`;
}

// What diagnostics.ts adds to a finding's `data` for its worked pairs, as the client sends it back.
const pairsData = z.object({
  workedPairs: z.array(z.object({
    audit: z.string(), trajectory: z.string(), pool: z.string(), line: z.number().int(), attack: z.string(),
    position: z.number().int().nullable(), replacement: z.string().nullable(), change: z.string().optional(),
  })),
});

/** The key of a diagnostic's `data` that holds its worked pairs (LSP only: SARIF's properties are the finding's own data). */
export const workedPairsKey = 'workedPairs';

/** "Show worked pair … side by side", for each worked pair of each finding in `diagnostics`. */
export function workedPairActions(analysis: DocumentAnalysis, diagnostics: readonly Diagnostic[]): CodeAction[] {
  return diagnostics.flatMap((diagnostic) => {
    const data = pairsData.safeParse(diagnostic.data);
    if (!data.success) return [];
    return data.data.workedPairs.map((pair): CodeAction => {
      const title = `Show the worked pair ${pairLabel(pair)} side by side`;
      return { title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], command: { title, command: openWorkedPairCommand, arguments: [pairParams(analysis.uri, pair)] } };
    });
  });
}
