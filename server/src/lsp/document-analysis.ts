import { fileURLToPath } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Analyzed } from '../semantics/analyze.js';
import { SpecVersion } from '../host/spec-version.js';
import { LineIndex } from '../problems/line-index.js';
import type { LinkedFileProbe } from '../inputs/linked-file-probe.js';
import { settingsKey, type HeraldSettings } from './settings.js';

/** One document version, analysed: what every feature reads. */
export interface DocumentAnalysis {
  readonly uri: string;
  readonly version: number;
  readonly text: string;
  /** The version as the analysis host holds it: checked once here, bound for the worker's analyses. */
  readonly spec: SpecVersion;
  readonly analyzed: Analyzed;
  readonly lines: LineIndex;
  /**
   * Names the inputs this analysis was computed from: the document version, the linked files'
   * generation and the settings. Pull diagnostics use it as `resultId`, so a client that asks
   * again after a linked file changed gets a full report although the version did not move.
   */
  readonly resultId: string;
}

/** The spec's path, against whose folder its links resolve; an unsaved (untitled) spec has none. */
export function specFileOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/**
 * The latest analysis of each open document, computed lazily on the first request for a version
 * and shared by diagnostics, hover, completion and the rest. Only the keystroke checks run here.
 */
export class AnalysisCache {
  private readonly latest = new Map<string, DocumentAnalysis>();

  constructor(private readonly probe: LinkedFileProbe) {}

  get(document: TextDocument, settings: HeraldSettings): DocumentAnalysis {
    const resultId = `${document.version}.${this.probe.generation}.${settingsKey(settings)}`;
    const cached = this.latest.get(document.uri);
    if (cached !== undefined && cached.resultId === resultId) return cached;
    const text = document.getText();
    const spec = SpecVersion.ofText(text, specFileOf(document.uri), {
      probeFile: settings.checkLinkedFiles ? this.probe.status : this.probe.trustOnly,
      reportUnused: settings.unusedDeclarations,
    });
    const analysis: DocumentAnalysis = { uri: document.uri, version: document.version, text, spec, analyzed: spec.analyzed, lines: new LineIndex(text), resultId };
    this.latest.set(document.uri, analysis);
    return analysis;
  }

  forget(uri: string): void {
    this.latest.delete(uri);
  }
}
