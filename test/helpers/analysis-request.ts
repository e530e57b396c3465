import { SpecVersion } from '../../server/src/host/spec-version.js';
import { probeFileUnder } from '../../server/src/inputs/file-probe.js';
import { trustOf, type AnalysisRequest } from '../../server/src/lsp/analysis-run.js';

/**
 * A run request as the server thread makes one: the spec checked here, under the request's trust,
 * and sent bound (the worker does not parse it again).
 */
export function analysisRequest(text: string, specFile: string, parts: Omit<AnalysisRequest, 'spec'>): AnalysisRequest {
  const spec = SpecVersion.ofText(text, specFile, { probeFile: probeFileUnder(trustOf(parts)) });
  return { spec: spec.bound, ...parts };
}
