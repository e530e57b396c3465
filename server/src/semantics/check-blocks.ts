import type { BlockItem, ComparisonDecl, Name, OptionItem, OptionValue, SettingItem, TrainingDecl } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';
import { issueCodes } from '../problems/issue-codes.js';
import { report, suggest, type Analysis } from './analysis.js';
import { checkAttack, checkSetting, checkSingleItem } from './check-audit.js';
import { resolveDeclared } from './resolve-declared.js';
import type { AttackSymbol, DeclSymbol } from './symbols.js';

// The training-signal and policy-comparison blocks. They borrow the audit's `reward`, `corpus`,
// `attack`, `seed` and `bootstrap` items and add options written `key value, …`.

/** What each option of a block takes: names of one declaration kind, a choice of words, or a number. */
type OptionShape =
  | { readonly kind: 'names'; readonly of: DeclSymbol['kind']; readonly many: boolean }
  | { readonly kind: 'word'; readonly words: readonly string[] }
  | { readonly kind: 'number'; readonly check: (value: number) => string | undefined }
  /** One of some words, or the name of a declared boolean logged field. */
  | { readonly kind: 'word-or-flag'; readonly words: readonly string[] };

const positiveWhole = (value: number): string | undefined => (Number.isInteger(value) && value >= 1 ? undefined : 'a positive whole number');
const positivePoints = (value: number): string | undefined => (value > 0 && value <= 100 ? undefined : 'a number of points above 0 and at most 100');

export const trainingOptions: Readonly<Record<string, OptionShape>> = {
  log: { kind: 'names', of: 'pool', many: true },
  normalize: { kind: 'word', words: ['std', 'mean'] },
  min_groups: { kind: 'number', check: positiveWhole },
};

export const comparisonOptions: Readonly<Record<string, OptionShape>> = {
  base: { kind: 'names', of: 'pool', many: true },
  treatment: { kind: 'names', of: 'pool', many: true },
  detectors: { kind: 'names', of: 'detector', many: true },
  margin: { kind: 'number', check: positivePoints },
  claim: { kind: 'number', check: positivePoints },
  runs: { kind: 'word', words: ['one', 'logs'] },
  greedy: { kind: 'word-or-flag', words: ['sample0'] },
};

/** One line per option, for hovers and completion. */
export const optionDocs: Readonly<Record<string, string>> = {
  log: 'The training log(s): pools whose rows carry `meta.group` (the update group) and `meta.step`.',
  normalize: '`std` (GRPO: centre by the group mean, divide by the group standard deviation) or `mean` (centre only).',
  min_groups: 'Warn when a detector changes the normalised advantages in fewer groups than this (default 5).',
  base: 'The evaluation log(s) of the base policy.',
  treatment: 'The evaluation log(s) of the policy trained with the other reward; paired with the base by question id and `meta.sample`.',
  detectors: 'Detectors whose natural incidence is compared (default: the attacks\' targets).',
  margin: 'The EM non-inferiority margin in points: the paired lower bound must exceed −margin on each benchmark (default 2).',
  claim: 'The smallest rate reduction, in points, that a claim would state; a rare-event result that cannot resolve it blocks the claim (default 1).',
  greedy: 'Split the rows into greedy and sampled, reported separately and together: `sample0` (greedy is `meta.sample` 0) or a declared boolean logged field (true: greedy).',
  runs: '`one` (default: each arm\'s logs together are one run) or `logs` (each log an arm names is one run, a training seed: intervals resample runs within each arm, then questions).',
};

function valueText(value: OptionValue): string {
  return value.kind === 'name' ? value.name.text : `${value.value}${value.percent ? '%' : ''}`;
}

/** A declared logged field of type boolean, named by an option (`greedy is_greedy`). */
function checkFlag(a: Analysis, key: string, name: Name): void {
  const symbol = resolveDeclared(a, name, 'logged');
  if (symbol?.decl.kind === 'logged' && symbol.decl.fieldType?.text !== 'boolean') {
    report(a, issueCodes.typeMismatch, 'error', name.span, `${key} takes a boolean field, and '${name.text}' is ${symbol.decl.fieldType?.text ?? 'untyped'}`);
  }
}

