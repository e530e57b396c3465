import { commands, window, type ExtensionContext } from 'vscode';
import { LanguageClient } from 'vscode-languageclient/node';
import { createClientOptions } from './client-options';
import { createServerOptions } from './server-options';
import { ServerSession } from './server-session';

// deactivate() receives no context, so the session it must stop lives here.
let session: ServerSession | undefined;

export async function activate(context: ExtensionContext): Promise<void> {
  const outputChannel = window.createOutputChannel('HERALD', { log: true });
  context.subscriptions.push(outputChannel);

  const serverOptions = createServerOptions(context.asAbsolutePath('dist/server.js'));
  const clientOptions = createClientOptions(outputChannel);
  // The id `herald` makes the client follow the `herald.trace.server` setting.
  const serverSession = new ServerSession(() => new LanguageClient('herald', 'HERALD', serverOptions, clientOptions));
  session = serverSession;

  // Commands are registered before the server starts so that a failed start can be retried.
  context.subscriptions.push(
    commands.registerCommand('herald.restartServer', () => serverSession.restart()),
    commands.registerCommand('herald.showOutput', () => outputChannel.show()),
  );
  await serverSession.start();
}

export async function deactivate(): Promise<void> {
  await session?.stop();
  session = undefined;
}
