import { chmod, mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { commands, Disposable, Uri, window, workspace, type ExtensionContext } from 'vscode';
import { heraldLaunchers } from './herald-launcher';

// `herald` on the integrated terminal's PATH: the launcher (./herald-launcher.ts) is written to the
// extension's global storage, `bin/`, at each start (so it follows the installed version), and that
// folder is prepended to PATH in every new terminal (`environmentVariableCollection`), while the
// setting `herald.terminalPath` is on. The command does it on demand and says where the launcher is.

export const addHeraldToPathCommand = 'herald.addToTerminalPath';
const setting = 'terminalPath';

/** Writes the launcher and prepends its folder to the terminals' PATH; the folder. */
async function putOnPath(context: ExtensionContext): Promise<string> {
  const bin = Uri.joinPath(context.globalStorageUri, 'bin').fsPath;
  await mkdir(bin, { recursive: true });
  for (const launcher of heraldLaunchers(process.execPath, context.asAbsolutePath(path.join('dist', 'herald.js')), process.platform)) {
    const file = path.join(bin, launcher.name);
    await writeFile(file, launcher.text);
    if (launcher.executable) await chmod(file, 0o755);
  }
  const terminals = context.environmentVariableCollection;
  terminals.description = 'Puts the herald command line bundled with HERALD on PATH (setting herald.terminalPath).';
  terminals.prepend('PATH', `${bin}${path.delimiter}`);
  return bin;
}

async function followSetting(context: ExtensionContext): Promise<void> {
  if (workspace.getConfiguration('herald').get<boolean>(setting, true)) await putOnPath(context);
  else context.environmentVariableCollection.clear();
}

export function registerHeraldOnPath(context: ExtensionContext): Disposable {
  // Not awaited: activation does not wait on a file write; a failure is shown, not thrown.
  const report = (error: unknown): void => void window.showErrorMessage(`HERALD: could not put herald on the terminal's PATH: ${String(error)}`);
  followSetting(context).catch(report);
  return Disposable.from(
    workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`herald.${setting}`)) followSetting(context).catch(report);
    }),
    commands.registerCommand(addHeraldToPathCommand, async () => {
      const bin = await putOnPath(context);
      const open = 'Open a Terminal';
      // Not awaited: the command is done once the launcher is written; the message stays until dismissed.
      void window.showInformationMessage(
        `herald is on PATH in new integrated terminals: ${path.join(bin, process.platform === 'win32' ? 'herald.cmd' : 'herald')}. Terminals opened before need a relaunch.`, open)
        .then((choice) => {
          if (choice === open) window.createTerminal('herald').show();
        });
      return bin;
    }),
  );
}
