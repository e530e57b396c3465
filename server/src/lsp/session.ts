import { TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { probeFile } from '../semantics/file-probe.js';
import { clientFeatures, type ClientFeatures } from './capabilities.js';
import { AnalysisCache, type DocumentAnalysis } from './document-analysis.js';
import { LinkedFileProbe } from './linked-file-probe.js';
import { SettingsStore } from './settings.js';

/** The server's state: open documents, their analyses, settings and linked-file statuses. */
export class Session {
  readonly documents = new TextDocuments(TextDocument);
  readonly probe = new LinkedFileProbe(probeFile);
  readonly analyses = new AnalysisCache(this.probe);
  features: ClientFeatures = clientFeatures({});
  settings: SettingsStore = new SettingsStore(undefined);

  /** The analysis of the document's current version; undefined when it is not open. */
  async analysisFor(uri: string): Promise<DocumentAnalysis | undefined> {
    if (this.documents.get(uri) === undefined) return undefined;
    const settings = await this.settings.for(uri);
    // Read the document after the settings arrive: an edit may have landed meanwhile.
    const document = this.documents.get(uri);
    return document === undefined ? undefined : this.analyses.get(document, settings);
  }

  closed(uri: string): void {
    this.analyses.forget(uri);
    this.settings.forget(uri);
  }
}
