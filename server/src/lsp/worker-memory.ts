import * as os from 'node:os';
import { inputLimitsOf } from '../inputs/input-limits.js';

// How much memory the server's worker threads (analyses, and the editor's imports) may take, and
// how a worker that died is worded. A worker past its heap limit is stopped by Node with
// ERR_WORKER_OUT_OF_MEMORY; the server thread lives on and says why on the spec.

const mebibyte = 1024 * 1024;

/**
 * Heap per MiB of linked files: the bench audit over a 127.5 MiB pool peaks at 3.1 GB (docs/language.md,
 * Limits), about 24 times its input; a worker gets that much for the input limit it reads under.
 */
export const heapPerInputMiB = 24;

/** The least heap a worker gets: Node's own default on a machine of 16 GB or more, enough for any default-limit audit. */
export const leastWorkerHeapMiB = 4096;

/** The most share of the machine's memory one worker may take, so a bomb stops it before the machine swaps. */
export const machineShare = 0.5;

/**
 * The old-generation heap limit of a worker that reads under `maxInputMiB` (`herald.maxInputMiB`;
 * undefined: the default limits): `heapPerInputMiB` per MiB one analysis may load, at least
 * `leastWorkerHeapMiB`, and never more than `machineShare` of the machine's memory.
 */
export function workerHeapMiB(maxInputMiB: number | undefined, totalMemoryBytes = os.totalmem()): number {
  const inputMiB = inputLimitsOf(maxInputMiB).analysis / mebibyte;
  const machine = Math.floor((totalMemoryBytes / mebibyte) * machineShare);
  return Math.min(Math.max(leastWorkerHeapMiB, heapPerInputMiB * inputMiB), machine);
}

/** A heap limit set by hand (`HERALD_WORKER_HEAP_MIB`: how tests start a worker that runs out of memory soon); undefined when unset or not a whole number. */
export function heapOverride(value: string | undefined): number | undefined {
  const mebibytes = value === undefined ? Number.NaN : Number(value);
  return Number.isInteger(mebibytes) && mebibytes > 0 ? mebibytes : undefined;
}

/** Node's code for a worker stopped at its heap limit. */
const outOfMemory = 'ERR_WORKER_OUT_OF_MEMORY';

/**
 * Why a worker's work ended without an answer, for the spec's diagnostic: it ran out of memory
 * (with its limit), it threw outside any run, or it exited. `doing` says what it was at.
 */
export function stoppedReason(error: Error | undefined, exitCode: number | undefined, heapMiB: number, doing: string): string {
  const code = error !== undefined && 'code' in error ? error.code : undefined;
  const why = code === outOfMemory ? `it ran out of memory (limit ${heapMiB} MB)`
    : error !== undefined ? `its thread failed (${error.message.split('\n')[0]})`
    : `its thread exited with code ${exitCode ?? 'unknown'}`;
  return `the analysis stopped: ${why} while ${doing}`;
}
