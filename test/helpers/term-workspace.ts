// A folder for the tests of fields and rewards computed by a program (issue 36): some of the
// search-r1 sample's verl rollout dumps, read `from verl(dialect: search_r1)` so requests carry
// rendered text, and the Node program test/fixtures/command-terms/reward.mjs, which speaks the
// protocol without Python and records its runs and the requests it was sent under `out/`.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after } from 'node:test';

/** The protocol-speaking program; each workspace holds a copy, so a test may edit it. */
export const rewardProgram = path.resolve('test/fixtures/command-terms/reward.mjs');

/** The corpus the search-r1 rollouts resolve their results against. */
export const sampleCorpus = path.resolve('samples/pools/corpus.jsonl');

const rollouts = path.resolve('samples/search-r1/rollout');

export interface TermWorkspace {
  readonly dir: string;
  /** A folder beside `dir`, for a cache. */
  readonly root: string;
  /** Writes a file in the workspace and returns its path. */
  write(name: string, content: string): string;
  /** How many times the program ran with `--record out/NAME`. */
  runs(name: string): number;
  /** The request lines the program was sent with `--record out/NAME`, parsed, over all its runs. */
  requests(name: string): Record<string, unknown>[];
  /** Forgets what the program recorded. */
  clear(): void;
}

/** A fresh folder under the OS temp folder with `rollout/N.jsonl` for each of `files` and `reward.mjs`; removed after the suite. */
export function termWorkspace(files: readonly number[]): TermWorkspace {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'herald-terms-')));
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  const dir = path.join(root, 'workspace');
  fs.mkdirSync(path.join(dir, 'rollout'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'out'));
  for (const n of files) fs.copyFileSync(path.join(rollouts, `${n}.jsonl`), path.join(dir, 'rollout', `${n}.jsonl`));
  fs.copyFileSync(rewardProgram, path.join(dir, 'reward.mjs'));
  const lines = (file: string): string[] => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : []);
  return {
    dir, root,
    write(name, content) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, content);
      return file;
    },
    runs: (name) => lines(path.join(dir, 'out', `${name}.runs`)).length,
    requests: (name) => lines(path.join(dir, 'out', `${name}.requests.jsonl`)).map((l) => JSON.parse(l) as Record<string, unknown>),
    clear() {
      fs.rmSync(path.join(dir, 'out'), { recursive: true, force: true });
      fs.mkdirSync(path.join(dir, 'out'));
    },
  };
}

/** The head of a spec over the workspace's rollouts, read through verl. */
export const rolloutPool = `corpus wiki = ${JSON.stringify(sampleCorpus)}
pool rollouts = "rollout/*.jsonl" from verl(dialect: search_r1)
`;
