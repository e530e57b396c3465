// Preparing an audit on every core: the rows are cut into consecutive ranges, the calling thread and
// worker threads (prepare-worker.js beside this file) evaluate the originals' features and build
// every attack's edits on one range at a time, and `assemblePrepared` lays the parts end to end in
// row order. A row's features, edits and candidates depend on that row alone, so the prepared
// edits, and every report made from them, are the same bit for bit for any number of threads and
// whichever thread prepared a range (a test compares them).
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AnalysisInputs } from '../inputs/analysis-inputs.js';
import { rankedGenerators, type PlacedRankingStore, type RankedGenerator } from '../inputs/ranking-cache.js';
import { corpusEnv } from '../language/eval-env.js';
import type { CorpusOrder } from '../pool/corpus-order.js';
import type { CandidateList, Corpus, Loaded, Trajectory } from '../pool/types.js';
import type { SpecModel } from '../semantics/check.js';
import { bindModel, type BoundModel } from '../semantics/bound-model.js';
import type { EditPlan } from '../edits/attack-plan.js';
import { AuditError } from '../edits/audit-error.js';
import type { CommandAnswers } from '../candidates/candidate-source.js';
import { AnsweredTerms, type CommandTermSpec, type TermAnswers } from '../edits/term-requests.js';
import { visibleQueryText } from '../candidates/generator.js';
import { rankingBuffers, RankingsPacker, unpackRankings, type RankingsOnWire } from './rankings-on-wire.js';
import { assemblePrepared, compileSetup, consecutiveRanges, maxRowsPerRange, rangePreparer, setupRows, type CandidateSource, type PreparedEdits, type PreparedPart, type RunOptions } from '../edits/prepare.js';

/**
 * What a worker is told once: the checked spec and the plan (it compiles the plan itself), and what
 * its candidate generators read. The model and the plan travel in one message, so the declarations
 * the plan names stay the very objects the model's maps are keyed by.
 */
export interface PartInit {
  readonly kind: 'init';
  readonly model: BoundModel;
  readonly plan: EditPlan;
  readonly corpus: Corpus;
  readonly candidateFiles: ReadonlyMap<string, Loaded<CandidateList>>;
  readonly commands: ReadonlyMap<string, CommandAnswers>;
  /** The answers of the plan's command terms (edits/command-terms.ts), when it reads any: a worker evaluates with them. */
  readonly commandTerms?: { readonly specs: ReadonlyMap<string, CommandTermSpec>; readonly answers: ReadonlyMap<string, TermAnswers> };
  /**
   * One cell per range, shared by every thread (a SharedArrayBuffer): a thread prepares a range only
   * once it has set the range's cell from 0, so a range a worker has queued but not begun can be
   * taken back (`claimRange`). Absent, a worker prepares every range it is sent.
   */
  readonly claims?: Int32Array;
}

/**
 * The corpus's BM25 index as the cache folder keeps it, sent after the init when the folder keeps it
 * and some query text of the rows has no stored ranking: a worker loads it on its first miss instead
 * of building its own. It follows the init, and comes before any range, because finding out needs the
 * stored rankings, which the calling thread reads while the workers start.
 */
export interface IndexMessage {
  readonly kind: 'index';
  readonly bm25Index: StoredBm25Bytes;
}

/** A stored BM25 index file's bytes (inputs/index-cache.ts) and the corpus content hash they must name. */
export interface StoredBm25Bytes {
  readonly bytes: Uint8Array;
  readonly corpusHash: string;
}

/** Claims range `index` in `claims` for the thread that calls it; false when another thread holds it. */
export function claimRange(claims: Int32Array | undefined, index: number): boolean {
  return claims === undefined || Atomics.compareExchange(claims, index, 0, 1) === 0;
}

/** A range of rows to prepare, with the rankings the coordinator's store already holds for their query texts. */
export type FromCoordinator = PartInit | IndexMessage | { readonly kind: 'part'; readonly index: number; readonly rows: readonly Trajectory[]; readonly known: readonly RankingsOnWire[] };

/** A part, with the rankings its worker computed for the coordinator's store. */
export type ToCoordinator =
  | { readonly kind: 'part'; readonly index: number; readonly part: PartOnWire; readonly rankings: readonly RankingsOnWire[] }
  | { readonly kind: 'taken'; readonly index: number }
  | { readonly kind: 'crash'; readonly message: string };

