// Issue 33, item 4 and 15: what a Parquet file claims (rows, values, decoded bytes) is checked against
// the file and the limits before a value is decoded, so a bomb is one skipped record naming the limit
// and the numbers; a file cut short or damaged says so (never "not UTF-8 text"), in both importers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parquetHeader } from 'hyparquet/src/column.js';
import { maxParquetDecodedBytes, maxParquetExpansion, maxParquetRows, maxParquetValues } from '../../server/src/problems/limits.js';
import { artParquet, billionRowClaim, claimingTrl, repeatedRows, sharedPrompt, trlParquet } from './parquet-fixtures.js';
import { importInWorker } from './import-in-worker.js';
import { reasons, runImporter } from './run-importer.js';

const shown = (n: number): string => n.toLocaleString('en-US');
const limitsDoc = '(see Limits in docs/language.md)';

/** The one reason an importer gives for a file it refuses whole, and the time it took. */
async function refusal(format: string, file: { path: string; bytes: Uint8Array }): Promise<{ reason: string; ms: number }> {
  const start = performance.now();
  const result = await runImporter(format, [file]);
  const ms = performance.now() - start;
  assert.deepEqual([result.counts.imported, result.skipped.length], [0, 1]);
  return { reason: reasons(result)[0]!, ms };
}

const trlFile = () => trlParquet('completions_00001.parquet', [{ step: 1, prompt: 'Who?', completion: '<answer>x</answer>', accuracy_reward: 1 }]);
const artFile = () => artParquet('0001.parquet', [{ group_index: 0, reward: 1, metadata: null, messages: [{ role: 'user', content: 'Who?', tool_calls: null, tool_call_id: null }, { role: 'assistant', content: 'x', tool_calls: null, tool_call_id: null }] }]);

describe('Parquet bombs: claims checked before decoding', () => {
  it('a 700-byte file whose footer claims 10⁹ rows is refused at once, in TRL and in ART', async () => {
    const bomb = billionRowClaim('bomb.parquet');
    assert.ok(bomb.bytes.length < 1024, `${bomb.bytes.length} bytes`);
    for (const format of ['trl', 'art']) {
      const { reason, ms } = await refusal(format, bomb);
      assert.equal(reason, `bomb.parquet:1: too large to read: the footer claims 1,000,000,000 rows; at most ${shown(maxParquetRows)} rows per Parquet file ${limitsDoc}`);
      assert.ok(ms < 1000, `${ms} ms`);
    }
  });

  it('a few-KB file of 5M rows of one repeated value is refused by the row limit, not decoded', async () => {
    const bomb = repeatedRows('repeated.parquet', 5_000_000);
    assert.ok(bomb.bytes.length < 8192, `${bomb.bytes.length} bytes`);
    const { reason, ms } = await refusal('trl', bomb);
    assert.equal(reason, `repeated.parquet:1: too large to read: the footer claims 5,000,000 rows; at most ${shown(maxParquetRows)} rows per Parquet file ${limitsDoc}`);
    assert.ok(ms < 1000, `${ms} ms`);
  });

  it('a footer that claims more rows than its pages hold is a damaged file', async () => {
    const file = claimingTrl('short.parquet', 3, (footer) => {
      footer.num_rows = 900_000n;
      for (const group of footer.row_groups) group.num_rows = 900_000n;
    });
    const { reason } = await refusal('trl', file);
    assert.equal(reason, "short.parquet:1: a truncated or damaged Parquet file: row group 0 claims 900,000 rows, and its column 'step' holds 3 values");
  });

  it('a footer whose row groups do not add up to its row count is a damaged file', async () => {
    const file = claimingTrl('sum.parquet', 3, (footer) => {
      footer.num_rows = 7n;
    });
    assert.equal((await refusal('trl', file)).reason, 'sum.parquet:1: a truncated or damaged Parquet file: the footer claims 7 rows and its row groups 3');
  });

  it('decoded sizes past the limit, or past the expansion a file of its size allows, are refused', async () => {
    const claim = (bytes: bigint) => claimingTrl('wide.parquet', 3, (footer) => {
      const meta = footer.row_groups[0]!.columns[0]!.meta_data!;
      meta.total_uncompressed_size = bytes;
    });
    const huge = await refusal('trl', claim(2n ** 31n));
    assert.match(huge.reason, new RegExp(`^wide\\.parquet:1: too large to read: the footer claims [\\d,]+ bytes of decoded data; at most ${shown(maxParquetDecodedBytes)} bytes per Parquet file \\(see Limits`));
    const expanded = await refusal('trl', claim(10_000_000n));
    assert.match(expanded.reason, new RegExp(`the footer claims [\\d,]+ bytes of decoded data in a file of [\\d,]+ bytes; a Parquet file may decode to at most ${shown(maxParquetExpansion)} times its size`));
  });

  it('pages that claim more values than the limit are refused from their headers', async () => {
    // 4.1M rows of 4 columns: 16.4M values; the footer's row count is lowered under the row limit.
    const rows = Math.ceil(maxParquetValues / 4) + 100_000;
    const file = claimingTrl('values.parquet', rows, (footer) => {
      footer.num_rows = BigInt(maxParquetRows);
      for (const group of footer.row_groups) group.num_rows = BigInt(maxParquetRows);
    });
    const { reason, ms } = await refusal('trl', file);
    assert.match(reason, new RegExp(`^values\\.parquet:1: too large to read: its pages claim [\\d,]+ values or more; at most ${shown(maxParquetValues)} values per Parquet file`));
    assert.ok(ms < 1000, `${ms} ms`);
  });

  it('a dictionary value shared by every row counts in every row: 1,100 rows of one 1 MiB prompt are refused', async () => {
    const file = sharedPrompt('shared.parquet', 1100, 2 ** 20);
    assert.ok(file.bytes.length < 2 ** 20, `${file.bytes.length} bytes`);
    const { reason, ms } = await refusal('trl', file);
    assert.match(reason, /^shared\.parquet:1: too large to read: its first 1,024 rows hold 1,07[\d,]+ bytes of values \(a dictionary value counts in every row that holds it\); at most /);
    assert.ok(reason.endsWith(`at most ${shown(maxParquetDecodedBytes)} bytes per Parquet file ${limitsDoc}`), reason);
    assert.ok(ms < 5000, `${ms} ms`);
  });

  it('a file within the limits reads as before', async () => {
    const result = await runImporter('trl', [repeatedRows('ok.parquet', 1000)]);
    assert.deepEqual([result.counts.read, result.counts.imported], [1000, 1000]);
  });
});

