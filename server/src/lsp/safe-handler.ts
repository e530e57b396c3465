import { ResponseError } from 'vscode-languageserver/node';

export interface ErrorLog {
  error(message: string): void;
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * Wraps a request handler so that a bug triggered by one document answers that one request with
 * `fallback` (and a line in the log) instead of taking the whole server down. A `ResponseError`
 * is an intended answer (e.g. "this name cannot be renamed") and passes through.
 */
export function guardRequest<P extends unknown[], R>(
  log: ErrorLog,
  name: string,
  fallback: R,
  handler: (...params: P) => R | Promise<R>,
): (...params: P) => Promise<R | ResponseError<never>> {
  return async (...params: P) => {
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
