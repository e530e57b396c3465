// Ctrl-C (SIGINT) or SIGTERM while `herald audit` runs a spec's command: every process the command
// started is killed before herald exits, with the status a shell gives a process stopped by that
// signal (128 + its number). A herald killed outright (SIGKILL) is covered by each run's guard
// (inputs/command-guard.ts).
import { killLiveRuns } from '../inputs/command-runner.js';

const exitStatus = { SIGINT: 130, SIGTERM: 143 } as const;
/** What a shell reports for a program stopped by SIGPIPE, which Node ignores: `herald … | head` read enough. */
const closedOutputStatus = 141;

/** Installs the handlers once, at the start of the CLI (and the one for a closed stdout). */
export function killRunsOnInterrupt(): void {
  for (const [signal, status] of Object.entries(exitStatus)) {
    process.once(signal, () => {
      killLiveRuns();
      process.exit(status);
    });
  }
  // The reader of stdout went away (`herald audit … | head`): nothing more can be said, so stop as
  // a program stopped by SIGPIPE would, instead of an unhandled EPIPE's stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    killLiveRuns();
    if (error.code === 'EPIPE') process.exit(closedOutputStatus);
    process.stderr.write(`herald: cannot write the output: ${error.message}\n`);
    process.exit(2);
  });
}
