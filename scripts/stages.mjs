// The stages of the code, lowest first: ONE table, from which eslint.config.mjs generates the walls
// (scripts/eslint-walls.mjs) and `npm run docs` the table and drawing of docs/architecture.md (a test
// fails when the doc differs). Plain ESM, so the lint config, the docs writer and the tests read it.
//
// Each stage: `path` (a folder or a file, relative to the repository), what it `holds` (the doc's
// line), `mayImport`: the stages it may import (an allow-list: any other import that reaches a stage,
// or a folder of server/src that is no stage, is an error; `below` is every stage earlier in this
// table, but those in `except`), `typesOnly`: those it may import only with `import type`, and
// `uses`: the outside modules only some stages may import (`outsideModules`). Adding a stage is one
// entry here, after the stages it imports.

/** `mayImport: below`: every stage earlier in the table. */
export const below = 'below';

/** @typedef {'fileSystem' | 'processes' | 'languageServer' | 'vscode'} Capability */

/**
 * @typedef {object} Stage
 * @property {string} name
 * @property {string} path a folder or a file, relative to the repository
 * @property {string} holds
 * @property {'below' | readonly string[]} mayImport
 * @property {readonly string[]} [except] with `below`: earlier stages it still must not import
 * @property {readonly string[]} [typesOnly] of those it may import, the ones it imports types from only
 * @property {readonly Capability[]} [uses]
 */

