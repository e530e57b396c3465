import type { ResponseError } from 'vscode-languageserver/node';
import type { DocumentAnalysis } from './document-analysis.js';
import { guardRequest, type RequestContext } from './safe-handler.js';
import type { Session } from './session.js';

export type DocumentRequest = <R>(name: string, uri: string, empty: R, feature: (analysis: DocumentAnalysis) => R) => Promise<R | ResponseError<never>>;

/**
 * Runs a feature on the current analysis of a document: `empty` when the document is not open,
 * and also when the feature throws (logged), so one bad request never stops the server; before
 * `initialize`, ServerNotInitialized.
 */
export function documentRequests(session: Session, context: RequestContext): DocumentRequest {
  return (name, uri, empty, feature) =>
    guardRequest(context, name, empty, async () => {
      const analysis = await session.analysisFor(uri);
      return analysis === undefined ? empty : feature(analysis);
    })();
}