/**
 * A part as a worker sends it: its runs' replacement ids without the corpus's ids, which the calling
 * thread has in the same order (`EvalEnv.corpusOrder`).
 */
export type PartOnWire = PreparedPart;

/** `part` for sending, with the buffers to hand over without a copy. */
export function partOnWire(part: PreparedPart): { wire: PartOnWire; transfers: ArrayBuffer[] } {
  const wire = { ...part, runs: part.runs.map((run) => ({ ...run, editReplacement: { ...run.editReplacement, corpusIds: [] } })) };
  const arrays = [part.originalValues, part.originalMetrics, ...part.runs.flatMap((r) => [r.rowFlags, r.editRow, r.editPosition, r.editOrdinal, r.editReplacement.places, ...(r.editOrigins === undefined ? [] : [r.editOrigins]), r.changes.columns, r.changes.vectors, r.changes.vectorOf, r.detectorBits])];
  return { wire, transfers: [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))] };
}

/** The part a worker sent, its replacement ids read against this thread's corpus ids (in corpus order). */
export function partFromWire(part: PartOnWire, corpusIds: readonly string[]): PreparedPart {
  return { ...part, runs: part.runs.map((run) => ({ ...run, editReplacement: { ...run.editReplacement, corpusIds } })) };
}

/**
 * Rows per worker at least. A worker costs about a second before its first row (start, compile,
 * the corpus, a cold JIT) and prepares some 7,000 rows a second with cached rankings; with 2,000 a
 * 10,000-row audit took 3.4 s on two threads against 2.4 s on one (`npm run bench`).
 */
export const minRowsPerWorker = 10_000;

/**
 * The threads an audit of `rows` rows is prepared on: at most `workers`, and one per `minRows`
 * rows; below two, the calling thread prepares it alone (`prepareEdits`).
 */
export function threadsFor(rows: number, workers: number, minRows = minRowsPerWorker): number {
  return Math.max(1, Math.min(workers, Math.floor(rows / minRows)));
}

/** Threads one preparation may start: each holds its own copy of the corpus and of its generators' indexes. */
export const maxWorkers = 64;

/** Threads for a preparation when none are asked for: the machine's. */
export function defaultWorkers(): number {
  return Math.min(maxWorkers, os.availableParallelism());
}

/** Ranges per worker: enough that a worker with cheap rows takes another range while one with costly rows finishes. */
const rangesPerWorker = 4;

export interface ParallelOptions extends RunOptions {
  /** Threads to prepare on, the calling thread among them (at least 2: one is `prepareEdits`). */
  readonly workers: number;
  readonly candidateFiles: ReadonlyMap<string, Loaded<CandidateList>>;
  readonly commands: ReadonlyMap<string, CommandAnswers>;
  /**
   * The rankings kept between runs (inputs/ranking-cache.ts): each range is sent those of its query
   * texts, and what the workers rank is kept here. Workers never read or write a file.
   */
  readonly rankings?: ((generator: RankedGenerator) => PlacedRankingStore) | undefined;
  /** Rows per range at least, up to `maxRowsPerRange` (`rowRanges`); `minRowsPerWorker` unless a test asks for small ranges. */
  readonly minRows?: number;
  /**
   * The BM25 index file the cache folder holds, if any: sent to the workers when some query text is
   * not ranked yet, so each loads it rather than building its own (a worker without it builds one).
   */
  readonly storedBm25Index?: (() => StoredBm25Bytes | undefined) | undefined;
}

/**
 * The consecutive row ranges a preparation on `workers` threads hands out: four per thread, each of
 * at least `minRows` rows (the last may be shorter), and never more than `maxRowsPerRange`; so
 * ranges of `maxRowsPerRange` rows at the default `minRows`, and more than four per thread for a
 * large pool.
 */
export function rowRanges(rows: number, workers: number, minRows = minRowsPerWorker): { from: number; to: number }[] {
  return consecutiveRanges(rows, Math.min(maxRowsPerRange, Math.max(minRows, Math.ceil(rows / (workers * rangesPerWorker)))));
}

