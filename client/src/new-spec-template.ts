import { reservedNames, type PoolProfile } from '../../server/src/contract/index';

// The text "HERALD: New Spec" writes: the linked files, the paper's exact detectors, a starter
// reward and an audit of it, fitted to what the pools' rows hold (their profile): an attack or a
// detector that cannot fire on any row is left out, with a comment that says why from the counts, so
// the starter never audits with attacks that test nothing. Pure, so a test can run the checker and
// the audit over what it writes.

/** The importer pool files are read with: `pool NAME = "FILE" from FORMAT(KEY: VALUE, …)`. */
export interface PoolSource {
  readonly format: string;
  readonly options?: Readonly<Record<string, string>>;
}

export interface NewSpecInput {
  /** Pool files (or one glob), relative to the spec's folder, with `/` separators. */
  readonly pools: readonly string[];
  /** Read by an importer (framework logs); undefined: pool files in format v2. */
  readonly from?: PoolSource;
  /** The corpus file relative to the spec's folder; undefined writes a placeholder link to fill in. */
  readonly corpus: string | undefined;
  /**
   * What the pools' rows hold, all pools together (`profilePool`), to fit the attacks; a string says
   * why the rows could not be profiled, and undefined that nobody tried: then the paper's three
   * attacks are written, as for a pool that holds every part.
   */
  readonly profile?: PoolProfile | string;
}

/** Where the corpus link points when none was chosen: the checker flags it until it is set. */
export const placeholderCorpus = 'corpus.jsonl';

// Names the template declares itself, and every name the language already gives a meaning (a pool
// called `answer` would hide the built-in field).
const taken: readonly string[] = [
  ...reservedNames, 'wiki', 'U', 'L', 'F', 'R0', 'R_L', 'R_U', 'main', 'pad_answer',
];

