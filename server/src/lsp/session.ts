import * as path from 'node:path';
import { TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { linkedFiles } from '../semantics/check.js';
import { probeFile } from '../inputs/file-probe.js';
import { clientFeatures, type ClientFeatures } from './capabilities.js';
import { AnalysisCache, specDirOf, type DocumentAnalysis } from './document-analysis.js';
import { LinkedFileProbe } from '../inputs/linked-file-probe.js';
import { SettingsStore } from './settings.js';
import { WorkspaceTrust } from '../inputs/trust.js';

/** The server's state: open documents, their analyses, settings and linked-file statuses. */
export class Session {
  readonly documents = new TextDocuments(TextDocument);
  /** Set once, from the client's `initialize`. */
  trust: WorkspaceTrust = WorkspaceTrust.everything;
  readonly probe = new LinkedFileProbe(probeFile, () => this.trust);
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

  /** The linked files, resolved, that the workspace trust rules out: an audit must not run while there are any. */
  untrustedLinks(analysis: DocumentAnalysis): string[] {
    const dir = specDirOf(analysis.uri);
    if (this.trust.trusted || dir === undefined) return [];
    return linkedFiles(analysis.analyzed.model.spec).map((link) => path.resolve(dir, link.value)).filter((p) => !this.trust.allows(p));
  }

  closed(uri: string): void {
    this.analyses.forget(uri);
    this.settings.forget(uri);
  }
}
