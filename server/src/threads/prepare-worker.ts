// One thread of a parallel preparation (threads/parallel-prepare.ts). It compiles the spec's plan once,
// builds the attacks' candidate generators once (a corpus index only when a ranking is missing from
// what the coordinator sends), then evaluates each row range it is handed and sends its part back.
// It opens no file: the rankings it computes go back to the coordinator, which keeps them.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort } from 'node:worker_threads';
import { corpusEnv } from '../language/eval-env.js';
import { AnsweredTerms } from '../edits/term-requests.js';
import type { CorpusOrder } from '../pool/corpus-order.js';
import type { Trajectory } from '../pool/types.js';
import type { RankedGenerator, RankingStore, Ranking } from '../inputs/ranking-cache.js';
import { createCandidateSource } from '../candidates/candidate-source.js';
import { bm25IndexOf, type Bm25Index } from '../candidates/bm25.js';
import { indexOfBytes } from '../inputs/index-cache.js';
import { compileSetup, rangePreparer, type PreparedPart } from '../edits/prepare.js';
import { claimRange, partOnWire, type FromCoordinator, type PartInit, type StoredBm25Bytes, type ToCoordinator } from './parallel-prepare.js';
import { modelOfBound } from '../semantics/bound-model.js';
import { rankingBuffers, RankingsPacker, unpackRankings, type RankingsOnWire } from './rankings-on-wire.js';

const port = parentPort;

/**
 * A generator's rankings in this thread: those the coordinator sent for the range at hand, and those
 * ranked here, which also go back to the coordinator to be kept.
 */
class ThreadRankings {
  readonly known = new Map<string, Ranking>();
  readonly fresh: RankingsPacker;
  readonly store: RankingStore;

  constructor(generator: RankedGenerator, order: CorpusOrder) {
    const { known } = this;
    const fresh = (this.fresh = new RankingsPacker(generator, order));
    this.store = {
      get: (text) => known.get(text),
      set(text, ranked) {
        known.set(text, ranked);
        fresh.add(text, ranked);
      },
    };
  }
}

/** A worker's preparation of the ranges it is sent, once it has its init; `useIndex` takes the stored BM25 index if one follows. */
interface Started {
  readonly prepare: (rows: readonly Trajectory[], sent: readonly RankingsOnWire[]) => { part: PreparedPart | undefined; rankings: RankingsOnWire[] };
  readonly useIndex: (stored: StoredBm25Bytes) => void;
}

function start(init: PartInit): Started {
  const model = modelOfBound(init.model);
  const compiled = compileSetup(model, init.plan);
  const terms = init.commandTerms === undefined ? undefined : new AnsweredTerms(init.commandTerms.specs, init.commandTerms.answers);
  const env = corpusEnv(init.corpus, terms);
  const order = env.corpusOrder();
  const rankings = new Map<RankedGenerator, ThreadRankings>();
  const rankingsOf = (generator: RankedGenerator): ThreadRankings => {
    let of = rankings.get(generator);
    if (of === undefined) rankings.set(generator, (of = new ThreadRankings(generator, order)));
    return of;
  };
  const store = (generator: RankedGenerator): RankingStore => rankingsOf(generator).store;
  // The stored index, when one is sent, loaded on the first query no stored ranking answers; without
  // one, the index is built then.
  let sentIndex: StoredBm25Bytes | undefined;
  const bm25Index = (): Bm25Index => bm25IndexOf(init.corpus, sentIndex === undefined ? undefined : indexOfBytes(sentIndex.bytes, sentIndex.corpusHash));
  const candidates = createCandidateSource(init.corpus, init.candidateFiles, { store, commands: init.commands, bm25Index });
  const prepareRange = rangePreparer(compiled, env, candidates, () => false);
  const useIndex = (stored: StoredBm25Bytes): void => {
    sentIndex = stored;
  };
  const prepare: Started['prepare'] = (rows, sent) => {
    // The coordinator keeps every ranking and sends each range its own: kept across ranges here, they
    // would only grow the thread (by a million ranked query texts at a million rows).
    for (const of of rankings.values()) of.known.clear();
    for (const wire of sent) {
      const { known } = rankingsOf(wire.generator);
      unpackRankings(wire, order.ids, (text, ranked) => known.set(text, ranked));
    }
    const part = prepareRange(rows);
    const ranked = [...rankings.values()].filter((of) => of.fresh.size > 0).map((of) => of.fresh.take());
    return { part, rankings: ranked };
  };
  return { prepare, useIndex };
}

// Once a part is sent, its rows, views and edits are garbage, but V8 lets a busy thread's heap grow
// instead of collecting it: at 200,000 rows each of two workers reached 650 MB of heap where 240 MB
// was live, and that set the audit's peak. A full collection after each part keeps a worker near
// its live data (docs/performance.md, "Workers that hold one range at a time"). Node gives no way
// to ask for one but V8's `gc`, which the flag adds only to contexts made after it is set, so it is
// taken from a new context (as Jest does for --logHeapUsage). It collects this thread's heap only.
function garbageCollector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

if (port !== null) {
  const collectGarbage = garbageCollector();
  let run: ReturnType<typeof start> | undefined;
  let claims: Int32Array | undefined;
  port.on('message', (message: FromCoordinator) => {
    const send = (reply: ToCoordinator, transfer: ArrayBuffer[] = []): void => port.postMessage(reply, transfer);
    try {
      if (message.kind === 'init') {
        run = start(message);
        claims = message.claims;
        return;
      }
      if (run === undefined) throw new Error(`a message of kind '${message.kind}' before init`);
      if (message.kind === 'index') {
        run.useIndex(message.bm25Index);
        return;
      }
      // The calling thread may have taken the range back while it waited here (parallel-prepare.ts).
      if (!claimRange(claims, message.index)) {
        send({ kind: 'taken', index: message.index });
        return;
      }
      const { part, rankings } = run.prepare(message.rows, message.known);
      if (part === undefined) throw new Error('a part was cancelled in a worker, which is never asked to cancel');
      const { wire, transfers } = partOnWire(part);
      send({ kind: 'part', index: message.index, part: wire, rankings }, [...transfers, ...rankingBuffers(rankings)]);
      collectGarbage();
    } catch (error) {
      // The stack goes to the log (the process's stderr); the audit's failure names the message.
      console.error(error);
      send({ kind: 'crash', message: error instanceof Error ? error.message : String(error) });
    }
  });
}