/** @type {readonly Stage[]} */
export const stages = [
  { name: 'problems', path: 'server/src/problems', holds: 'every issue code with its doc (`issue-codes.ts`), `Problem`, `Span`, `LineIndex` (spans → LSP ranges, the only place positions are computed), the language\'s keywords (`vocabulary.ts`), the engine\'s limits (`limits.ts`), how a file\'s first line tells UTF-8 from UTF-16 or binary (`text-encoding.ts`, for specs and data files alike)', mayImport: [] },
  { name: 'stats', path: 'server/src/stats', holds: 'cluster estimands, the tie rule, exact zero-event bounds, the cluster bootstrap and its memo, paired intervals, seeded randomness', mayImport: [] },
  { name: 'version', path: 'server/src/version.ts', holds: 'the product version, as in package.json (a test keeps the two equal)', mayImport: [] },
  { name: 'report', path: 'server/src/report', holds: 'the report\'s zod schema (the contract: `schema.ts`, `schema-parts.ts`, `training-schema.ts`), the baseline file\'s shape, how every view writes a number (`format-numbers.ts`), the JSON Schema generator', mayImport: ['problems', 'version'] },
  { name: 'pool', path: 'server/src/pool', holds: 'the row formats of pools, corpora and candidate files (zod), row-level reasons, a corpus\'s order (`corpus-order.ts`: the places edits, rankings and threads number passages by)', mayImport: ['problems'] },
  { name: 'language', path: 'server/src/language', holds: 'the language\'s types and visibility, the trajectory view, typed runtime values, SQuAD normalisation, the one registry of built-ins with their implementations (each field\'s and function\'s read part), the words of the edit algebra with their write sets (`edit-vocabulary.ts`), the evaluation environment `EvalEnv`, counts of per-citation tests on an edit that swaps one citation (`citation-tally.ts`)', mayImport: ['problems', 'pool'] },
  { name: 'syntax', path: 'server/src/syntax', holds: 'Chevrotain lexer and parser, the generated CST types, the typed CST → AST functions', mayImport: ['problems'] },
  { name: 'importers', path: 'server/src/importers', holds: 'one importer per log format (verl, SkyRL, TRL, rllm, ART, BrowseComp-Plus, plain `messages`…): the bytes of the files a user names → pool rows in format v2, with the counts and notes every importer states (`importer.ts`); derived question ids and groups recovered from identical prompts (`derived-ids.ts`); the render direction, a row written back as its framework logs it (`render.ts`; the chat-message formats\' in `chat-render.ts` and, for BrowseComp-Plus\'s run items, `browsecomp-items.ts` and `browsecomp-render.ts`); **the one registry** (`registry.ts`), which checks the options and every row an importer produces (against the limits per record and for numbers JSON cannot write: `row-limits.ts`). Never opens a file: `inputs/` (a spec\'s `from FORMAT(…)` pool) and `cli/` (`herald import`) hand it the bytes', mayImport: ['problems', 'pool'] },
  { name: 'inputs', path: 'server/src/inputs', holds: '**the one list of the files a spec reads** (`spec-inputs.ts`) and of the programs it runs (`spec-commands.ts`), the path rule (`paths.ts`), glob links (`glob-files.ts`, matched in linear time by `glob-pattern.ts`), workspace trust, file probes, JSONL streaming and loaders, pools read through an importer (`import-pool.ts`; `pool-link.ts` tells a file, a glob and an import apart), the input cache, the ranking, BM25 index (`index-cache.ts`) and command caches (`cache-folder.ts`: their folder and files) and the per-request answers of command terms (`term-cache.ts`), the baseline file', mayImport: ['problems', 'syntax', 'pool', 'importers', 'report'], uses: ['fileSystem', 'processes'] },
  { name: 'semantics', path: 'server/src/semantics', holds: 'the checker: names, types, visibility, audit and block checks, linked-file problems (from `specInputs`), block option readers; edits (`check-edit.ts`) and the prelude of built-in edits (`prelude.ts`); the read sets of expressions (`read-set.ts`); frozen fields, the logged fields a pool cannot recompute after an edit, and the (reward, attack) pairs they freeze (`frozen-fields.ts`)', mayImport: below },
  { name: 'reward', path: 'server/src/reward', holds: 'the compiler: AST → evaluators tagged with their types; edits → operations with evaluators (`compile-edit.ts`)', mayImport: below },
  { name: 'edits', path: 'server/src/edits', holds: 'the edit engine: attack plans, the feature table and scorers (`features.ts`), `prepareEdits` (originals\' feature values, edits\' changes; the `CandidateSource` it asks for passages and the dropped candidates it sums, `candidate-drops.ts`), the engine that applies a compiled edit (`edit-program.ts`) and attack runs (eligibility, isolation), which generators proposed each edit (`edit-origins.ts`), edits\' replacement ids as corpus places (`replacement-ids.ts`), the scoring memo made with the prepared edits and the margins and selections it keeps (`scoring-memo.ts`), kept edits laid out on a new table, the kept or every edit built again for new terms or detectors (`patch-features.ts`)', mayImport: below },
  { name: 'scoring', path: 'server/src/scoring', holds: 'scoring prepared edits under a weight vector: margins per change vector, first-visible and oracle-worst selections and their estimates (`scoring.ts`)', mayImport: below },
  { name: 'candidates', path: 'server/src/candidates', holds: 'the candidate generators (`bm25.ts`, `lexical.ts` and the ranking prefix they keep, `ranker.ts`; a supplied file, `candidates-file.ts`; a program\'s answers, `command.ts`; what a generator is asked, `generator.ts`) and the audit\'s `CandidateSource`, which builds them per attack (`candidate-source.ts`)', mayImport: below, except: ['scoring'] },
  { name: 'threads', path: 'server/src/threads', holds: 'preparation on the calling thread and worker threads (`parallel-prepare.ts`; the worker, `prepare-worker.ts`, started as `dist/prepare-worker.js`), and the rankings they exchange as corpus places (`rankings-on-wire.ts`)', mayImport: below, except: ['scoring'] },
  { name: 'audit', path: 'server/src/audit', holds: 'the HERALD audit: plans a checked block, loads through `inputs/`, prepares through `edits/`, computes its report section; its shards, their partial files and the merge\'s checks (`shards.ts`)', mayImport: below },
  { name: 'signal', path: 'server/src/signal', holds: 'the training-signal audit, the same way (never imports another analysis)', mayImport: below, except: ['audit'] },
  { name: 'compare', path: 'server/src/compare', holds: 'the paired policy comparison, the same way (never imports another analysis)', mayImport: below, except: ['audit', 'signal'] },
  { name: 'findings', path: 'server/src/findings', holds: '`specFindings`: report + model → `Problem[]`, **the only place a finding is worded**, with the spec span to show it on, a stable `key` (SARIF fingerprints) and the data rows it is about', mayImport: below },
  { name: 'render', path: 'server/src/render', holds: 'the table, SARIF (from findings: rule ids are issue codes), the HTML report page', mayImport: below },
  { name: 'host', path: 'server/src/host', holds: 'the analysis host: one version of a spec and its phases, each run once and in order (parse and check, bind, the analyses, the findings: `spec-version.ts`); the server thread, the analysis worker and the CLI all go through it', mayImport: below },
  {
    name: 'contract', path: 'server/src/contract',
    holds: 'all the client may import: the custom LSP messages (`protocol.ts`), the names the language gives a meaning (`reserved-names.ts`, written by `npm run docs`), the extension\'s one entry (`index.ts`: the protocol, the report page from `render/report-page/`, the report\'s types) and the report view script\'s (`view.ts`); its own tsconfig (composite), referenced by the client\'s two',
    mayImport: ['problems', 'version', 'report', 'pool', 'render'], typesOnly: ['pool'],
  },
  { name: 'format', path: 'server/src/format', holds: 'the spec formatter', mayImport: ['syntax', 'problems'] },
  { name: 'ide', path: 'server/src/ide', holds: 'the editor\'s features that speak no protocol, computed on the checked model in plain types (as rust-analyzer\'s `ide` crate): completion\'s reading of the tokens before the cursor (`completion-context.ts`, with `completion-tokens.ts`, `completion-audit-options.ts`, `completion-edits.ts`, `completion-keywords.ts`), the `from` clause\'s items and hover (`import-clause.ts`), the text of declarations and terms (`describe.ts`), the occurrences of a name (`occurrences.ts`), keyword docs (`keyword-docs.ts`), a linked data file\'s rows checked as the analyses read them (`pool-rows.ts`) and their hover lines (`row-text.ts`), an imported row in pool format (`imported-row.ts`); what they read of a spec, `AnalyzedText` (`analyzed-text.ts`)', mayImport: below },
  { name: 'lsp', path: 'server/src/lsp', holds: 'the language server and its analysis worker, which turn `ide/`\'s results into protocol types; here too the hovers that carry the client\'s command links (`audit-hover.ts`, `signal-hover.ts`, `comparison-hover.ts`) and the features whose result is a custom message\'s type (`worked-pair.ts`, `worked-pair-text.ts`, `spec-outline.ts`, typed in `contract/protocol.ts`)', mayImport: below, uses: ['languageServer'] },
  { name: 'cli', path: 'server/src/cli', holds: 'the `herald` commands', mayImport: below, except: ['lsp'], uses: ['fileSystem'] },
  { name: 'entry-points', path: 'server/src/entry-points.ts', holds: 'the entry of `dist/engine.js`: starts the server, the analysis worker, a prepare worker or the CLI', mayImport: ['lsp', 'cli', 'threads'] },
  { name: 'client', path: 'client', holds: 'the VS Code extension (`client/src`) and the report view\'s script (`client/webview`, bundled for a browser)', mayImport: ['contract'], uses: ['vscode', 'fileSystem'] },
];