/** The workers' script: beside this module in the compiled tree, and beside dist/engine.js in the bundle. */
const workerFile = path.join(__dirname, 'prepare-worker.js');

/**
 * `prepareEdits` on `options.workers` threads: the calling thread and `options.workers − 1` worker
 * threads. `candidates` is the calling thread's source: it serves the ranges this thread prepares
 * and reports the commands its generators ran. Undefined when cancelled (every worker is stopped).
 */
export async function prepareInParallel(model: SpecModel, plan: EditPlan, inputs: AnalysisInputs, candidates: CandidateSource, options: ParallelOptions): Promise<PreparedEdits | undefined> {
  const rows = inputs.pools.flatMap((p) => p.rows);
  const ranges = rowRanges(rows.length, options.workers, options.minRows);
  const progress = options.onProgress ?? (() => undefined);
  const isCancelled = options.isCancelled ?? (() => false);
  const threads = Math.min(options.workers, ranges.length);
  progress(`building edits on ${rows.length} trajectories with ${threads} threads`);

  const claims = new Int32Array(new SharedArrayBuffer(4 * ranges.length));
  const ranked = rankedGenerators.filter((r) => plan.attacks.some((a) => a.generators.some((g) => g.kind === r)));
  const init: PartInit = {
    kind: 'init', model: bindModel(model), plan, corpus: inputs.corpus, candidateFiles: options.candidateFiles, commands: options.commands, claims,
    ...(options.commandTerms instanceof AnsweredTerms ? { commandTerms: { specs: options.commandTerms.specs, answers: options.commandTerms.answers } } : {}),
  };
  const compiled = compileSetup(model, plan);
  const env = corpusEnv(inputs.corpus, options.commandTerms);
  const order = env.corpusOrder();
  const parts: (PreparedPart | undefined)[] = ranges.map(() => undefined);
  const workers: Worker[] = [];
  let next = 0;
  let done = 0;
  // Ranges sent to a worker that it has not sent back, in the order they were sent.
  const sent = new Set<number>();
  // Once settled, what the workers still send or do is ignored: they are being stopped.
  let settled = false;
  let settle: (how: 'done' | 'cancelled' | Error) => void = () => undefined;
  const outcome = new Promise<'done' | 'cancelled'>((resolve, reject) => {
    settle = (how) => {
      if (settled) return;
      settled = true;
      clearInterval(poll);
      if (how instanceof Error) reject(how);
      else resolve(how);
    };
  });
  // A thread that fails stops the audit with `audit-failed` (the editor shows it on the audit)
  // instead of taking the analysis down; the likeliest cause is memory.
  const fail = (why: string): void => settle(new AuditError(`preparing the audit on ${threads} threads failed: ${why}; \`herald.audit.workers\` or \`--workers\` sets fewer`));
  const finished = (index: number, part: PreparedPart): void => {
    parts[index] = part;
    done++;
    progress(`built edits on ${done} of ${ranges.length} row ranges`);
    if (done === ranges.length) settle('done');
  };
  const give = (worker: Worker): void => {
    if (settled || next >= ranges.length) return;
    const index = next++;
    const { from, to } = ranges[index]!;
    const part = rows.slice(from, to);
    const known = knownRankings(part, ranked, options.rankings, order);
    sent.add(index);
    worker.postMessage({ kind: 'part', index, rows: part, known } satisfies FromCoordinator, rankingBuffers(known));
  };
  // Once every range is handed out, the calling thread takes back the last range a worker has queued
  // but not begun: a worker keeps one range queued, so otherwise this thread waited for it. At 58,368
  // rows ranked cold it waited 2.5 s of a 20 s audit, one worker's last range.
  const takeBack = (): number | undefined => {
    for (const index of [...sent].reverse()) {
      if (claimRange(claims, index)) {
        sent.delete(index);
        return index;
      }
    }
    return undefined;
  };
  const poll = setInterval(() => {
    if (isCancelled()) settle('cancelled');
  }, 50);
  for (let t = 1; t < threads; t++) {
    const worker = new Worker(workerFile);
    workers.push(worker);
    worker.on('error', (error) => fail(error.message));
    // Only the calling thread stops a worker; one that exits by itself before the end never answers.
    worker.on('exit', (code) => fail(`a thread stopped (exit code ${code})`));
    worker.on('message', (reply: ToCoordinator) => {
      if (settled) return;
      if (reply.kind === 'crash') {
        fail(reply.message);
        return;
      }
      if (reply.kind === 'taken') {
        give(worker);
        return;
      }
      sent.delete(reply.index);
      keepRankings(reply.rankings, order.ids, options.rankings);
      finished(reply.index, partFromWire(reply.part, order.ids));
      give(worker);
    });
    worker.postMessage(init satisfies FromCoordinator);
  }
  try {
    // The workers start (a second or so each) while this thread reads the stored rankings, which the
    // first ranges need anyway. The index is sent only when some query text has no stored ranking;
    // the file goes as read, and is checked where it is loaded.
    const bm25 = ranked.includes('bm25') && rows.some((row) => options.rankings?.('bm25').placesOf(visibleQueryText(row)) === undefined)
      ? options.storedBm25Index?.()
      : undefined;
    if (bm25 !== undefined) for (const worker of workers) worker.postMessage({ kind: 'index', bm25Index: bm25 } satisfies FromCoordinator);
    // Each worker gets two ranges, and then one per part it returns, so the next range already waits
    // in its queue when it finishes one: at 58,368 rows a worker otherwise waited 80–120 ms per
    // 5,000-row range for the calling thread to take its part and hand it another. The calling thread
    // prepares a range at a time itself, so a worker's queue covers it while this thread is busy.
    for (let queued = 0; queued < 2; queued++) for (const worker of workers) give(worker);
  } catch (error) {
    // The workers run already: the audit fails with this error once they are stopped (below).
    settle(error instanceof Error ? error : new Error(String(error)));
  }

  // The calling thread is one of the threads. It has the corpus, the candidate source and the
  // compiled plan already, so a thread of its own would only pay again for them, and on a machine
  // with as many cores as threads it would compete with the workers for a core while this one idled.
  const prepareOwn = rangePreparer(compiled, env, candidates, isCancelled);
  const own = (async (): Promise<void> => {
    while (!settled) {
      // A range no worker was sent needs no claim: only this thread hands ranges out.
      const index = next < ranges.length ? next++ : takeBack();
      if (index === undefined) break;
      const { from, to } = ranges[index]!;
      let part: PreparedPart | undefined;
      try {
        part = prepareOwn(rows.slice(from, to));
      } catch (error) {
        fail(error instanceof Error ? error.message : String(error));
        return;
      }
      if (part === undefined) {
        settle('cancelled');
        return;
      }
      finished(index, part);
      // The workers' parts that came in meanwhile are taken, and their next ranges handed out, before this thread takes another.
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  try {
    if ((await outcome) === 'cancelled') return undefined;
  } finally {
    await own;
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return assemblePrepared(setupRows(compiled, rows, env), inputs, candidates, ranges.map((r, i) => ({ from: r.from, part: parts[i]! })));
}

/**
 * The stored rankings of the query texts of `rows` (candidates/generator.ts: the texts the
 * ranked generators ask), copied as the store keeps them: as places in the corpus's order.
 */
function knownRankings(rows: readonly Trajectory[], generators: readonly RankedGenerator[], store: ((generator: RankedGenerator) => PlacedRankingStore) | undefined, order: CorpusOrder): RankingsOnWire[] {
  if (store === undefined) return [];
  return generators.map((generator) => {
    const stored = store(generator);
    const known = new RankingsPacker(generator, order);
    const seen = new Set<string>();
    for (const row of rows) {
      const text = visibleQueryText(row);
      if (seen.has(text)) continue;
      seen.add(text);
      const placed = stored.placesOf(text);
      if (placed !== undefined) known.addPlaces(text, placed);
    }
    return known.take();
  });
}

/** Keeps a worker's rankings in the coordinator's store (written at the next flush). */
function keepRankings(wires: readonly RankingsOnWire[], corpusIds: readonly string[], store: ((generator: RankedGenerator) => PlacedRankingStore) | undefined): void {
  if (store === undefined) return;
  for (const wire of wires) {
    const target = store(wire.generator);
    unpackRankings(wire, corpusIds, (text, ranked) => {
      if (target.placesOf(text) === undefined) target.set(text, ranked);
    });
  }
}