function checkOption(a: Analysis, item: OptionItem, shapes: Readonly<Record<string, OptionShape>>, block: string): void {
  const shape = shapes[item.key.text];
  if (shape === undefined) {
    const suggestion = suggest(a, item.key.text, () => Object.keys(shapes));
    report(a, issueCodes.unknownOption, 'error', item.key.span,
      `a ${block} block has no option '${item.key.text}' (${Object.keys(shapes).join(', ')})${suggestion ? `; did you mean '${suggestion}'?` : ''}`,
      suggestion === undefined ? {} : { data: { suggestion } });
    return;
  }
  a.occurrences.push({ span: item.key.span, symbol: { kind: 'audit-word', category: 'option', name: item.key.text, doc: optionDocs[item.key.text] ?? '' }, isDeclaration: false });
  const many = shape.kind === 'names' && shape.many;
  if (!many && item.values.length > 1) report(a, issueCodes.invalidSetting, 'error', item.values[1]!.span, `${item.key.text} takes one value`);
  for (const value of item.values) {
    if (value.kind === 'name' && value.argument !== undefined) report(a, issueCodes.unknownOption, 'error', value.argument.span, `${item.key.text} takes no argument in parentheses`);
    switch (shape.kind) {
      case 'names':
        if (value.kind !== 'name') report(a, issueCodes.typeMismatch, 'error', value.span, `${item.key.text} takes ${shape.of} names, not ${valueText(value)}`);
        else resolveDeclared(a, value.name, shape.of);
        break;
      case 'word':
        if (value.kind !== 'name' || !shape.words.includes(value.name.text)) {
          report(a, issueCodes.unknownOption, 'error', value.span, `${item.key.text} is ${shape.words.map((w) => `'${w}'`).join(' or ')}, not '${valueText(value)}'`);
        }
        break;
      case 'word-or-flag':
        if (value.kind === 'name' && !shape.words.includes(value.name.text)) checkFlag(a, item.key.text, value.name);
        else if (value.kind !== 'name') report(a, issueCodes.typeMismatch, 'error', value.span, `${item.key.text} takes ${shape.words.map((w) => `'${w}'`).join(' or ')} or a boolean field, not ${valueText(value)}`);
        break;
      case 'number': {
        const problem = value.kind === 'number' ? shape.check(value.value) : 'a number';
        if (problem !== undefined) report(a, issueCodes.invalidSetting, 'error', value.span, `${item.key.text} needs ${problem}, not ${valueText(value)}`);
        break;
      }
    }
  }
}

function checkRepeatedOptions(a: Analysis, items: readonly BlockItem[]): void {
  const first = new Map<string, Span>();
  for (const item of items) {
    if (item.kind !== 'option') continue;
    const previous = first.get(item.key.text);
    if (previous === undefined) first.set(item.key.text, item.span);
    else report(a, issueCodes.repeatedAuditItem, 'error', item.span, `this block already sets ${item.key.text}`, { related: [{ span: previous, message: 'first set here' }] });
  }
}

function checkSettings(a: Analysis, items: readonly BlockItem[]): void {
  for (const key of ['seed', 'bootstrap'] as const) {
    const settings = items.filter((i): i is SettingItem => i.kind === 'setting' && i.key === key);
    for (const setting of settings) checkSetting(a, setting);
    for (const extra of settings.slice(1)) {
      report(a, issueCodes.repeatedAuditItem, 'error', extra.span, `this block already sets ${key}`, { related: [{ span: settings[0]!.span, message: 'first set here' }] });
    }
  }
}

const itemWords: Readonly<Record<BlockItem['kind'], string>> = {
  'audit-reward': 'reward', 'audit-compare': 'compare', 'audit-corpus': 'corpus', 'audit-pools': 'pools', attack: 'attack',
  lattice: 'lattice', 'expect-metric': 'expect', 'expect-minimal': 'expect', conforms: 'conforms', setting: 'a setting', option: 'an option',
};

