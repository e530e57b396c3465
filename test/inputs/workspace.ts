// A workspace folder beside an "outside" folder, for the tests of what a spec may read: the
// sample corpus and pool copied in, small specs that link them, and helpers for links and FIFOs.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after } from 'node:test';

export const samplePools = path.resolve('samples/pools');

export interface Workspace {
  /** Holds the workspace and the outside folder. */
  readonly root: string;
  /** The workspace folder: `data/corpus.jsonl` and `data/hotpot.jsonl` are copies of the samples. */
  readonly dir: string;
  /** A folder beside the workspace: `corpus.jsonl`, `hotpot.jsonl` (copies too), `secret.txt`. */
  readonly outside: string;
  /** Writes a file in the workspace and returns its path. */
  write(name: string, content: string | Buffer): string;
  /** Makes `name` in the workspace a symbolic link to `target` (replacing what was there). */
  link(name: string, target: string): string;
  /** Makes `name` in the workspace a FIFO (nobody ever writes to it). */
  fifo(name: string): string;
}

/** The distinctive content of the outside secrets file: no output may ever hold it. */
export const secret = 'hunter2-4f1c9e';

/** A fresh workspace under the OS temp folder, removed after the enclosing suite. */
export function workspace(): Workspace {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'herald-inputs-')));
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  const dir = path.join(root, 'workspace');
  const outside = path.join(root, 'outside');
  fs.mkdirSync(path.join(dir, 'data'), { recursive: true });
  fs.mkdirSync(outside);
  for (const name of ['corpus.jsonl', 'hotpot.jsonl']) {
    fs.copyFileSync(path.join(samplePools, name), path.join(dir, 'data', name));
    fs.copyFileSync(path.join(samplePools, name), path.join(outside, name));
  }
  fs.writeFileSync(path.join(outside, 'secret.txt'), `TOKEN=${secret}\n{"token": "${secret}", "id": 7}\n`);
  const inWorkspace = (name: string): string => {
    const file = path.join(dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.rmSync(file, { force: true });
    return file;
  };
  return {
    root, dir, outside,
    write(name, content) {
      const file = inWorkspace(name);
      fs.writeFileSync(file, content);
      return file;
    },
    link(name, target) {
      const file = inWorkspace(name);
      fs.symlinkSync(target, file);
      return file;
    },
    fifo(name) {
      const file = inWorkspace(name);
      makeFifo(file);
      return file;
    },
  };
}

/** An audit over one pool (launder with lexical(2) over the sample corpus): about a second. */
export function auditSpec(corpus: string, pool: string, extra = ''): string {
  return `corpus wiki = ${JSON.stringify(corpus)}
pool hotpot = ${JSON.stringify(pool)}

detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved

reward R0 {
  answer    1.0 * token_f1(answer, gold.answers)
  grounding 0.6 * grounding(citations, gold.answers)
}
reward R_L = R0 - 1.2 * L

audit quick {
  reward R0
  compare R_L
  corpus wiki
  pools hotpot
  attack launder targets L using lexical(2)
  lattice L = 1.2
${extra}}
`;
}

/**
 * A candidates command for consent tests (`node mark.js`, written by `writeMarkingProgram`): each
 * run appends a line to `ran.txt` in its folder, then answers every request with no candidates.
 */
export const markingCommand = 'node mark.js';

export function writeMarkingProgram(folder: string): void {
  fs.writeFileSync(path.join(folder, 'mark.js'), `const fs = require('node:fs');
fs.appendFileSync('ran.txt', 'run\\n');
for (const l of fs.readFileSync(0, 'utf8').split('\\n').filter((x) => x.trim() !== '')) console.log(JSON.stringify({ request: JSON.parse(l).request, candidates: [] }));
`);
}

/** How many times the marking program ran in `folder`. */
export function markingRuns(folder: string): number {
  const file = path.join(folder, 'ran.txt');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').length : 0;
}

/** A comparison of a pool with itself whose attack reads a candidates file. */
export function comparisonSpec(corpus: string, pool: string, candidates: string): string {
  return `corpus wiki = ${JSON.stringify(corpus)}
pool base = ${JSON.stringify(pool)}
pool treated = ${JSON.stringify(pool)}

detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved

reward R0 {
  answer 1.0 * token_f1(answer, gold.answers)
}

comparison paired {
  reward R0
  corpus wiki
  base base
  treatment treated
  detectors L
  attack launder targets L using candidates ${JSON.stringify(candidates)}
}
`;
}

/**
 * Makes a FIFO at `file`. Node has no mkfifo, so this runs coreutils' by absolute path: coreutils is
 * essential on Debian, and `npm run test:bare` hides PATH (throws, never skips, if it is missing).
 */
export function makeFifo(file: string): void {
  execFileSync('/usr/bin/mkfifo', [file]);
}