describe('a truncated Parquet file', () => {
  for (const [format, make] of [['trl', trlFile], ['art', artFile]] as const) {
    it(`${format}: cut anywhere after its magic, it is a truncated or damaged Parquet file, never text`, async () => {
      const whole = make();
      for (let cut = 4; cut < whole.bytes.length; cut += 1) {
        const result = await runImporter(format, [{ path: 'cut.parquet', bytes: whole.bytes.subarray(0, cut) }]);
        assert.deepEqual(result.rows, []);
        assert.deepEqual(reasons(result).map((r) => r.replace(/: a truncated or damaged Parquet file: .*/, '')), ['cut.parquet:1'], `cut at ${cut}: ${reasons(result).join('; ')}`);
      }
    });
  }
});

describe('files the fuzz test found that made hyparquet loop forever', () => {
  it('a schema element that claims -1 children: read (or refused) at once, on a worker with a deadline', async () => {
    const file = claimingTrl('children.parquet', 3, (footer) => {
      footer.schema[1]!.num_children = -1;
    });
    const outcome = await importInWorker('trl', [file]);
    assert.equal(outcome.kind, 'done', outcome.kind === 'done' ? '' : outcome.why);
  });

  it('a version-2 data page header without its levels\' lengths is a damaged file, not an endless read', async () => {
    const file = artFile();
    const bytes = file.bytes.slice();
    // Byte 18 is the first page's encoding (hyparquet-writer's layout); 0xA5 makes it a varint that swallows the levels' lengths.
    bytes[18] = 0xa5;
    const header = parquetHeader({ view: new DataView(bytes.buffer), offset: 4 });
    assert.equal(header.type, 'DATA_PAGE_V2');
    assert.equal(header.data_page_header_v2?.definition_levels_byte_length, undefined);
    const outcome = await importInWorker('art', [{ path: 'v2.parquet', bytes }]);
    assert.deepEqual(outcome, { kind: 'done', imported: 0, reasons: ["v2.parquet:1: a truncated or damaged Parquet file: column 'group_index' has a page header at byte 4 without the sizes and counts its page needs"] });
  });
});
