// `npm run bench:reaudit`: only the re-audit lines of `npm run bench` (test/bench/scale-child.ts,
// `reaudit`), at 58,368 rows or the first of BENCH_SIZES, with the floor of the same size measured
// in the same run. Generates the pool if needed; prints its lines and writes no run file.
import * as path from 'node:path';
import { generateScaled } from '../../samples/generator/scaled.js';
import { childResults } from './run-record.js';
import { benchRoot, failUnlessIdentical, reauditLines, reauditSizeOf, runScaleChild, sizesOf } from './scale.bench.js';

const size = reauditSizeOf(sizesOf());
generateScaled({ outDir: benchRoot, seed: '2608', corpusSize: 100_000, sizes: [size] });
const dir = path.join(benchRoot, String(size));
const floor = runScaleChild('floor', dir, childResults.floor);
const reaudit = { floorMs: floor.ms, result: runScaleChild('reaudit', dir, childResults.reaudit) };
for (const line of reauditLines(reaudit)) console.log(line);
failUnlessIdentical(reaudit);
