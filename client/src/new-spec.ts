import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { commands, Disposable, ProgressLocation, Uri, window, workspace, type QuickPickItem } from 'vscode';
import { importFormatsRequest, type PoolProfile, poolProfileRequest } from '../../server/src/contract/index';
import { logLinks, newSpecText, type PoolSource } from './new-spec-template';
import type { ServerSession } from './server-session';

// "HERALD: New Spec": pick the pool files (or select them in the Explorer and use its context menu),
// then a corpus (or none yet), then a name; the spec is written beside the first pool and opened.
// "HERALD: New Spec from Framework Logs…" picks a framework's log files and their format (the one
// the first records import as first), and links them `from FORMAT()`, so import needs no command
// line. Either way the starter is fitted to what the rows hold (the server profiles them). An
// existing file is never overwritten.

export const newSpecCommand = 'herald.newSpec';
export const newSpecFromLogsCommand = 'herald.newSpecFromLogs';

/** The command's answers given up front, for the API tests: no dialog opens. */
export interface NewSpecArguments {
  /** Absolute paths of the pool files (the log files, with `from`). */
  readonly pools: readonly string[];
  /** The importer that reads them; undefined: pool files in format v2. */
  readonly from?: PoolSource;
  /** Absolute path of the corpus; null writes a placeholder link. */
  readonly corpus: string | null;
  /** The spec's name without `.reward`. */
  readonly name: string;
}

const jsonl = { 'Trajectory files (JSON Lines)': ['jsonl'] };

/** The link from the spec's folder to a file, with `/` separators as specs write them. */
function link(folder: string, file: string): string {
  return path.relative(folder, file).split(path.sep).join('/');
}