function misplaced(a: Analysis, item: BlockItem, block: string, instead: string): void {
  const word = item.kind === 'setting' ? item.key : itemWords[item.kind];
  report(a, issueCodes.misplacedItem, 'error', item.span, `'${word}' has no meaning in a ${block} block${instead}`);
}

function requireOption(a: Analysis, items: readonly BlockItem[], key: string, anchor: Name, hint: string): void {
  if (!items.some((i) => i.kind === 'option' && i.key.text === key)) report(a, issueCodes.incompleteAudit, 'error', anchor.span, hint);
}

function checkRewardAndCorpus(a: Analysis, block: TrainingDecl | ComparisonDecl, anchor: Name, rewardHint: string): void {
  const rewardItem = checkSingleItem(a, block, 'audit-reward', 'reward');
  if (rewardItem === undefined) report(a, issueCodes.incompleteAudit, 'error', anchor.span, rewardHint);
  else if (rewardItem.reward !== undefined) resolveDeclared(a, rewardItem.reward, 'reward');
  const corpusItem = checkSingleItem(a, block, 'audit-corpus', 'corpus');
  if (corpusItem === undefined) report(a, issueCodes.incompleteAudit, 'error', anchor.span, "this block names no corpus (detectors read it): add 'corpus NAME'");
  else if (corpusItem.corpus !== undefined) resolveDeclared(a, corpusItem.corpus, 'corpus');
}

/** `training NAME { reward R; corpus C; log P; normalize std|mean; min_groups N }`. */
export function checkTraining(a: Analysis, block: TrainingDecl): void {
  if (block.name === undefined) return;
  checkRewardAndCorpus(a, block, block.name, "this block names no reward: add 'reward R_L' (the reward the policy was trained with)");
  requireOption(a, block.items, 'log', block.name, "this block reads no training log: add 'log NAME' (a pool with meta.group and meta.step)");
  checkRepeatedOptions(a, block.items);
  for (const item of block.items) {
    if (item.kind === 'option') checkOption(a, item, trainingOptions, 'training');
    else if (item.kind !== 'audit-reward' && item.kind !== 'audit-corpus') misplaced(a, item, 'training', ': it reads reward, corpus, log, normalize and min_groups');
  }
}

/** `comparison NAME { reward R0; corpus C; base P; treatment Q; detectors L; attack …; margin 2; claim 1; seed; bootstrap }`. */
export function checkComparison(a: Analysis, block: ComparisonDecl): void {
  if (block.name === undefined) return;
  checkRewardAndCorpus(a, block, block.name, "this block names no reward: add 'reward R0' (the fixed scorer of the targeted attacks)");
  requireOption(a, block.items, 'base', block.name, "this comparison has no base arm: add 'base NAME' (an evaluation log)");
  requireOption(a, block.items, 'treatment', block.name, "this comparison has no treatment arm: add 'treatment NAME' (an evaluation log)");
  checkRepeatedOptions(a, block.items);
  const attacks = new Map<string, AttackSymbol>();
  for (const item of block.items) {
    if (item.kind === 'option') checkOption(a, item, comparisonOptions, 'comparison');
    else if (item.kind === 'attack') {
      checkAttack(a, block, item, attacks);
      // Only an audit runs a program (its timeout, cache and trust rule); a comparison reads files.
      for (const g of item.generators) {
        if (g.kind === 'candidates-command') report(a, issueCodes.generatorNotAllowed, 'error', g.span, 'a comparison runs no command: write its answers to a file and use candidates "file.jsonl" (docs/generators.md)');
      }
    } else if (item.kind !== 'audit-reward' && item.kind !== 'audit-corpus' && !(item.kind === 'setting' && item.key !== 'sweep')) {
      misplaced(a, item, 'comparison', ': it reads reward, corpus, base, treatment, detectors, attack, margin, claim, runs, greedy, seed and bootstrap');
    }
  }
  checkSettings(a, block.items);
}
