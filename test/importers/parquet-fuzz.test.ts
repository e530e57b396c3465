// Issue 33: the two Parquet importers (TRL, ART) on random truncations and byte mutations of their
// fixture files in every codec, seeded so a failure replays: the importer never throws, no case takes
// more than a few seconds, and the run's peak memory stays bounded. The counts go to the test output.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { ImportFile } from '../../server/src/importers/importer.js';
import { importerFor } from '../../server/src/importers/registry.js';
import { artParquet, trlParquet } from './parquet-fixtures.js';
import type { ArtMessage, Codec } from './parquet-fixtures.js';

const seed = 33;
const casesPerFile = 50;
/** A case is a few KB: anything near this is a hang. */
const maxCaseMs = 5_000;
/** What the test process may reach over the whole run (it starts near 100 MB). */
const maxRssBytes = 512 * 1024 * 1024;

const codecs: Codec[] = ['ZSTD', 'GZIP', 'SNAPPY', 'UNCOMPRESSED'];
const message = (role: string, content: string | null, tool_calls: string | null = null, tool_call_id: string | null = null): ArtMessage => ({ role, content, tool_calls, tool_call_id });
const call = JSON.stringify([{ id: 'c0', type: 'function', function: { name: 'search', arguments: '{"query": "Nekaikras"}' } }]);

function artFile(codec: Codec): ImportFile {
  const trajectory = (answer: string): ArtMessage[] => [
    message('user', 'Where was Grailaind Nekaikras born?'),
    message('assistant', null, call),
    message('tool', 'Doc 1(Title: Rukal) A town.\nDoc 2(Title: Neipal) Another.', null, 'c0'),
    message('assistant', answer),
  ];
  const rows = [0, 1, 2, 3].map((i) => ({ group_index: i >> 1, reward: i % 2, metadata: JSON.stringify({ question_id: `q${i >> 1}`, answers: ['Rukal'] }), messages: trajectory(i % 2 === 0 ? 'Rukal' : 'Neipal') }));
  return artParquet(`art-${codec}.parquet`, rows, codec);
}

function trlFile(codec: Codec): ImportFile {
  const rows = [0, 1, 2, 3, 4, 5].map((i) => ({ step: 10, prompt: `Question ${i >> 1}: who wrote it?`, completion: `<think>hm</think><answer>${i}</answer>`, accuracy_reward: i % 2, advantage: i / 10 }));
  return trlParquet(`trl-${codec}.parquet`, rows, codec);
}

/**
 * One change to a file: cut it, overwrite bytes anywhere, in its pages (what is decoded) or in its
 * footer (where the claims are), or cut it and overwrite bytes.
 */
type Mutation = { kind: 'cut'; at: number } | { kind: 'bytes' | 'pages' | 'footer'; edits: [number, number][] } | { kind: 'cut-bytes'; at: number; edits: [number, number][] };

const edits = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 });
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('bytes' as const), edits }),
  fc.record({ kind: fc.constant('pages' as const), edits }),
  fc.record({ kind: fc.constant('footer' as const), edits }),
  fc.record({ kind: fc.constant('cut-bytes' as const), at: fc.nat(), edits }),
);

function mutated(bytes: Uint8Array, m: Mutation): Uint8Array {
  const cutAt = m.kind === 'cut' || m.kind === 'cut-bytes' ? 4 + (m.at % Math.max(1, bytes.length - 4)) : bytes.length;
  const out = bytes.slice(0, cutAt);
  if (m.kind === 'cut') return out;
  // Page edits land between the leading magic and the footer; footer edits in the footer (its length is the 4 bytes before the closing magic).
  const footerStart = bytes.length - 8 - new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
  const place = (at: number): number => {
    if (m.kind === 'pages') return 4 + (at % (footerStart - 4));
    if (m.kind === 'footer') return footerStart + (at % (out.length - 8 - footerStart));
    return at % out.length;
  };
  for (const [at, value] of m.edits) out[place(at)] = value;
  return out;
}

describe('Parquet importers: fuzzed files', () => {
  it('TRL and ART never throw, hang or run away with memory on cut and mutated files', async (t) => {
    const seeds = [...codecs.map((c) => ['art', artFile(c)] as const), ...codecs.map((c) => ['trl', trlFile(c)] as const)];
    const failures: string[] = [];
    const slow: string[] = [];
    let cases = 0;
    let slowest = 0;
    // How each case ended: some rows imported, or the file refused whole and why.
    const outcomes = new Map<string, number>();
    const tally = (key: string): void => void outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    for (const [index, [format, file]] of seeds.entries()) {
      const importer = importerFor(format);
      assert.ok(importer !== undefined);
      const mutations = fc.sample(mutation, { seed: seed + index, numRuns: casesPerFile });
      for (const [k, m] of mutations.entries()) {
        cases += 1;
        const bytes = mutated(file.bytes, m);
        const label = `${file.path} case ${k} (seed ${seed + index}): ${JSON.stringify(m)}`;
        const start = performance.now();
        try {
          const outcome = await importer.run([{ path: file.path, bytes }], {});
          assert.ok(outcome.ok, label);
          const reasons = outcome.result.skipped.map((s) => s.reason);
          const whole = reasons.find((r) => /^(a truncated or damaged Parquet file|too large to read|the Parquet reader failed|not a Parquet file|not an? )/.test(r));
          tally(outcome.result.counts.imported > 0 ? 'rows imported' : (whole?.replace(/:.*/, '').replace(/ \(.*/, '') ?? 'every row skipped'));
          // A file that begins like Parquet is never read as text.
          if (bytes[0] === 0x50 && bytes[1] === 0x41 && bytes[2] === 0x52 && bytes[3] === 0x31) {
            assert.ok(!reasons.some((r) => r.includes('UTF-8')), `${label}: ${reasons.join('; ')}`);
          }
        } catch (error) {
          failures.push(`${label}: ${error instanceof Error ? error.stack : String(error)}`);
        }
        const ms = performance.now() - start;
        slowest = Math.max(slowest, ms);
        if (ms > maxCaseMs) slow.push(`${label}: ${ms.toFixed(0)} ms`);
      }
    }
    const peakRss = process.resourceUsage().maxRSS * 1024;
    t.diagnostic(`parquet fuzz: ${cases} cases (${seeds.length} files × ${casesPerFile}, seeds ${seed}–${seed + seeds.length - 1}): ${[...outcomes].map(([k, n]) => `${n} ${k}`).join(', ')}; crashes ${failures.length}, hangs ${slow.length} (slowest ${slowest.toFixed(0)} ms), peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`);
    assert.deepEqual(failures, []);
    assert.deepEqual(slow, []);
    assert.ok(peakRss < maxRssBytes, `peak RSS ${peakRss} bytes`);
  });
});