/** A file's stem as a name: `logs/model-qwen3-8b.jsonl` → `model_qwen3_8b`; a glob (`rollout/*.jsonl`) is named after its folder. */
function stemOf(file: string): string {
  const parts = file.split('/');
  const last = parts.pop() ?? file;
  const base = /[*{]/.test(last) ? parts.pop() ?? 'rollouts' : last.replace(/\.[A-Za-z0-9]+$/, '');
  return base.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
}

/** One declaration name per pool file, from its file name (`model-qwen3-8b.jsonl` → `model_qwen3_8b`; a glob in the spec's own folder → `rollouts`), unique and free. */
export function poolNames(files: readonly string[]): string[] {
  const used = new Set<string>(taken);
  return files.map((file) => {
    const stem = stemOf(file);
    const base = stem === '' ? 'pool' : /^[A-Za-z_]/.test(stem) ? stem : `pool_${stem}`;
    let name = base;
    for (let n = 2; used.has(name); n += 1) name = `${base}_${n}`;
    used.add(name);
    return name;
  });
}

const quoted = (file: string): string => JSON.stringify(file);

/**
 * How a new spec links the chosen log files: every file of their folder with their extension as one
 * glob (`rollout/*.jsonl`), some of them as one brace list (`rollout/{1,3}.jsonl`, so one run's
 * step files stay one pool), else one link each (files in several folders, or names that glob
 * syntax would read).
 */
export function logLinks(chosen: readonly string[], folderFiles: readonly string[]): string[] {
  const first = chosen[0];
  if (chosen.length < 2 || first === undefined) return [...chosen];
  const folderOf = (file: string): string => file.slice(0, file.lastIndexOf('/') + 1);
  const extensionOf = (file: string): string => /\.[A-Za-z0-9]+$/.exec(file)?.[0] ?? '';
  const folder = folderOf(first);
  const extension = extensionOf(first);
  if (extension === '' || chosen.some((f) => folderOf(f) !== folder || extensionOf(f) !== extension || f.includes('*'))) return [...chosen];
  const all = folderFiles.filter((f) => folderOf(f) === folder && extensionOf(f) === extension);
  const picked = new Set(chosen);
  if (all.length === picked.size && all.every((f) => picked.has(f))) return [`${folder}*${extension}`];
  const stems = [...picked].map((f) => f.slice(folder.length, f.length - extension.length)).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const plain = stems.every((stem) => stem !== '' && !/[*?{},/]/.test(stem));
  return plain && stems.length <= maxBraceFiles ? [`${folder}{${stems.join(',')}}${extension}`] : [...chosen];
}

/** A glob's `{a,b}` lists may make 256 patterns (docs/language.md, Limits): more files are linked one by one. */
const maxBraceFiles = 256;

/** `from verl(dialect: search_r1)`: an option value that is a plain word or number as is, any other quoted. */
function fromClause(source: PoolSource): string {
  const options = Object.entries(source.options ?? {}).map(([key, value]) => `${key}: ${/^[A-Za-z_][A-Za-z0-9_]*$|^[0-9]+$/.test(value) ? value : quoted(value)}`);
  return ` from ${source.format}(${options.join(', ')})`;
}

/** What the starter holds: each part kept or left out, with the comment lines that say why. */
export interface StarterPlan {
  readonly detectors: { readonly U: boolean; readonly L: boolean; readonly F: boolean };
  /** The grounding term reads citations. */
  readonly grounding: boolean;
  /** The attack lines, in order; `pad_answer` needs the edit declared. */
  readonly attacks: readonly string[];
  readonly padAnswer: boolean;
  /** The reward the audit compares: R0 with a repair that can fire, or none. */
  readonly compare: 'R_L' | 'R_U' | undefined;
  /** Comment lines (without `# `) on what was left out and why, from the counts. */
  readonly leftOut: readonly string[];
  /** One comment line on what the rows hold, or on why they could not be profiled. */
  readonly fittedTo: string | undefined;
}

const paperPlan = (fittedTo: string | undefined): StarterPlan => ({
  detectors: { U: true, L: true, F: true }, grounding: true, padAnswer: false, compare: 'R_L', leftOut: [], fittedTo,
  attacks: ['attack same_final targets U, L', 'attack fake_id targets F', 'attack launder targets L using lexical(8)'],
});

const of = (count: number, rows: number): string => `${count} of ${rows}`;

/** Which attacks and detectors can fire on rows with this profile (a necessary condition each), and why the others are left out. */
export function starterPlan(profile: PoolProfile | string | undefined): StarterPlan {
  if (profile === undefined) return paperPlan(undefined);
  if (typeof profile === 'string') return paperPlan(`The pools could not be profiled (${profile}), so this starter keeps the paper's three attacks.`);
  const rows = profile.rows;
  if (rows === 0) return paperPlan("The pools hold no row that could be read, so this starter keeps the paper's three attacks.");
  const citations = profile.withCitations > 0;
  // U flips 0 → 1 under same_final only on a row that answers and searched (search_calls > 0 before the edit).
  const u = profile.withAnswer > 0 && profile.withSearches > 0;
  const leftOut: string[] = [];
  const noCitations = `no row of this pool cites a passage (${of(0, rows)})`;
  if (!citations) {
    leftOut.push(`launder, fake_id left out: ${noCitations}.`);
    leftOut.push('Detectors L and F (citations of passages never retrieved, or not in the corpus) and the grounding term left out: they read citations.');
  }
  if (!u) {
    const why = profile.withAnswer === 0
      ? `no row has a nonempty answer (${of(0, rows)})`
      : `no row has a search step (${of(0, rows)}), so none can have its searches deleted`;
    leftOut.push(`Detector U (answered without searching) left out, and same_final ${citations ? 'targets L only' : 'with it'}: ${why}.`);
  }
  const sameFinalTargets = [...(u ? ['U'] : []), ...(citations ? ['L'] : [])];
  const attacks = [
    ...(sameFinalTargets.length > 0 ? [`attack same_final targets ${sameFinalTargets.join(', ')}`] : []),
    ...(citations ? ['attack fake_id targets F', 'attack launder targets L using lexical(8)'] : []),
  ];
  // With none of the paper's attacks left, the answer is still there to edit: pad it with the question.
  const padAnswer = attacks.length === 0 && profile.withAnswer > 0;
  if (padAnswer) attacks.push('attack pad_answer');
  // Nothing can be edited: an audit needs an attack, so the paper's first stays, said to test nothing.
  const nothing = attacks.length === 0;
  if (nothing) {
    leftOut.push('No attack here can edit these rows, this one included: add an edit of what they hold (docs/language.md, "Edits").');
    attacks.push('attack same_final targets U');
  }
  const fittedTo = `Fitted to the pool's ${rows} rows: ${profile.withAnswer} with an answer, ${profile.withSearches} with searches, ${profile.withCitations} with citations.`;
  return {
    detectors: { U: u || nothing, L: citations, F: citations }, grounding: citations, attacks, padAnswer,
    compare: citations ? 'R_L' : u ? 'R_U' : undefined, leftOut, fittedTo,
  };
}

function detectorsComment(plan: StarterPlan): string {
  const kept = Object.values(plan.detectors).filter((d) => d).length;
  return kept === 1 ? "# The paper's exact detector: it reads only the logged trajectory." : "# The paper's exact detectors: they read only the logged trajectory and the corpus.";
}

export function newSpecText(input: NewSpecInput): string {
  const plan = starterPlan(input.profile);
  const names = poolNames(input.pools);
  const width = Math.max(...names.map((n) => n.length));
  const from = input.from === undefined ? '' : fromClause(input.from);
  const pools = input.pools.map((file, i) => `pool ${(names[i] ?? '').padEnd(width)} = ${quoted(file)}${from}`);
  const corpus = input.corpus === undefined
    ? ['# Set this to your passage corpus ({"id","title","text"} per line): the audit reads it, and results', '# logged as text get their ids from it.', `corpus wiki = ${quoted(placeholderCorpus)}`]
    : [`corpus wiki = ${quoted(input.corpus)}`];
  const { U, L, F } = plan.detectors;
  const detectors = [
    ...(U ? ['detector U "nonempty final answer and no search at all" =', '  has_final and answer != "" and search_calls == 0', ''] : []),
    ...(L ? ['detector L "cites a real corpus passage it never retrieved" =', '  any c in citations: c in corpus and c not in retrieved', ''] : []),
    ...(F ? ['detector F "cites an id that is not in the corpus" = any c in citations: c not in corpus', ''] : []),
  ];
  const terms = [
    '  answer     1.0  * token_f1(answer, gold.answers)',
    ...(plan.grounding ? ['  grounding  0.5  * grounding(citations, gold.answers)'] : []),
    '  tool_cost -0.05 * search_calls',
  ];
  const compared = plan.compare === 'R_L'
    ? ['# R0 with the paper\'s repair: penalise citing a passage the agent never retrieved.', 'reward R_L "R0 plus the exact membership check" = R0 - 1.2 * L', '']
    : plan.compare === 'R_U'
      ? ['# R0 with a repair: penalise answering without searching.', 'reward R_U "R0 plus a penalty for answering without a search" = R0 - 0.5 * U', '']
      : [];
  const pad = plan.padAnswer
    ? ['# An edit of the answer: does appending the question to it raise R0?', 'edit pad_answer "append the question to the answer" when has_final and answer != "" =',
      '  set answer = concat(answer, " ", question), set final_text = concat(final_text, " ", question)', '']
    : [];
  const lattice = [...(U ? ['U = 0.5'] : []), ...(L ? ['L = 1.2'] : []), ...(F ? ['F = 1.0'] : [])];
  const expectations = plan.compare === 'R_L'
    ? ['  # expect asr(R_L, launder, oracle_worst) == 0', '  # expect minimal_repair == {L}']
    : plan.compare === 'R_U'
      ? ['  # expect asr(R_U, same_final, oracle_worst) == 0', '  # expect minimal_repair == {U}']
      : ['  # expect asr(R0, pad_answer, oracle_worst) == 0'];
  const audit = [
    '  reward R0',
    ...(plan.compare === undefined ? [] : [`  compare ${plan.compare}`]),
    '  corpus wiki',
    `  pools ${names.join(', ')}`,
    '',
    ...plan.leftOut.map((line) => `  # ${line}`),
    ...plan.attacks.map((line) => `  ${line}`),
    ...(lattice.length === 0 ? [] : ['', `  lattice ${lattice.join(', ')}`]),
    '',
    '  # Expectations are tests (Test Explorer, and `herald audit` exits 1 when one fails), e.g.:',
    ...expectations,
  ];
  const header = [
    '# A reward for a search agent and a HERALD audit of it. Paths are relative to this file.',
    '# Hover a keyword or a name to see what it means; the language is in the extension\'s docs/language.md.',
    ...(plan.fittedTo === undefined ? [] : [`# ${plan.fittedTo}`]),
  ];
  const logs = input.from === undefined
    ? '# Logged trajectories, one JSON object per line.'
    : `# The framework's logs, read by the ${input.from.format} importer (docs/import.md) each time the spec is audited.`;
  return `${header.join('\n')}

${corpus.join('\n')}

${logs}
${pools.join('\n')}

${detectors.length === 0 ? '' : `${detectorsComment(plan)}\n${detectors.join('\n')}\n`}# A starter reward: edit the weights, add terms. Whatever reads gold is oracle.
reward R0 "starter reward" {
${terms.join('\n')}
}

${[...compared, ...pad].join('\n')}${compared.length + pad.length === 0 ? '' : '\n'}audit main "can an exact edit of a logged trajectory raise R0?" {
${audit.join('\n')}
}
`;
}
