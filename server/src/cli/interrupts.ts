// Ctrl-C (SIGINT) or SIGTERM while `herald audit` runs a spec's command: every process the command
// started is killed before herald exits, with the status a shell gives a process stopped by that
// signal (128 + its number). A herald killed outright (SIGKILL) is covered by each run's guard
// (inputs/command-guard.ts).
import { killLiveRuns } from '../inputs/command-runner.js';

const exitStatus = { SIGINT: 130, SIGTERM: 143 } as const;

/** Installs the handlers once, at the start of the CLI. */
export function killRunsOnInterrupt(): void {
  for (const [signal, status] of Object.entries(exitStatus)) {
    process.once(signal, () => {
      killLiveRuns();
      process.exit(status);
    });
  }
}
