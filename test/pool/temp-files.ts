// Temporary fixture files for the loader tests, removed when the test ends.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after } from 'node:test';

export interface TempDir {
  readonly dir: string;
  /** Writes `content` exactly (no newline added) and returns the path. */
  write(name: string, content: string | Buffer): string;
}

/** A fresh folder under the OS temp dir, deleted after the enclosing suite. */
export function tempDir(): TempDir {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-pool-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    write(name, content) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, content);
      return file;
    },
  };
}

/** JSONL text of the given rows, one per line, with a final newline. */
export function jsonl(rows: readonly unknown[], eol = '\n'): string {
  return rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join(eol) + eol;
}

/** A valid v1 pool row; `overrides` replace top-level fields. */
export function poolRow(id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    question_id: `q-${id}`,
    question: 'What is the capital of France?',
    steps: [
      { type: 'search', query: 'capital of france', results: ['w:1', 'w:2'] },
      { type: 'invalid', text: '<search>' },
    ],
    final: { answer: 'Paris', citations: ['w:2'], text: '<answer>Paris</answer> [w:2]' },
    gold: { answers: ['Paris'], support_ids: ['w:2'] },
    meta: { model: 'qwen3-8b', sample: 3, group: 'g-1' },
    ...overrides,
  };
}
