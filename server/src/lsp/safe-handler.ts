import { ErrorCodes, ResponseError, type TextDocuments } from 'vscode-languageserver/node';
import { z } from 'zod';

// What keeps one bad message from taking the server down or making it misbehave: the LSP lifecycle
// rule for requests before `initialize`, a crash guard on every handler, and a check of the one
// notification that admits a document.

export interface ErrorLog {
  error(message: string): void;
}

/**
 * Whether the client's `initialize` has arrived. Until it has, LSP answers every request with
 * ServerNotInitialized (−32002): nothing is known about the client yet, not even its capabilities.
 */
export class Lifecycle {
  #initialized = false;

  initialize(): void {
    this.#initialized = true;
  }

  /** The error that answers `method` before `initialize`; undefined after it. */
  refusal(method: string): ResponseError<never> | undefined {
    return this.#initialized ? undefined : new ResponseError<never>(ErrorCodes.ServerNotInitialized, `${method}: the server has not been initialized`);
  }
}

/** What every guarded request needs: where to log a failure, and the lifecycle it must respect. */
export interface RequestContext {
  readonly log: ErrorLog;
  readonly lifecycle: Lifecycle;
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * Wraps a request handler so that a bug triggered by one document answers that one request with
 * `fallback` (and a line in the log) instead of taking the whole server down. A `ResponseError`
 * is an intended answer (e.g. "this name cannot be renamed") and passes through. Before
 * `initialize` the handler does not run: the answer is ServerNotInitialized.
 */
export function guardRequest<P extends unknown[], R>(
  { log, lifecycle }: RequestContext,
  name: string,
  fallback: R,
  handler: (...params: P) => R | Promise<R>,
): (...params: P) => Promise<R | ResponseError<never>> {
  return async (...params: P) => {
    const refusal = lifecycle.refusal(name);
    if (refusal !== undefined) return refusal;
    try {
      return await handler(...params);
    } catch (error) {
      if (error instanceof ResponseError) return error as ResponseError<never>;
      log.error(`${name} failed: ${describe(error)}`);
      return fallback;
    }
  };
}

/** The same for notifications and timers, which have nobody to answer: log and carry on. */
export function guardNotification<P extends unknown[]>(log: ErrorLog, name: string, handler: (...params: P) => void | Promise<void>): (...params: P) => void {
  return (...params: P) => {
    const report = (error: unknown): void => log.error(`${name} failed: ${describe(error)}`);
    try {
      const result = handler(...params);
      if (result instanceof Promise) result.catch(report);
    } catch (error) {
      report(error);
    }
  };
}

/** The notifications `TextDocuments.listen` subscribes to (the library does not export the type). */
type DocumentSync = Parameters<TextDocuments<{ readonly uri: string }>['listen']>[0];

const openedDocument = z.object({ textDocument: z.object({ uri: z.string(), languageId: z.string(), version: z.number().int(), text: z.string() }) });

/**
 * The document notifications as `TextDocuments` listens to them, except that an open whose
 * document is malformed (a URI that is not a string, no text…) is dropped with a warning: such a
 * document is never kept, so nothing later runs on it or asks the client about it (for instance a
 * `workspace/configuration` with `scopeUri: null`). Every other notification looks a document up by
 * its URI, and finds nothing for one that was never opened.
 */
export function checkedDocumentSync(connection: DocumentSync, log: { warn(message: string): void }): DocumentSync {
  return {
    onDidOpenTextDocument: (handler) => connection.onDidOpenTextDocument((params) => {
      if (openedDocument.safeParse(params).success) return handler(params);
      log.warn('didOpen ignored: its textDocument is not a TextDocumentItem (a string uri and languageId, an integer version, a string text)');
    }),
    onDidChangeTextDocument: (handler) => connection.onDidChangeTextDocument(handler),
    onDidCloseTextDocument: (handler) => connection.onDidCloseTextDocument(handler),
    onWillSaveTextDocument: (handler) => connection.onWillSaveTextDocument(handler),
    onWillSaveTextDocumentWaitUntil: (handler) => connection.onWillSaveTextDocumentWaitUntil(handler),
    onDidSaveTextDocument: (handler) => connection.onDidSaveTextDocument(handler),
  };
}
