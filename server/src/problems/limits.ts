// The engine's limits: how large a spec, its expressions, its lattice and its resampling may be.
// Each is enforced where it is first known, with an issue code and a message naming the limit, so
// nothing past a limit reaches a stage that would exhaust the stack or the heap. docs/language.md
// lists them ("Limits"), and test/syntax/limits.test.ts holds that table to these values.

/**
 * A spec longer than this many characters (UTF-16 code units, as editors count) is not parsed,
 * checked or analysed: one `spec-too-large` problem at its start says so. About 1 MB of text.
 */
export const maxSpecLength = 1_000_000;

/**
 * How deep an expression may nest as written, counted over tokens before parsing: each open
 * parenthesis (or call), and within it each operator, `not`, unary minus, member access and
 * quantifier (`nesting-too-deep`). The parser recurses once per level, the checker, compiler and
 * formatter walk the tree: 64 leaves a wide margin below the ~180 levels that exhaust a default stack.
 */
export const maxExpressionNesting = 64;

/**
 * How deep a declaration's expression may nest with the signals, detectors and base rewards it
 * uses counted in place (`nesting-too-deep`): the compiled evaluator recurses through them.
 */
export const maxDependencyNesting = 256;

/**
 * Detectors in one audit's lattice (`lattice-too-large`). The lattice scores all 2^k subsets for
 * every attack; at 12 (4,096 subsets) an audit of the sample pool takes ~20 s and ~170 MB.
 */
export const maxLatticeDetectors = 12;

/** Bootstrap resamples (`setting-too-large`): every resample draw holds clusters × resamples indices. */
export const maxBootstrapResamples = 10_000;

/** Points of an audit's penalty-scale sweep (`setting-too-large`): each re-scores every attack. */
export const maxSweepPoints = 100;

/**
 * Citations of one pool row (a longer row is skipped with a reason). An attack edits each citation
 * position and evaluates every edited copy in full, so a row costs citations² × candidates: 256
 * citations under `lexical(8)` take under a second; 1,000 took 10 s and 2,000 took 35 s.
 */
export const maxCitationsPerRow = 256;

/**
 * Instructions of a compiled `matches` pattern (`bad-pattern`). RE2 matches in time linear in the
 * text, times the program's size when its DFA gives way to the NFA: `a[ab]{999}$` (1,003
 * instructions) took 31 s on 1 MB of random `a`/`b` text, `a[ab]{20}$` (24) 0.9 s.
 */
export const maxPatternInstructions = 1_000;

/**
 * Work of one `matches` call: the pattern's instructions times the text's characters. Past it the
 * analysis stops with `audit-failed` naming the term and the row (the worst case at the bound is
 * about 10 s); a 25-instruction pattern reads texts of up to about 10 million characters.
 */
export const maxPatternWork = 2 ** 28;

/**
 * Rows in one Parquet file (TRL completions, ART trajectories; a file past it is one skipped record).
 * The reader makes an object per row, and a repeated value compresses to nothing: 5M rows of one
 * value fit in 4 KB and aborted Node at 4.4 GB. A file holds one training step (batch × generations:
 * thousands of rows); at the ~200 bytes a short logged completion takes compressed, one at the
 * 128 MiB input limit holds under a million. A million small rows import in ~30 s at 2.6 GB.
 */
export const maxParquetRows = 1_000_000;

/**
 * Values in one Parquet file: a flat column holds one per row, a list column (ART's messages) one per
 * element. The reader allocates an array slot per value before it makes a row, and a run-length
 * encoded page holds millions in a few bytes: this bounds its arrays as the row limit bounds its
 * objects. A TRL row has about 7 (step, prompt, completion, rewards, advantage), an ART message 4.
 */
export const maxParquetValues = 16_000_000;

/**
 * Bytes one Parquet file decodes to: what its footer and page headers claim (each page is allocated
 * at its claimed size), and what its rows hold once read, a dictionary value counted in every row
 * that holds it (one 1 MiB prompt in the dictionary of 1,100 rows is 1.1 GiB of records, from a
 * 50 KB file). 8 times the 128 MiB input limit: logged text compresses 2–5 times and a GRPO group
 * repeats its prompt; 1 GiB of shared prompts imports in ~70 s at 2.8 GB.
 */
export const maxParquetDecodedBytes = 1024 * 1024 * 1024;

/**
 * How many times its own size a Parquet file's pages may claim to decode to. Logged text compresses
 * 2–10 times, and Snappy cannot expand more than about 20 times; repeated values are dictionary- and
 * run-length-encoded before compression, which keeps the pages small. A small file claiming more
 * (the 1 GiB limit from a 1 MB file) is refused before a page is allocated.
 */
export const maxParquetExpansion = 1_000;
