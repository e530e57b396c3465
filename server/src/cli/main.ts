import { auditUsage, runAuditCommand } from './audit-command.js';
import { runCheck } from './check-command.js';
import { compareUsage, runCompareCommand } from './compare-command.js';
import { runSignalCommand, signalUsage } from './signal-command.js';
import { escapeControls } from '../report/escape-text.js';

const usage = `usage: herald <command> [options]

commands:
  check <spec.reward…>   parse and check specs; prints file:line:col: severity code message
                         exit 0 when clean (warnings allowed), 1 on errors, 2 on unreadable input
  audit <spec.reward>    run the spec's HERALD audits (see herald audit --help)
  signal <spec.reward>   does a detector's penalty reach a group-normalised optimizer? (herald signal --help)
  compare <spec.reward>  paired comparison of two trained policies' evaluation logs (herald compare --help)
  help                   this text

${auditUsage}

${signalUsage}

${compareUsage}`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const io = {
    out: (line: string) => process.stdout.write(`${line}\n`),
    err: (line: string) => process.stderr.write(`${line}\n`),
    write: (text: string) => process.stdout.write(text),
  };
  switch (command) {
    case 'check':
      return runCheck(rest, io);
    case 'audit':
      if (rest.includes('--help') || rest.includes('-h')) {
        io.out(auditUsage);
        return 0;
      }
      return runAuditCommand(rest, io);
    case 'signal':
      if (rest.includes('--help') || rest.includes('-h')) {
        io.out(signalUsage);
        return 0;
      }
      return runSignalCommand(rest, io);
    case 'compare':
      if (rest.includes('--help') || rest.includes('-h')) {
        io.out(compareUsage);
        return 0;
      }
      return runCompareCommand(rest, io);
    case 'help':
    case '--help':
    case '-h':
      io.out(usage);
      return 0;
    default:
      io.err(command === undefined ? usage : `${escapeControls(`herald: unknown command '${command}'`)}\n${usage}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`herald: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 3;
  },
);
