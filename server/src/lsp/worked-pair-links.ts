import { z } from 'zod';
import { CodeActionKind, type CodeAction, type Diagnostic } from 'vscode-languageserver/node';
import type { RowPair } from '../problems/problem.js';
import type { DocumentAnalysis } from './document-analysis.js';
import { openWorkedPairCommand, pairEditTitle, type WorkedPairParams } from '../contract/protocol.js';
import { markdownText } from '../ide/row-text.js';

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
  return `${pair.trajectory}, ${pairEditTitle(pair)}`;
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
