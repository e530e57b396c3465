import * as path from 'node:path';
import { formatsGuessedFirst, guessFormat } from '../importers/format-guess.js';
import { importerFor } from '../importers/registry.js';
import { readImportFiles } from '../inputs/import-pool.js';
import { sizeProblem } from '../inputs/load-inputs.js';
import { sumProfiles, type PoolProfile } from '../pool/profile.js';
import { trustOnWire } from './analysis-runner.js';
import type { ImportRequest } from './import-run.js';
import { importFailure, type PoolImports } from './pool-documents.js';
import type { ImportFormatsParams, ImportFormatsResult, PoolProfileParams, PoolProfileResult } from '../contract/protocol.js';
import type { Session } from './session.js';

// What "HERALD: New Spec" and "New Spec from Framework Logs…" ask the server before writing a spec:
// the profile of the chosen rows (read in the import worker, as a linked pool is, under the
// workspace's trust rule and input limits), and the log formats with the one the logs look like first.

const unavailable = (reason: string): PoolProfileResult => ({ kind: 'unavailable', reason });

/** The rows of every file, as the audit would load them, profiled together; or why they cannot be. */
export async function poolProfileAnswer(session: Session, imports: PoolImports, params: PoolProfileParams): Promise<PoolProfileResult> {
  const first = params.files[0];
  if (first === undefined) return unavailable('no file was given');
  const trust = session.trust;
  const tooLarge = sizeProblem(params.files, trust);
  if (tooLarge !== undefined) return unavailable(`${tooLarge.files.map((f) => path.basename(f)).join(', ')}: ${tooLarge.why}`);
  const wire = trustOnWire(trust, undefined);
  const select = { kind: 'profile' } as const;
  // Framework logs are one import (a verl step per file makes one pool); pool files are pools of their own.
  const requests: ImportRequest[] = params.from === undefined
    ? params.files.map((file) => ({ pool: { name: 'pool', file }, files: [file], specDir: path.dirname(file), select, ...wire }))
    : [{ pool: { name: 'logs', file: first, importer: { format: params.from.format, options: params.from.options } }, files: params.files, specDir: path.dirname(first), select, ...wire }];
  const profiles: PoolProfile[] = [];
  for (const request of requests) {
    const outcome = await imports.importRows(request);
    if (outcome.state !== 'done') return unavailable(importFailure(outcome));
    const { profile, fileError } = outcome.results;
    if (fileError !== undefined) return unavailable(fileError);
    if (profile === undefined) return unavailable('the import sent no profile');
    profiles.push(profile);
  }
  return { kind: 'profile', profile: sumProfiles(profiles) };
}

/** Every format, the one the first log's first records import best under first (`guessFormat`). */
export async function importFormatsAnswer(session: Session, params: ImportFormatsParams): Promise<ImportFormatsResult> {
  const describe = (guessed: string | undefined): ImportFormatsResult['formats'] =>
    formatsGuessedFirst(guessed).map((format) => ({ format, summary: importerFor(format)?.summary ?? '' }));
  const first = params.files[0];
  if (first === undefined) return { formats: describe(undefined), guessed: null };
  const tooLarge = sizeProblem([first], session.trust);
  if (tooLarge !== undefined) return { formats: describe(undefined), guessed: null, unreadable: `${path.basename(first)}: ${tooLarge.why}` };
  const read = readImportFiles([first], session.trust, (file) => path.basename(file));
  if (!read.ok) return { formats: describe(undefined), guessed: null, unreadable: `${path.basename(read.file)}: ${read.why}` };
  const guess = await guessFormat(read.files);
  return { formats: describe(guess?.format), guessed: guess?.format ?? null };
}
