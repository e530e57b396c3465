// Waits and look-ups shared by the VS Code API tests. They talk only to the `vscode` API, so they run
// the same under @vscode/test-electron and in code-server's extension host.
import * as vscode from 'vscode';

export const extensionId = 'herald-tools.herald-reward';

/** The diagnostic's code as a string, whether the server sent it plain or with a documentation link. */
export function codeOf(d: vscode.Diagnostic): string {
  const code = d.code;
  if (code === undefined) return '';
  return typeof code === 'object' ? String(code.value) : String(code);
}

export function describeDiagnostics(uri: vscode.Uri): string {
  return vscode.languages.getDiagnostics(uri)
    .map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${codeOf(d)}: ${d.message.split('\n')[0] ?? ''}`)
    .join('\n  ');
}

/**
 * Resolves with the document's diagnostics once `accept` holds for them. Diagnostics change several
 * times per save (checker first, audit findings later), so this listens instead of sleeping.
 */
export function waitForDiagnostics(
  uri: vscode.Uri, what: string, accept: (ds: readonly vscode.Diagnostic[]) => boolean, timeoutMs = 150_000,
): Promise<readonly vscode.Diagnostic[]> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const ds = vscode.languages.getDiagnostics(uri);
      if (!accept(ds)) return false;
      clearTimeout(timer);
      listener.dispose();
      resolve(ds);
      return true;
    };
    const listener = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === uri.toString())) check();
    });
    const timer = setTimeout(() => {
      listener.dispose();
      reject(new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}; diagnostics now:\n  ${describeDiagnostics(uri)}`));
    }, timeoutMs);
    check();
  });
}

export const withCode = (ds: readonly vscode.Diagnostic[], code: string): vscode.Diagnostic[] => ds.filter((d) => codeOf(d) === code);

/** The position of the first occurrence of `needle` on a line that starts with `linePrefix`. */
export function positionOf(doc: vscode.TextDocument, linePrefix: string, needle: string): vscode.Position {
  for (let line = 0; line < doc.lineCount; line += 1) {
    const text = doc.lineAt(line).text;
    if (!text.trimStart().startsWith(linePrefix)) continue;
    const at = text.indexOf(needle);
    if (at >= 0) return new vscode.Position(line, at);
  }
  throw new Error(`no line starting with '${linePrefix}' contains '${needle}'`);
}

export function hoverText(hovers: readonly vscode.Hover[]): string {
  return hovers.flatMap((h) => h.contents).map((c) => (typeof c === 'string' ? c : c.value)).join('\n');
}

/** Replaces the first occurrence of `from` and saves, as a person editing the spec would. */
export async function replaceAndSave(doc: vscode.TextDocument, from: string, to: string): Promise<void> {
  const at = doc.getText().indexOf(from);
  if (at < 0) throw new Error(`'${from}' is not in ${doc.uri.fsPath}`);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(doc.positionAt(at), doc.positionAt(at + from.length)), to);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`the edit '${from}' → '${to}' was not applied`);
  if (!(await doc.save())) throw new Error(`${doc.uri.fsPath} was not saved`);
}

export async function quickFixes(uri: vscode.Uri, range: vscode.Range): Promise<vscode.CodeAction[]> {
  return (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
    'vscode.executeCodeActionProvider', uri, range, vscode.CodeActionKind.QuickFix.value,
  )).filter((a): a is vscode.CodeAction => 'title' in a && !('command' in a && typeof a.command === 'string'));
}
