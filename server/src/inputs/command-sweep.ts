// Kills every process of one command run (docs/generators.md, "Timeout and cancellation"): the run's process
// group, and, where /proc exists (Linux), every process of this user whose environment carries the
// run's tag. The tag catches what left the group but kept the environment it was started with: a
// `setsid` daemon, a double fork, a `nohup … &`. Shared by the runner (inputs/command-runner.ts),
// which sweeps when a run ends, and the guard (inputs/command-guard.ts), which sweeps when herald dies.
import * as fs from 'node:fs';

/**
 * The environment variable every process of a run inherits: `HERALD_COMMAND_RUN=<token>`, or the
 * tokens of the runs it is nested in, then its own, separated by spaces.
 */
export const commandRunVariable = 'HERALD_COMMAND_RUN';

/** What identifies a run's processes: its group (the shell's pid) and its random token. */
export interface CommandRunTag {
  readonly group: number;
  readonly token: string;
}

/**
 * Bytes of one process's environment searched for the tag. Linux caps arguments and environment
 * together at a quarter of the stack limit (2 MiB under the usual 8 MiB), and the runner puts the
 * tag first, so a tagged environment is never cut before its tag.
 */
const maxEnvironBytes = 2 * 1024 * 1024;
/** /proc entries looked at per scan: more than any machine's process count under default pid_max. */
const maxProcessesScanned = 1 << 22;
/**
 * Scans per sweep. A process forked just before its parent was killed shows up in the next scan;
 * SIGKILL leaves nothing able to fork again, so a few rounds reach a scan with nothing new.
 */
const maxRounds = 5;

/** Sends SIGKILL; a process (or group) already gone, or not ours, is fine. */
function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // ESRCH: nothing left to kill; EPERM: not ours.
  }
}

/** Whether the first `maxEnvironBytes` of a process's environment hold `needle`; false when unreadable. */
function environHolds(pid: string, needle: Buffer, buffer: Buffer): boolean {
  let fd: number;
  try {
    fd = fs.openSync(`/proc/${pid}/environ`, 'r');
  } catch {
    return false; // gone, or another user's (EACCES)
  }
  try {
    let filled = 0;
    for (let n = -1; n !== 0 && filled < buffer.length; filled += n) n = fs.readSync(fd, buffer, filled, buffer.length - filled, null);
    return buffer.subarray(0, filled).includes(needle);
  } catch {
    return false;
  } finally {
    fs.closeSync(fd);
  }
}

/** The live processes whose environment holds the run's tag (a zombie's reads empty). */
export function taggedProcesses(token: string): number[] {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return []; // no /proc: only the group is killed
  }
  // The token alone: 128 random bits appear nowhere else, and a nested run's value holds several.
  const needle = Buffer.from(token);
  const buffer = Buffer.allocUnsafe(maxEnvironBytes);
  const tagged: number[] = [];
  const scanned = Math.min(entries.length, maxProcessesScanned);
  for (let i = 0; i < scanned; i++) {
    const entry = entries[i]!;
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    if (environHolds(entry, needle, buffer)) tagged.push(Number(entry));
  }
  return tagged;
}

/** Kills the run's group and every tagged process, until a scan finds none not already killed (or the rounds run out). */
export function killCommandRun(run: CommandRunTag): void {
  // Windows has no process groups: the shell alone is killed (the runner's pid is the group's).
  kill(process.platform === 'win32' ? run.group : -run.group);
  if (process.platform === 'win32') return;
  // A killed process can take a moment to die (a busy machine, a process in the kernel): it is not
  // killed twice, and is no reason for another round.
  const killed = new Set<number>();
  for (let round = 0; round < maxRounds; round++) {
    const fresh = taggedProcesses(run.token).filter((pid) => !killed.has(pid));
    if (fresh.length === 0) return;
    for (const pid of fresh) {
      kill(pid);
      killed.add(pid);
    }
  }
}
