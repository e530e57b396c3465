import { commands, Uri, window, workspace, type ExtensionContext } from 'vscode';
import { LanguageClient } from 'vscode-languageclient/node';
import { createClientOptions } from './client-options';
import { AuditStatusBar } from './audit-status-bar';
import { ReportPanels } from './report-panel';
import { runAuditRequest, showReportCommand } from '../../server/src/contract/index';
import { createServerOptions } from './server-options';
import { registerGettingStarted } from './getting-started';
import { registerHeraldOnPath } from './herald-on-path';
import { ServerSession } from './server-session';
import { registerTrajectoryDiff } from './trajectory-diff';
import { registerLinkedFilePicker } from './linked-file-picker';

// deactivate() receives no context, so the session it must stop lives here.
let session: ServerSession | undefined;

export async function activate(context: ExtensionContext): Promise<void> {
  const outputChannel = window.createOutputChannel('HERALD', { log: true });
  context.subscriptions.push(outputChannel);

  const serverOptions = createServerOptions(context.asAbsolutePath('dist/server.js'));
  // The id `herald` makes the client follow the `herald.trace.server` setting. Options are made per
  // start: a restart after the user trusts the workspace must tell the server so.
  const serverSession = new ServerSession(() => new LanguageClient('herald', 'HERALD', serverOptions, createClientOptions(outputChannel, workspace.isTrusted)));
  session = serverSession;

  const reports = new ReportPanels(context.extensionUri, serverSession);
  const statusBar = new AuditStatusBar();
  context.subscriptions.push(
    statusBar,
    serverSession.onAuditStatus((status) => statusBar.update(status)),
    serverSession.onTrainingStatus((status) => statusBar.updateTraining(status)),
  );
  const specUri = (resource: unknown): Uri | undefined => {
    if (resource instanceof Uri) return resource;
    // Code lenses from the server pass the spec's URI as a string.
    if (typeof resource === 'string') return Uri.parse(resource);
    const editor = window.activeTextEditor;
    return editor?.document.languageId === 'reward' ? editor.document.uri : undefined;
  };

  // Commands are registered before the server starts so that a failed start can be retried.
  context.subscriptions.push(
    reports,
    commands.registerCommand('herald.restartServer', () => serverSession.restart()),
    workspace.onDidGrantWorkspaceTrust(() => serverSession.restart()),
    commands.registerCommand('herald.showOutput', () => outputChannel.show()),
    // From the editor title the spec's URI comes as the argument; from the palette, the active editor.
    commands.registerCommand('herald.runAudit', async (resource?: unknown) => {
      const uri = specUri(resource);
      const client = serverSession.running;
      if (uri === undefined || client === undefined) return;
      await client.sendRequest(runAuditRequest, { uri: uri.toString() });
    }),
    commands.registerCommand(showReportCommand, async (resource?: unknown) => {
      const uri = specUri(resource);
      if (uri === undefined) {
        await window.showInformationMessage('Open a .reward spec to see its audit report.');
        return;
      }
      await reports.show(uri);
    }),
  );
  context.subscriptions.push(registerHeraldOnPath(context));
  registerTrajectoryDiff(context, serverSession);
  registerLinkedFilePicker(context);
  await serverSession.start();
  registerGettingStarted(context, serverSession, outputChannel);
}

export async function deactivate(): Promise<void> {
  await session?.stop();
  session = undefined;
}
