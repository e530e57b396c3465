// An audit cut into shards (audit/shards.ts) that separate runs prepare, then merged, gives the
// report one run over every row gives, byte for byte, whatever the shards' order; a merge refuses
// files that are not every shard of one run of the spec over the data it reads now.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditSpec, type AuditSpecOptions } from '../../server/src/audit/audit-spec.js';
import { decodePartial, encodePartial, mergedParts, parseShard, shardRanges, type PartialFile, type Shard } from '../../server/src/audit/shards.js';
import { maxRowsPerRange } from '../../server/src/edits/prepare.js';
import { heraldVersion } from '../../server/src/version.js';
import { tempDir } from '../pool/temp-files.js';

const run = (text: string, specFile: string, options: AuditSpecOptions) => auditSpec(text, specFile, { candidateCache: false, ...options });

/** Shard `index` of `count` as `herald audit --shard` writes it, read back as `herald merge` reads it. */
async function shardFile(text: string, specFile: string, shard: Shard, only?: string): Promise<PartialFile> {
  const outcome = await run(text, specFile, { only, shards: { write: shard } });
  assert.equal(outcome.report, undefined);
  assert.ok(outcome.shards, JSON.stringify(outcome.failures));
  const written: PartialFile = { format: 'herald-partial', version: 1, tool: heraldVersion, spec: { path: specFile, sha256: 'x' }, shard, audits: outcome.shards };
  const read = decodePartial(encodePartial(written));
  assert.ok(typeof read !== 'string', String(read));
  return read;
}

const json = (outcome: Awaited<ReturnType<typeof auditSpec>>): string => JSON.stringify({ report: outcome.report, failures: outcome.failures, dataIssues: outcome.dataIssues }, null, 2);

describe('shards of an audit, merged', () => {
  for (const spec of ['samples/paper.reward', 'samples/attacks.reward', 'samples/deep-research/edits.reward']) {
    it(`give the one-run report of ${spec} byte for byte, three shards merged in any order`, async () => {
      const specFile = path.resolve(spec);
      const text = fs.readFileSync(specFile, 'utf8');
      const whole = json(await run(text, specFile, { workers: 1 }));
      const files = await Promise.all([0, 1, 2].map((index) => shardFile(text, specFile, { index, count: 3 })));
      const merged = await run(text, specFile, { shards: { merge: [files[2]!, files[0]!, files[1]!] } });
      assert.equal(json(merged), whole);
    });
  }

  it('of one audit (--audit) merge into that audit alone', async () => {
    const specFile = path.resolve('samples/paper.reward');
    const text = fs.readFileSync(specFile, 'utf8');
    const whole = json(await run(text, specFile, { only: 'replication', workers: 1 }));
    const files = await Promise.all([0, 1].map((index) => shardFile(text, specFile, { index, count: 2 }, 'replication')));
    assert.equal(json(await run(text, specFile, { only: 'replication', shards: { merge: files } })), whole);
  });

  it('refuse a merge that misses a shard, has one twice, or reads other data than the shards did', async () => {
    const specFile = path.resolve('samples/attacks.reward');
    const text = fs.readFileSync(specFile, 'utf8');
    const files = await Promise.all([0, 1, 2].map((index) => shardFile(text, specFile, { index, count: 3 })));
    const failure = async (merge: PartialFile[], spec = text): Promise<string> => {
      const outcome = await run(spec, specFile, { shards: { merge } });
      assert.equal(outcome.report, undefined);
      return outcome.failures.map((f) => f.reason).join('\n');
    };
    assert.match(await failure([files[0]!, files[2]!]), /shard 1\/3 missing/);
    assert.match(await failure([files[0]!, files[1]!, files[1]!]), /shard 1\/3 is given twice/);
    // A detector defined otherwise reads the data otherwise: the shards' edits are not this spec's.
    const edited = text.replace(/^(detector L .*=)/m, '$1 has_final and');
    assert.notEqual(edited, text);
    assert.match(await failure(files, edited), /prepared from another spec or other data/);
  });

  it('refuse an audit whose candidates are computed by a program: it runs whole', async () => {
    const specFile = path.resolve('samples/dense/dense.reward');
    const outcome = await run(fs.readFileSync(specFile, 'utf8'), specFile, { shards: { write: { index: 0, count: 2 } } });
    assert.equal(outcome.shards, undefined);
    assert.match(outcome.failures[0]?.reason ?? '', /computed by a program cannot be sharded/);
  });
});

