// The parent-death guard of one command run: `node command-guard.js GROUP TOKEN`, started by
// inputs/command-runner.ts beside the command's shell, in a session of its own (so a Ctrl-C in the
// terminal does not reach it) and outside the command's group (so killing the group spares it). Its
// stdin is a pipe from the process that runs the command; the pipe closes when that process ends
// the run, or dies in any way (SIGKILL, an exit, a terminated worker thread), and the guard then kills
// the run's group and tagged processes (inputs/command-sweep.ts) and exits. It never outlives its
// run: it exits on that end of file, on a read error, and on any signal it can catch.
import { killCommandRun, type CommandRunTag } from './command-sweep.js';

/** Waits for the end of stdin (or a signal), then sweeps the run and exits. */
function guard(run: CommandRunTag): void {
  let swept = false;
  const sweep = (): void => {
    if (swept) return;
    swept = true;
    killCommandRun(run);
    process.exit(0);
  };
  process.stdin.on('end', sweep);
  process.stdin.on('close', sweep);
  process.stdin.on('error', sweep);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, sweep);
  process.stdin.resume();
}

const [group, token] = process.argv.slice(2);
if (group === undefined || !/^[1-9]\d*$/.test(group) || token === undefined || !/^[0-9a-f]{32}$/.test(token)) {
  process.stderr.write('usage: command-guard GROUP TOKEN\n');
  process.exitCode = 2;
} else {
  guard({ group: Number(group), token });
}
