import { runCheck } from './check-command.js';

const usage = `usage: herald <command> [options]

commands:
  check <spec.reward…>   parse and check specs; prints file:line:col: severity code message
                         exit 0 when clean (warnings allowed), 1 on errors, 2 on unreadable input
  help                   this text`;

function main(argv: readonly string[]): number {
  const [command, ...rest] = argv;
  const io = { out: (line: string) => process.stdout.write(`${line}\n`), err: (line: string) => process.stderr.write(`${line}\n`) };
  switch (command) {
    case 'check':
      return runCheck(rest, io);
    case 'help':
    case '--help':
    case '-h':
      io.out(usage);
      return 0;
    default:
      io.err(command === undefined ? usage : `herald: unknown command '${command}'\n${usage}`);
      return 2;
  }
}

process.exitCode = main(process.argv.slice(2));