describe('shard ranges', () => {
  it('cover every row once, in order, each shard a block cut as a preparation cuts ranges', () => {
    for (const [rows, count] of [[0, 1], [1, 3], [10, 3], [12_345, 4], [3 * maxRowsPerRange + 7, 2]] as const) {
      const ranges = Array.from({ length: count }, (_, index) => shardRanges(rows, { index, count })).flat();
      let next = 0;
      for (const { from, to } of ranges) {
        assert.equal(from, next);
        assert.ok(to > from && to - from <= maxRowsPerRange);
        next = to;
      }
      assert.equal(next, rows);
    }
  });

  it('--shard takes I/N counted from 0', () => {
    assert.deepEqual(parseShard('0/3'), { index: 0, count: 3 });
    assert.deepEqual(parseShard('2/3'), { index: 2, count: 3 });
    for (const bad of ['3/3', '1/0', '-1/2', 'a/b', '1', '1/2/3', ' 1/2']) assert.equal(typeof parseShard(bad), 'string', bad);
  });

  it('merged parts: every row once, under one key', () => {
    const part = (from: number, to: number) => ({ from, to, part: {} as never });
    const file = (index: number, count: number, parts: ReturnType<typeof part>[], key = 'k'): PartialFile => ({
      format: 'herald-partial', version: 1, tool: heraldVersion, spec: { path: 's', sha256: 'h' }, shard: { index, count }, audits: [{ name: 'a', key, rows: 10, parts }],
    });
    assert.equal((mergedParts('a', 'k', 10, [file(1, 2, [part(5, 10)]), file(0, 2, [part(0, 5)])]) as unknown[]).length, 2);
    assert.match(String(mergedParts('a', 'k', 10, [file(0, 2, [part(0, 4)]), file(1, 2, [part(5, 10)])])), /do not cover its 10 rows/);
    assert.match(String(mergedParts('a', 'k', 10, [file(0, 2, [part(0, 5)]), file(1, 3, [part(5, 10)])])), /different counts/);
    assert.match(String(mergedParts('a', 'k', 10, [file(0, 2, [part(0, 5)]), file(1, 2, [part(5, 10)], 'other')])), /another spec or other data/);
    assert.match(String(mergedParts('b', 'k', 10, [file(0, 1, [part(0, 10)])])), /has no audit 'b'/);
  });
});

describe('partial files', () => {
  const temp = tempDir();
  it('are refused, not crashed on, when they are something else, damaged or of another version', () => {
    const valid: PartialFile = { format: 'herald-partial', version: 1, tool: heraldVersion, spec: { path: 's', sha256: 'h' }, shard: { index: 0, count: 1 }, audits: [] };
    assert.equal(typeof decodePartial(encodePartial(valid)), 'object');
    temp.write('report.json', '{"audits": []}');
    assert.match(String(decodePartial(fs.readFileSync(path.join(temp.dir, 'report.json')))), /not a partial file/);
    assert.match(String(decodePartial(encodePartial({ ...valid, tool: '0.0.1' }))), /written by herald 0\.0\.1/);
    const damaged = { ...valid, audits: [{ name: 'a', key: 'k', rows: 1, parts: [{ from: 0, to: 1, part: { originalValues: [1] } }] }] } as unknown as PartialFile;
    assert.match(String(decodePartial(encodePartial(damaged))), /^a damaged partial file: audits\.0\.parts\.0\.part\./);
    const bytes = encodePartial(valid);
    assert.equal(typeof decodePartial(bytes.subarray(0, bytes.length - 3)), 'string');
  });
});
