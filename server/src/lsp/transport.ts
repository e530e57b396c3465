import { Console } from 'node:console';
import {
  createConnection, Message, ProposedFeatures, ShutdownRequest, StreamMessageReader, StreamMessageWriter, type Connection, type MessageReader,
} from 'vscode-languageserver/node';
import { escapeControls } from '../report/escape-text.js';

// The server's end of the connection, as the client started it (`--stdio`, `--node-ipc`, …).
// Over stdio the messages are framed by `Content-Length` headers, and one wrong frame (a header that
// is not one, a length shorter than the body) leaves the reader out of step with every message
// after it: nothing the client sends is understood again, and a server that stays up answers
// nothing. So a broken frame ends the server with a message on stderr and a nonzero exit code, which
// clients show and answer by restarting it.

/** The exit code after the client's stream broke (and after it closed before `shutdown`, as vscode-languageserver exits). */
export const brokenStreamExitCode = 1;

/** Characters of the reader's error quoted on stderr (it may quote the client's bytes). */
const maxQuoted = 300;

/** What the server says on stderr when the client's stream cannot be read on. */
export function brokenStreamMessage(error: Error): string {
  const reason = escapeControls(error.message.replace(/\s+/g, ' ').trim());
  const quoted = reason.length > maxQuoted ? `${reason.slice(0, maxQuoted)}…` : reason;
  return `herald-language-server: stopped: a message from the client could not be read (${quoted}). Each message must be a header `
    + '"Content-Length: N" (N: the bytes of the body in UTF-8), an empty line, then N bytes of JSON; after a broken message the stream '
    + `cannot be read on, so the server exits with code ${brokenStreamExitCode}.\n`;
}

/** The reader, noting when the client asks the server to shut down (closing the stream after that is a clean exit). */
function noticingShutdown(reader: MessageReader, shutDown: () => void): MessageReader {
  return {
    onError: reader.onError,
    onClose: reader.onClose,
    onPartialMessage: reader.onPartialMessage,
    listen: (callback) => reader.listen((message) => {
      if (Message.isRequest(message) && message.method === ShutdownRequest.method) shutDown();
      callback(message);
    }),
    dispose: () => reader.dispose(),
  };
}

/**
 * The connection the command line asks for. Over stdio the server reads the stream itself, so a
 * framing error (which vscode-jsonrpc only reports as an event) stops it; stdout carries the
 * protocol alone, so the console writes to stderr. Other transports are vscode-languageserver's.
 */
export function serverConnection(argv: readonly string[] = process.argv): Connection {
  if (!argv.slice(2).includes('--stdio')) return createConnection(ProposedFeatures.all);
  globalThis.console = new Console(process.stderr, process.stderr);
  let shutDown = false;
  const reader = noticingShutdown(new StreamMessageReader(process.stdin), () => {
    shutDown = true;
  });
  reader.onError((error) => {
    process.stderr.write(brokenStreamMessage(error));
    process.exit(brokenStreamExitCode);
  });
  // The stream ended: the client is gone (vscode-languageserver exits the same way over streams it opens itself).
  reader.onClose(() => process.exit(shutDown ? 0 : brokenStreamExitCode));
  return createConnection(ProposedFeatures.all, reader, new StreamMessageWriter(process.stdout));
}
