import * as path from 'node:path';
import { CompletionItemKind, type CompletionItem } from 'vscode-languageserver/node';
import { linkableEntries } from '../inputs/folder-entries.js';
import type { WorkspaceTrust } from '../inputs/trust.js';
import type { Want } from '../ide/completion-context.js';
import { specFileOf, type DocumentAnalysis } from './document-analysis.js';

// Completing a link as it is typed: the folders and JSONL files beside the spec (links resolve
// against its folder), one path segment at a time.

type PathWant = Extract<Want, { kind: 'path' }>;

/** Folders and `.jsonl` files in the folder the typed link names so far; none for an unsaved spec. */
export function pathItems(analysis: DocumentAnalysis, want: PathWant, trust: WorkspaceTrust): CompletionItem[] {
  const specFile = specFileOf(analysis.uri);
  if (specFile === undefined) return [];
  const slash = want.typed.lastIndexOf('/');
  const folderPart = want.typed.slice(0, slash + 1);
  const dir = path.resolve(path.dirname(specFile), folderPart === '' ? '.' : folderPart);
  // The segment being typed is replaced, up to the end of the string (or of the segment, when a `/` follows).
  const segmentStart = want.start + slash + 1;
  const rest = analysis.text.slice(segmentStart, want.end);
  const nextSlash = rest.indexOf('/');
  const range = analysis.lines.range({ start: segmentStart, end: nextSlash < 0 ? want.end : segmentStart + nextSlash });
  return linkableEntries(dir, trust).map((entry): CompletionItem => {
    const label = entry.folder ? `${entry.name}/` : entry.name;
    return {
      label, kind: entry.folder ? CompletionItemKind.Folder : CompletionItemKind.File,
      detail: path.join(dir, entry.name), sortText: `${entry.folder ? '1' : '0'}${entry.name}`,
      textEdit: { range, newText: label },
      // Choosing a folder goes on to its contents.
      ...(entry.folder ? { command: { title: 'Complete the path', command: 'editor.action.triggerSuggest' } } : {}),
    };
  });
}