/** The outside modules behind each capability, and why only some stages have it. */
export const outsideModules = {
  fileSystem: {
    modules: ['fs', 'node:fs', 'fs/promises', 'node:fs/promises'],
    message: 'Only inputs/ (and the CLI) open files: ask inputs/ for what a spec reads.',
  },
  processes: {
    modules: ['child_process', 'node:child_process'],
    message: 'Only inputs/ starts a process (inputs/command-runner.ts).',
  },
  languageServer: {
    modules: ['vscode-languageserver', 'vscode-languageserver/node', 'vscode-languageserver-textdocument'],
    message: 'Only lsp/ talks LSP.',
  },
  vscode: { modules: ['vscode'], message: 'Only client/ imports vscode.' },
};

/**
 * Single files with a capability their stage lacks: the report page's loader of the product's own
 * bundled script (dist/report-view.js), which the CLI inlines.
 * @type {readonly { readonly path: string; readonly uses: readonly Capability[] }[]}
 */
export const fileExceptions = [
  { path: 'server/src/render/report-page/report-view-script.ts', uses: ['fileSystem'] },
];

const byName = new Map(stages.map((s) => [s.name, s]));

/** The stage called `name`. */
export function stage(name) {
  const s = byName.get(name);
  if (s === undefined) throw new Error(`no stage ${name} in scripts/stages.mjs`);
  return s;
}

/** The names of the stages `s` may import, in table order. */
export function allowedImports(s) {
  if (s.mayImport !== below) return [...s.mayImport];
  const earlier = stages.slice(0, stages.indexOf(s)).map((t) => t.name);
  return earlier.filter((n) => !(s.except ?? []).includes(n));
}

const withoutExtension = (p) => p.replace(/\.(d\.ts|ts|mts|js|mjs)$/, '');

/**
 * The stage a repository path (forward slashes, relative to the root) belongs to: the stage whose
 * file it is, or whose folder holds it (the longest such folder). Undefined for a path no stage holds.
 */
export function stageOf(relativePath) {
  const p = withoutExtension(relativePath);
  let found;
  for (const s of stages) {
    const own = withoutExtension(s.path);
    const holds = p === own || (s.path === own && p.startsWith(`${own}/`));
    if (holds && (found === undefined || own.length > withoutExtension(found.path).length)) found = s;
  }
  return found;
}

/** The folder that stages live in: a path under it that no stage holds is a stage missing from the table. */
export const stageRoot = 'server/src';

/**
 * Each stage's rank in the drawing: 0 for a stage that imports none, else one above the highest
 * stage it may import, so every arrow points down.
 */
export function ranks() {
  const rank = new Map();
  for (const s of stages) rank.set(s.name, Math.max(-1, ...allowedImports(s).map((n) => rank.get(n))) + 1);
  return rank;
}