/** Why a name cannot be used for a new spec in the folder, or undefined when it can. */
async function nameProblem(folder: string, name: string): Promise<string | undefined> {
  if (name.trim() === '') return 'Give the spec a name.';
  if (/[\\/:*?"<>|]/.test(name)) return 'A name without path separators or the characters : * ? " < > |.';
  try {
    await workspace.fs.stat(Uri.file(path.join(folder, `${name}.reward`)));
    return `${name}.reward already exists here; HERALD never overwrites a spec.`;
  } catch {
    return undefined;
  }
}

async function suggestedName(folder: string, firstPool: string): Promise<string> {
  const stem = path.basename(firstPool).replace(/\.[A-Za-z0-9]+$/i, '');
  for (let n = 1; ; n += 1) {
    const name = n === 1 ? stem : `${stem}-${n}`;
    if ((await nameProblem(folder, name)) === undefined) return name;
  }
}

async function pickPools(): Promise<string[] | undefined> {
  const picked = await window.showOpenDialog({
    title: 'HERALD: New Spec (1/3): the pool files to audit', openLabel: 'Use as pools', canSelectMany: true, filters: jsonl,
    ...(workspace.workspaceFolders?.[0] === undefined ? {} : { defaultUri: workspace.workspaceFolders[0].uri }),
  });
  return picked?.map((uri) => uri.fsPath);
}

interface CorpusChoice extends QuickPickItem {
  readonly file?: string;
  readonly browse?: true;
}

/** The corpus: another .jsonl beside the pools, one picked elsewhere, or none yet (null); undefined when cancelled. */
async function pickCorpus(folder: string, pools: readonly string[], step = 'New Spec (2/3)'): Promise<string | null | undefined> {
  const siblings = (await workspace.fs.readDirectory(Uri.file(folder)))
    .map(([name]) => path.join(folder, name))
    .filter((file) => file.toLowerCase().endsWith('.jsonl') && !pools.includes(file))
    // A file named like a corpus first.
    .sort((a, b) => Number(!/corpus/i.test(path.basename(a))) - Number(!/corpus/i.test(path.basename(b))) || a.localeCompare(b));
  const items: CorpusChoice[] = [
    ...siblings.map((file) => ({ label: path.basename(file), description: 'beside the pools', file })),
    { label: '$(folder-opened) Choose a corpus file…', browse: true },
    { label: 'No corpus yet', description: 'writes a placeholder link to fill in: detectors L and F and the laundering attack need one' },
  ];
  const choice = await window.showQuickPick(items, { title: `HERALD: ${step}: the passage corpus ({"id","title","text"} per line)`, ignoreFocusOut: true });
  if (choice === undefined) return undefined;
  if (choice.file !== undefined) return choice.file;
  if (choice.browse !== true) return null;
  const picked = await window.showOpenDialog({ title: 'HERALD: New Spec: the passage corpus', openLabel: 'Use as corpus', filters: jsonl, defaultUri: Uri.file(folder) });
  return picked?.[0]?.fsPath;
}

async function askName(folder: string, firstPool: string, title = 'HERALD: New Spec (3/3): the spec\'s name'): Promise<string | undefined> {
  return window.showInputBox({
    title, prompt: `Written as NAME.reward in ${folder}`, ignoreFocusOut: true,
    value: await suggestedName(folder, firstPool), validateInput: (value) => nameProblem(folder, value),
  });
}

/** Writes the spec only if no file has its name (`wx`), so a file created meanwhile is not overwritten either. */
async function writeNewFile(file: string, text: string): Promise<boolean> {
  try {
    await writeFile(file, text, { flag: 'wx' });
    return true;
  } catch (error) {
    const exists = error instanceof Error && 'code' in error && error.code === 'EEXIST';
    // Not awaited: the message stays until dismissed, and the command answers now.
    void window.showErrorMessage(exists ? `${file} already exists; HERALD never overwrites a spec.` : `Could not write ${file}: ${String(error)}`);
    return false;
  }
}

/** What the rows hold, from the server (read as the audit would read them), or why it cannot say. */
async function profileOf(session: ServerSession, files: readonly string[], from: PoolSource | undefined): Promise<PoolProfile | string> {
  const client = session.running;
  if (client === undefined) return 'the language server is not running';
  return window.withProgress({ location: ProgressLocation.Notification, title: 'HERALD: reading the pools to fit the starter…' }, async () => {
    try {
      const result = await client.sendRequest(poolProfileRequest, { files, ...(from === undefined ? {} : { from: { format: from.format, options: from.options ?? {} } }) });
      return result.kind === 'profile' ? result.profile : result.reason;
    } catch (error) {
      // The server stopped meanwhile: the spec is still written, with the paper's attacks and this reason.
      return `the language server did not answer: ${error instanceof Error ? error.message : String(error)}`;
    }
  });
}

/** Writes the spec from the answers and opens it: its URI, or undefined when cancelled or refused. */
async function writeSpec(session: ServerSession, folder: string, answers: NewSpecArguments, links: readonly string[]): Promise<Uri | undefined> {
  const problem = await nameProblem(folder, answers.name);
  if (problem !== undefined) {
    void window.showErrorMessage(problem);
    return undefined;
  }
  const file = path.join(folder, `${answers.name}.reward`);
  const profile = await profileOf(session, answers.pools, answers.from);
  const text = newSpecText({
    pools: links, corpus: answers.corpus === null ? undefined : link(folder, answers.corpus), profile, ...(answers.from === undefined ? {} : { from: answers.from }),
  });
  if (!(await writeNewFile(file, text))) return undefined;
  const uri = Uri.file(file);
  await window.showTextDocument(await workspace.openTextDocument(uri));
  return uri;
}

/** How the spec links the files: log files as one glob when they are all of their folder's with their extension. */
async function linksOf(folder: string, answers: NewSpecArguments): Promise<string[]> {
  const links = answers.pools.map((p) => link(folder, p));
  if (answers.from === undefined || links.length < 2) return links;
  const folders = [...new Set(answers.pools.map((p) => path.dirname(p)))];
  const siblings = (await Promise.all(folders.map(async (f) => (await workspace.fs.readDirectory(Uri.file(f))).map(([name]) => link(folder, path.join(f, name)))))).flat();
  return logLinks(links, siblings);
}

/** Runs the command: the new spec's URI once written and opened, or undefined when cancelled or refused. */
async function newSpec(session: ServerSession, given: NewSpecArguments | undefined, selected: readonly string[] | undefined): Promise<Uri | undefined> {
  const pools = given?.pools ?? selected ?? (await pickPools());
  const first = pools?.[0];
  if (pools === undefined || first === undefined) return undefined;
  const folder = path.dirname(first);
  const corpus = given === undefined ? await pickCorpus(folder, pools) : given.corpus;
  if (corpus === undefined) return undefined;
  const name = given?.name ?? (await askName(folder, first));
  if (name === undefined) return undefined;
  const answers: NewSpecArguments = { pools, corpus, name, ...(given?.from === undefined ? {} : { from: given.from }) };
  return writeSpec(session, folder, answers, await linksOf(folder, answers));
}

const logFilters = { 'Framework logs (JSON Lines, JSON, Parquet)': ['jsonl', 'json', 'parquet'], 'All files': ['*'] };

interface FormatChoice extends QuickPickItem {
  readonly format: string;
}

/** The log format: every importer, the one the first records import as first (the active item); undefined when cancelled. */
async function pickFormat(session: ServerSession, logs: readonly string[]): Promise<string | undefined> {
  const client = session.running;
  if (client === undefined) {
    void window.showErrorMessage('HERALD: the language server is not running, so the log formats cannot be listed: HERALD: Restart Language Server, then try again.');
    return undefined;
  }
  const answer = await window.withProgress({ location: ProgressLocation.Notification, title: 'HERALD: reading the first records…' }, () =>
    client.sendRequest(importFormatsRequest, { files: logs }));
  if (answer.formats.length === 0) {
    void window.showErrorMessage('HERALD: the language server could not list the log formats: see HERALD: Show Output.');
    return undefined;
  }
  const items: FormatChoice[] = answer.formats.map((f) => ({
    label: f.format, format: f.format, detail: f.summary,
    // The guess is listed first, so it is the active item: Enter takes it.
    ...(f.format === answer.guessed ? { description: '$(check) the first records import as this' } : {}),
  }));
  const unsure = answer.unreadable !== undefined ? `could not read the first log (${answer.unreadable})` : answer.guessed === null ? 'no format imports the first records' : undefined;
  const choice = await window.showQuickPick(items, {
    title: `HERALD: New Spec from Framework Logs (2/4): the log format${unsure === undefined ? '' : `: ${unsure}`}`, ignoreFocusOut: true, matchOnDetail: true,
  });
  return choice?.format;
}

async function newSpecFromLogs(session: ServerSession, given: NewSpecArguments | undefined, selected: readonly string[] | undefined): Promise<Uri | undefined> {
  if (given !== undefined) return newSpec(session, given, undefined);
  const logs = selected ?? (await window.showOpenDialog({
    title: 'HERALD: New Spec from Framework Logs (1/4): the log files (a run\'s dumps, episodes or completions)', openLabel: 'Use these logs', canSelectMany: true, filters: logFilters,
    ...(workspace.workspaceFolders?.[0] === undefined ? {} : { defaultUri: workspace.workspaceFolders[0].uri }),
  }))?.map((uri) => uri.fsPath);
  const first = logs?.[0];
  if (logs === undefined || first === undefined) return undefined;
  const format = await pickFormat(session, logs);
  if (format === undefined) return undefined;
  const folder = path.dirname(first);
  const corpus = await pickCorpus(folder, logs, 'New Spec from Framework Logs (3/4)');
  if (corpus === undefined) return undefined;
  const name = await askName(folder, first, 'HERALD: New Spec from Framework Logs (4/4): the spec\'s name');
  if (name === undefined) return undefined;
  const answers: NewSpecArguments = { pools: logs, from: { format }, corpus, name };
  return writeSpec(session, folder, answers, await linksOf(folder, answers));
}

function isArguments(value: unknown): value is NewSpecArguments {
  return typeof value === 'object' && value !== null && 'pools' in value && Array.isArray(value.pools) && 'corpus' in value && 'name' in value;
}

/** The files chosen in the Explorer with one of the extensions (its context menu passes the clicked file and the selection). */
function selectedFiles(clicked: unknown, selection: unknown, extensions: readonly string[]): string[] | undefined {
  const uris = (Array.isArray(selection) ? selection : [clicked])
    .filter((u): u is Uri => u instanceof Uri && extensions.some((e) => u.fsPath.toLowerCase().endsWith(e)));
  return uris.length === 0 ? undefined : uris.map((u) => u.fsPath);
}

export function registerNewSpec(session: ServerSession): Disposable {
  return Disposable.from(
    commands.registerCommand(newSpecCommand, (first?: unknown, second?: unknown) =>
      newSpec(session, isArguments(first) ? first : undefined, selectedFiles(first, second, ['.jsonl']))),
    commands.registerCommand(newSpecFromLogsCommand, (first?: unknown, second?: unknown) =>
      newSpecFromLogs(session, isArguments(first) ? first : undefined, selectedFiles(first, second, ['.jsonl', '.json', '.parquet']))),
  );
}
