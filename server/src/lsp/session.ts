import { TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { specInputs } from '../inputs/spec-inputs.js';
import { probeFile } from '../inputs/file-probe.js';
import { clientFeatures, type ClientFeatures } from './capabilities.js';
import { AnalysisCache, specFileOf, type DocumentAnalysis } from './document-analysis.js';
import { LinkedFileProbe } from '../inputs/linked-file-probe.js';
import { isDataDocument } from './pool-documents.js';
import { SettingsStore } from './settings.js';
import { WorkspaceTrust } from '../inputs/trust.js';
import { inputLimitsOf } from '../inputs/input-limits.js';

/** The server's state: open documents, their analyses, settings and linked-file statuses. */
export class Session {
  readonly documents = new TextDocuments(TextDocument);
  /** Set once, from the client's `initialize`. */
  trust: WorkspaceTrust = WorkspaceTrust.everything;
  readonly probe = new LinkedFileProbe(probeFile, () => this.trust);
  readonly analyses = new AnalysisCache(this.probe);
  features: ClientFeatures = clientFeatures({});
  settings: SettingsStore = new SettingsStore(undefined);

  /** The analysis of the document's current version; undefined when it is not open or is a data file. */
  async analysisFor(uri: string): Promise<DocumentAnalysis | undefined> {
    if (this.documents.get(uri) === undefined || isDataDocument(uri)) return undefined;
    const settings = await this.settings.for(uri);
    // Read the document after the settings arrive: an edit may have landed meanwhile.
    const document = this.documents.get(uri);
    return document === undefined ? undefined : this.analyses.get(document, settings);
  }

  /** The trust rule with the input limits the document's settings give (`herald.maxInputMiB`). */
  async trustFor(uri: string): Promise<WorkspaceTrust> {
    return this.trust.withLimits(inputLimitsOf((await this.settings.for(uri)).maxInputMiB));
  }

  /** The files the spec reads that the workspace trust rules out: no analysis may run while there are any. */
  untrustedLinks(analysis: DocumentAnalysis): string[] {
    const specFile = specFileOf(analysis.uri);
    if (this.trust.trusted || specFile === undefined) return [];
    return specInputs(analysis.analyzed.model.spec, specFile).map((input) => input.path).filter((p) => !this.trust.allows(p));
  }

  closed(uri: string): void {
    this.analyses.forget(uri);
    this.settings.forget(uri);
  }
}
