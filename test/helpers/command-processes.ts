// What the tests of a command's processes share: sleepers that carry a marker as an argument, so a
// test finds every sleeper a command started however it left its group (and never the shell or a
// process whose arguments merely quote the marker), and bounded polls of /proc that say which still run.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { auditSpec, samplePools } from '../inputs/workspace.js';

/** A fresh marker: no other process on the machine holds it in its command line. */
export const newMarker = (): string => `herald-test-${randomBytes(6).toString('hex')}`;

/** A shell word that runs Node sleeping ten minutes, with `marker` in its arguments (only node is sure to be on PATH). */
export const sleeper = (marker: string): string => `${JSON.stringify(process.execPath)} -e "setTimeout(() => {}, 600000)" ${marker}`;

/**
 * util-linux's setsid by absolute path: util-linux is essential on Debian, and `npm run test:bare`
 * hides PATH, which would otherwise skip these tests in CI.
 */
export const setsid = '/usr/bin/setsid';

/** Why the `setsid` tests cannot run here, or undefined when util-linux's setsid is installed. */
export const noSetsid: string | undefined = spawnSync(setsid, ['--version'], { stdio: 'ignore' }).status === 0 ? undefined : `${setsid} (util-linux) is not installed`;

/** The sleepers specFolder's command starts. */
export const sleepersLeft = noSetsid === undefined ? 2 : 1;

/**
 * A folder with `spec.reward`, an audit of the sample pools whose candidates command starts a sleeper in
 * the background and one in a session of its own (where setsid is installed), marked `marker`, and waits.
 */
export function specFolder(marker: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-command-'));
  const daemon = noSetsid === undefined ? `${setsid} ${sleeper(marker)} >/dev/null 2>&1 &\n` : '';
  fs.writeFileSync(path.join(dir, 'start.sh'), `${sleeper(marker)} >/dev/null 2>&1 &\n${daemon}wait\n`);
  const spec = auditSpec(path.join(samplePools, 'corpus.jsonl'), path.join(samplePools, 'hotpot.jsonl'));
  fs.writeFileSync(path.join(dir, 'spec.reward'), spec.replace('using lexical(2)', 'using candidates command "/bin/sh start.sh"'));
  return dir;
}

/** Live processes with `arg` as one of their arguments (a zombie has none: it runs nothing). */
export function processesWith(arg: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(arg)) found.push(Number(entry));
    } catch {
      // gone between the listing and the read
    }
  }
  return found;
}

const pollMs = 50;

/** Waits until `count` processes have `arg` as an argument; false when they never do within `withinMs`. */
export async function started(arg: string, count: number, withinMs = 20_000): Promise<boolean> {
  for (const deadline = Date.now() + withinMs; Date.now() < deadline; await pause()) {
    if (processesWith(arg).length >= count) return true;
  }
  return false;
}

/**
 * The processes with `arg` as an argument after waiting up to `withinMs` for them all to end (empty:
 * none). The wait is long because the sweep can be another process's to make (the guard, a Node
 * process that must start and read its closed stdin): on a machine loaded by the rest of the suite,
 * 10 s was once too short for it.
 */
export function survivors(arg: string, withinMs = 30_000): Promise<number[]> {
  return remaining(() => processesWith(arg), withinMs);
}

/** The processes `find` lists after waiting up to `withinMs` for them all to end (empty: none). */
export async function remaining(find: () => number[], withinMs = 10_000): Promise<number[]> {
  let left = find();
  for (const deadline = Date.now() + withinMs; left.length > 0 && Date.now() < deadline; left = find()) await pause();
  // A failed test must not leave them running either.
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return left;
}

const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, pollMs));
