import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { commands, Uri, window, workspace, type Disposable, type QuickPickItem } from 'vscode';
import { newSpecText } from './new-spec-template';

// "HERALD: New Spec": pick the pool files (or select them in the Explorer and use its context menu),
// then a corpus (or none yet), then a name; the spec is written beside the first pool and opened.
// An existing file is never overwritten.

export const newSpecCommand = 'herald.newSpec';

/** The command's answers given up front, for the API tests: no dialog opens. */
export interface NewSpecArguments {
  /** Absolute paths of the pool files. */
  readonly pools: readonly string[];
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
  const stem = path.basename(firstPool).replace(/\.jsonl$/i, '');
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
async function pickCorpus(folder: string, pools: readonly string[]): Promise<string | null | undefined> {
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
  const choice = await window.showQuickPick(items, { title: 'HERALD: New Spec (2/3): the passage corpus ({"id","title","text"} per line)', ignoreFocusOut: true });
  if (choice === undefined) return undefined;
  if (choice.file !== undefined) return choice.file;
  if (choice.browse !== true) return null;
  const picked = await window.showOpenDialog({ title: 'HERALD: New Spec: the passage corpus', openLabel: 'Use as corpus', filters: jsonl, defaultUri: Uri.file(folder) });
  return picked?.[0]?.fsPath;
}

async function askName(folder: string, firstPool: string): Promise<string | undefined> {
  return window.showInputBox({
    title: 'HERALD: New Spec (3/3): the spec\'s name', prompt: `Written as NAME.reward in ${folder}`, ignoreFocusOut: true,
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

/** Runs the command: the new spec's URI once written and opened, or undefined when cancelled or refused. */
async function newSpec(given: NewSpecArguments | undefined, selected: readonly string[] | undefined): Promise<Uri | undefined> {
  const pools = given?.pools ?? selected ?? (await pickPools());
  const first = pools?.[0];
  if (pools === undefined || first === undefined) return undefined;
  const folder = path.dirname(first);
  const corpus = given === undefined ? await pickCorpus(folder, pools) : given.corpus;
  if (corpus === undefined) return undefined;
  const name = given?.name ?? (await askName(folder, first));
  if (name === undefined) return undefined;
  const problem = await nameProblem(folder, name);
  if (problem !== undefined) {
    void window.showErrorMessage(problem);
    return undefined;
  }
  const file = path.join(folder, `${name}.reward`);
  const text = newSpecText({ pools: pools.map((p) => link(folder, p)), corpus: corpus === null ? undefined : link(folder, corpus) });
  if (!(await writeNewFile(file, text))) return undefined;
  const uri = Uri.file(file);
  await window.showTextDocument(await workspace.openTextDocument(uri));
  return uri;
}

function isArguments(value: unknown): value is NewSpecArguments {
  return typeof value === 'object' && value !== null && 'pools' in value && Array.isArray(value.pools) && 'corpus' in value && 'name' in value;
}

/** The .jsonl files chosen in the Explorer (its context menu passes the clicked file and the selection). */
function selectedPools(clicked: unknown, selection: unknown): string[] | undefined {
  const uris = (Array.isArray(selection) ? selection : [clicked]).filter((u): u is Uri => u instanceof Uri && u.fsPath.toLowerCase().endsWith('.jsonl'));
  return uris.length === 0 ? undefined : uris.map((u) => u.fsPath);
}

export function registerNewSpec(): Disposable {
  return commands.registerCommand(newSpecCommand, (first?: unknown, second?: unknown) =>
    newSpec(isArguments(first) ? first : undefined, selectedPools(first, second)));
}
