import { TransportKind, type ServerOptions } from 'vscode-languageclient/node';

// The port a debugger attaches to when the extension runs from a development host (F5).
const debugInspectPort = 6009;

/** Runs the bundled server as a Node child process that talks LSP over Node IPC. */
export function createServerOptions(serverModule: string): ServerOptions {
  return {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: {
      module: serverModule,
      transport: TransportKind.ipc,
      options: { execArgv: ['--nolazy', `--inspect=${debugInspectPort}`] },
    },
  };
}
