// What the log writers read (foreign-logs-main.ts, real-rewards-logs*.ts): JSON Lines files and the
// `--pools DIR` / `--out DIR` options, the same for each.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CorpusPassage } from './search-r1-dump.js';

export function readJsonl<T>(file: string): T[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as T);
}

/** The value after `name` on the command line, or `fallback`. */
export function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : (process.argv[at + 1] ?? fallback);
}

/** The sample corpus of a pools folder, by passage id. */
export function corpusOf(poolsDir: string): Map<string, CorpusPassage> {
  return new Map(readJsonl<{ id: string } & CorpusPassage>(path.join(poolsDir, 'corpus.jsonl')).map((p) => [p.id, { title: p.title, text: p.text }]));
}
