import { auditCommand, runAuditCommand } from './audit-command.js';
import { checkCommand, runCheck } from './check-command.js';
import { compareCommand, runCompareCommand } from './compare-command.js';
import { importCommand, runImportCommand } from './import-command.js';
import { mergeCommand, runMergeCommand } from './merge-command.js';
import { runSignalCommand, signalCommand } from './signal-command.js';
import { usageExit } from './command-line.js';
import { killRunsOnInterrupt } from './interrupts.js';
import { escapeControls } from '../report/escape-text.js';
import { heraldVersion } from '../version.js';

const commands = [checkCommand, auditCommand, mergeCommand, signalCommand, compareCommand, importCommand];

const usage = `usage: herald <command> [options]
       herald --version | -V
       herald --help | -h

commands:
${commands.map((c) => `  ${`${c.name} ${c.operands}`.padEnd(24)}${c.brief}`).join('\n')}

'herald <command> --help' describes every option of a command and its exit codes; every command
exits 2 on bad usage (an unknown command, option, format or name) and on unreadable input, 130 or
143 when stopped by Ctrl-C or SIGTERM (after killing any program a spec named), and 141 when its
output is closed before it is written (herald … | head).`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const io = {
    out: (line: string) => process.stdout.write(`${line}\n`),
    err: (line: string) => process.stderr.write(`${line}\n`),
    write: (text: string) => process.stdout.write(text),
    terminal: process.stdout.isTTY === true,
  };
  switch (command) {
    case 'check':
      return runCheck(rest, io);
    case 'audit':
      return runAuditCommand(rest, io);
    case 'merge':
      return runMergeCommand(rest, io);
    case 'signal':
      return runSignalCommand(rest, io);
    case 'compare':
      return runCompareCommand(rest, io);
    case 'import':
      return runImportCommand(rest, io);
    case '--version':
    case '-V':
      io.out(heraldVersion);
      return 0;
    case 'help':
    case '--help':
    case '-h':
      io.out(usage);
      return 0;
    default:
      io.err(command === undefined ? usage : `${escapeControls(`herald: unknown command '${command}'`)}\n${usage}`);
      return usageExit;
  }
}

killRunsOnInterrupt();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`herald: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 3;
  },
);
