import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CodeActionKind, type CodeAction, type Diagnostic } from 'vscode-languageserver/node';
import { z } from 'zod';
import { auditIssueCodes, issueCodes } from '../problems/issue-codes.js';
import { closeNames } from '../semantics/did-you-mean.js';
import type { AuditDecl } from '../syntax/ast.js';
import type { DocumentAnalysis } from './document-analysis.js';
import { pickLinkedFileCommand, type PickLinkedFileArguments } from '../contract/protocol.js';
import { addToCompare } from './spec-edits.js';

// Quick fixes for the checker's errors and for failed expectations, each reading the `data` its
// diagnostic carries: the name a typo was probably meant to be, the line an expectation would hold
// as, the file a link names. Every edit checks that the text still is what the diagnostic was about.

const suggestionData = z.object({ suggestion: z.string() });
const expectData = z.object({ expect: z.string(), observed: z.string() });
const fileData = z.object({ path: z.string() });

/** Codes whose diagnostic is on one mistyped word and may carry `data.suggestion`. */
const didYouMeanCodes = new Set<unknown>([
  issueCodes.unknownName, issueCodes.unknownMember, issueCodes.unknownAttackKind, issueCodes.unknownGenerator,
  issueCodes.unknownMetric, issueCodes.unknownSelection, issueCodes.unknownOption, issueCodes.badField,
]);

function textAt(analysis: DocumentAnalysis, diagnostic: Diagnostic): string {
  return analysis.text.slice(analysis.lines.offset(diagnostic.range.start), analysis.lines.offset(diagnostic.range.end));
}

function didYouMean(analysis: DocumentAnalysis, diagnostic: Diagnostic): CodeAction | undefined {
  const data = suggestionData.safeParse(diagnostic.data);
  const word = textAt(analysis, diagnostic);
  if (!data.success || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(word)) return undefined;
  return {
    title: `Change '${word}' to '${data.data.suggestion}'`, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred: true,
    edit: { changes: { [analysis.uri]: [{ range: diagnostic.range, newText: data.data.suggestion }] } },
  };
}

function updateExpect(analysis: DocumentAnalysis, diagnostic: Diagnostic): CodeAction | undefined {
  const data = expectData.safeParse(diagnostic.data);
  if (!data.success || !textAt(analysis, diagnostic).startsWith('expect')) return undefined;
  return {
    title: `Update this expect to the observed value: ${data.data.expect.replace(/^expect\s+/, '')} (observed ${data.data.observed})`,
    kind: CodeActionKind.QuickFix, diagnostics: [diagnostic],
    edit: { changes: { [analysis.uri]: [{ range: diagnostic.range, newText: data.data.expect }] } },
  };
}

/** The names of the files in a folder (the workspace trust applied); the quick fixes never read the disk themselves. */
export type FolderFiles = (dir: string) => readonly string[];

/** At most this many "did you mean" links for one missing file. */
const maxFileSuggestions = 3;

/**
 * A link to a file that is not there: first the files beside it whose names are a typo away (the
 * closest preferred), then a file picker, and creating an empty file last, since a misspelt link is
 * far likelier than a pool still to be written.
 */
function missingFile(analysis: DocumentAnalysis, diagnostic: Diagnostic, folderFiles: FolderFiles): CodeAction[] {
  const data = fileData.safeParse(diagnostic.data);
  const link = textAt(analysis, diagnostic);
  if (!data.success || !link.startsWith('"')) return [];
  const args: PickLinkedFileArguments = { uri: analysis.uri, range: diagnostic.range };
  // The typed folder part is kept as written; a link with escapes is not rewritten.
  const value = link.slice(1, -1);
  const folderPart = value.slice(0, value.lastIndexOf('/') + 1);
  const near = value.includes('\\') ? [] : closeNames(path.basename(data.data.path), folderFiles(path.dirname(data.data.path)), maxFileSuggestions);
  return [
    ...near.map((name, i): CodeAction => ({
      title: `Did you mean "${folderPart}${name}"?`, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred: i === 0,
      edit: { changes: { [analysis.uri]: [{ range: diagnostic.range, newText: `"${folderPart}${name}"` }] } },
    })),
    {
      title: 'Pick a file for this link…', kind: CodeActionKind.QuickFix, diagnostics: [diagnostic],
      command: { title: 'Pick a file', command: pickLinkedFileCommand, arguments: [args] },
    },
    {
      title: `Create ${link} (an empty file)`, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic],
      edit: { documentChanges: [{ kind: 'create', uri: pathToFileURL(data.data.path).href, options: { ignoreIfExists: true } }] },
    },
  ];
}

/** `expect asr(R_L, …)` naming a reward its audit does not score: compare it there. */
function compareReward(analysis: DocumentAnalysis, diagnostic: Diagnostic): CodeAction | undefined {
  const reward = textAt(analysis, diagnostic);
  const at = analysis.lines.offset(diagnostic.range.start);
  const audit = analysis.analyzed.model.spec.decls.find((d): d is AuditDecl => d.kind === 'audit' && d.span.start <= at && at <= d.span.end);
  if (audit === undefined || analysis.analyzed.model.globals.get(reward)?.kind !== 'reward') return undefined;
  const edit = addToCompare(analysis, audit, reward);
  return edit === undefined ? undefined : {
    title: `Compare ${reward} in audit ${audit.name?.text ?? ''}`, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred: true,
    edit: { changes: { [analysis.uri]: [edit] } },
  };
}

/** Quick fixes for the checker's diagnostics and failed expectations. */
export function quickFixes(analysis: DocumentAnalysis, diagnostic: Diagnostic, folderFiles: FolderFiles): CodeAction[] {
  if (didYouMeanCodes.has(diagnostic.code)) return [didYouMean(analysis, diagnostic)].filter((a) => a !== undefined);
  switch (diagnostic.code) {
    case auditIssueCodes.expectFailed: return [updateExpect(analysis, diagnostic)].filter((a) => a !== undefined);
    case issueCodes.missingFile: return missingFile(analysis, diagnostic, folderFiles);
    case issueCodes.rewardNotAudited: return [compareReward(analysis, diagnostic)].filter((a) => a !== undefined);
    default: return [];
  }
}
