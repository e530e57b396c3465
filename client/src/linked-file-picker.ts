import * as path from 'node:path';
import { commands, Range, Uri, window, workspace, WorkspaceEdit, type ExtensionContext } from 'vscode';
import { pickLinkedFileCommand, type PickLinkedFileArguments } from '../../server/src/contract/index';

// The "Pick a file…" quick fix of a missing linked file: an open dialog beside the spec, whose
// choice replaces the link, written as links are (relative to the spec's folder, with `/`). In an
// untrusted workspace only a file inside its folders may be linked, as only those are read.

function isArguments(value: unknown): value is PickLinkedFileArguments {
  if (typeof value !== 'object' || value === null || !('uri' in value) || !('range' in value)) return false;
  return typeof value.uri === 'string' && typeof value.range === 'object' && value.range !== null;
}

function insideWorkspace(file: Uri): boolean {
  return (workspace.workspaceFolders ?? []).some((f) => {
    const relative = path.relative(f.uri.fsPath, file.fsPath);
    return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  });
}

/** The link text for `file` in a spec in `specDir`: a JSON-style string literal. */
export function linkText(specDir: string, file: string): string {
  const relative = path.relative(specDir, file).split(path.sep).join('/');
  return `"${relative.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

async function pickLinkedFile(args: unknown): Promise<void> {
  if (!isArguments(args)) return;
  const spec = Uri.parse(args.uri);
  const specDir = path.dirname(spec.fsPath);
  const picked = await window.showOpenDialog({
    defaultUri: Uri.file(specDir), canSelectMany: false, openLabel: 'Link this file',
    filters: { 'JSONL files': ['jsonl'], 'All files': ['*'] },
  });
  const file = picked?.[0];
  if (file === undefined) return;
  if (!workspace.isTrusted && !insideWorkspace(file)) {
    await window.showWarningMessage(`${file.fsPath} is outside this untrusted workspace: HERALD would not read it. Trust the workspace, or pick a file inside it.`);
    return;
  }
  const { start, end } = args.range;
  const edit = new WorkspaceEdit();
  edit.replace(spec, new Range(start.line, start.character, end.line, end.character), linkText(specDir, file.fsPath));
  await workspace.applyEdit(edit);
}

export function registerLinkedFilePicker(context: ExtensionContext): void {
  context.subscriptions.push(commands.registerCommand(pickLinkedFileCommand, pickLinkedFile));
}
