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
 * Work of one pattern call: the pattern's instructions times the characters its searches may read
 * (`matches` and `first_match` search once; `last_match`, `all_matches` and `count_matches` search
 * again after each match, and each search may read to the end of the text). Past it the
 * analysis stops with `audit-failed` naming the term and the row (the worst case at the bound is
 * about 10 s); a 25-instruction pattern reads texts of up to about 10 million characters.
 */
export const maxPatternWork = 2 ** 28;

/**
 * Operations of one `edit` (`bad-edit`). Each applies, on every variant, to the trajectory the
 * ones before it left; the prelude's edits take one, the paper's attacks at most two, so 32 leaves
 * room for any edit written by hand and none that is generated to blow up.
 */
export const maxEditOperations = 32;

/**
 * Steps and citations one edit may add to a trajectory, together. Past it the analysis stops with
 * `audit-failed` naming the edit and the row, before the longer lists are built: 30 operations
 * `duplicate all s in steps` doubled a row's steps to 4.1 GB in 74 s before V8 gave up.
 */
export const maxEditAddedElements = 10_000;

/**
 * Characters one edit may add to a trajectory's answer and final text, together (`audit-failed`,
 * naming the edit and the row). 40 operations `set answer = concat(answer, answer)` passed V8's
 * longest string and crashed; every feature of every variant reads these texts again.
 */
export const maxEditAddedCharacters = 10_000_000;

/**
 * Skipped rows listed one by one per data file (`bad-rows`): in a finding's rows (the editor's
 * related information, SARIF's related locations, the CLI's `file:line: reason` lines) and in a
 * pool's report section (`issues`). The rest are counted ("… and N more"): a pool of 80,000 bad rows
 * would otherwise be 80,000 related locations in one diagnostic, and as many lines on stderr.
 */
export const maxListedRows = 100;

/**
 * Row diagnostics of one open data file (`bad-rows`, `unresolved-ids` on its lines): past them one
 * last diagnostic counts the rest. 80,000 in one message stalled the editor's main thread ~2 s.
 */
export const maxRowDiagnostics = 1_000;

/**
 * Patterns one glob link's `{a,b}` lists make when multiplied out (`unreadable-file` on the link):
 * every file the walk passes is matched against each, so `{a,b}` written 40 times over would be
 * 2⁴⁰ patterns. 256 is `{a,b}` eight times over.
 */
export const maxGlobAlternatives = 256;

/**
 * Character comparisons one glob link's walk may make matching names (`unreadable-file` on the
 * link). A name against a segment costs at most their lengths multiplied (`*aaaa…ab` against a
 * long name), times the patterns its lists make, times the 100,000 entries a walk may pass: past
 * this bound (about a second) the walk stops rather than freeze the editor. Usual globs make a
 * few comparisons per name.
 */
export const maxGlobWork = 2 ** 28;

/**
 * How deep a JSON value of an imported record may nest (objects and arrays, counted from the record
 * itself). Writing and checking a row walk its values recursively: 100,000 levels exhausted the
 * stack of `JSON.stringify`. The frameworks' logs nest about 12 levels (an rllm episode down to a
 * tool call's arguments), so 64 leaves a wide margin.
 */
export const maxImportNesting = 64;

/**
 * Steps of one imported row. Agent logs hold tens to a few hundred turns (BrowseComp-Plus runs of
 * deep-research agents, the longest, a few hundred tool calls); 20,000 leaves a wide margin and
 * bounds what one hostile record costs every analysis that reads the pool.
 */
export const maxImportedSteps = 20_000;

/** Results of one imported step: search tools return a top-k of 3 to 100; 1,000 leaves a wide margin. */
export const maxImportedResults = 1_000;

/** Tool calls of one imported chat record (messages of rllm, ART, TRL, BrowseComp-Plus): a few hundred at most in real runs. */
export const maxImportedToolCalls = 10_000;

/**
 * Tags of one tagged transcript (verl, SkyRL, R1-Searcher): each `<think>`, call, observation or
 * `<answer>` block opened. A Search-R1 response holds a few per turn, over at most tens of turns.
 */
export const maxTranscriptTags = 20_000;

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
