import { Uri, workspace } from 'vscode';
import { specOutlineRequest, type SpecOutline } from '../../server/src/contract/index';
import type { ServerSession } from './server-session';

// A spec's blocks and expect lines, asked of the server for the text as the editor holds it (unsaved
// edits included) or, for a spec that is not open, as saved: listing specs never opens them, since
// opening a spec audits it.

/** The spec's text: the open document's, else the file's; undefined when it cannot be read. */
export async function specText(uri: Uri): Promise<string | undefined> {
  const open = workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open !== undefined) return open.getText();
  try {
    return new TextDecoder().decode(await workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/** The outline, 'unreadable' when the spec cannot be read, undefined while the server is not running. */
export async function specOutline(session: ServerSession, uri: Uri): Promise<SpecOutline | 'unreadable' | undefined> {
  const client = session.running;
  if (client === undefined) return undefined;
  const text = await specText(uri);
  return text === undefined ? 'unreadable' : client.sendRequest(specOutlineRequest, { text });
}
