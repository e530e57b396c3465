import type { AuditDecl, Name, OptionItem, OptionValue } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';
import { issueCodes } from '../problems/issue-codes.js';
import { report, suggest, type Analysis } from './analysis.js';
import { resolveDeclared } from './resolve-declared.js';

// An audit's options, written `key value, …` like a training block's: which samples of each
// question the audit attacks (`select`), the pool-selection robustness table (`robustness`) and
// the common cluster set (`clusters common`). The rules are defined exactly in docs/language.md.

export type PoolSelectionRule = 'stored' | 'first' | 'hash_random' | 'all' | 'best' | 'gold_informed';

export interface PoolSelection {
  readonly rule: PoolSelectionRule;
  /** The reward `best` maximises. */
  readonly reward?: string;
}

/** One line per pool-selection rule (hover, completion, the checker's messages). */
export const poolSelectionDocs: Readonly<Record<PoolSelectionRule, string>> = {
  stored: 'The sample the log marks `meta.stored: true` (a question with one sample: that sample); label-free.',
  first: 'The sample with the smallest `meta.sample` (file order among equals and unnumbered samples); label-free.',
  hash_random: 'The sample at position SHA-256(question_id) mod n, in `first` order; label-free.',
  all: 'Every sample (the default); label-free.',
  best: '`best(R)`: the sample the reward R scores highest (ties: the earlier in `first` order); oracle when R reads gold.',
  gold_informed: 'The sample with the highest exact match, then support recall, then citation precision against gold; always oracle.',
};

function isRule(word: string): word is PoolSelectionRule {
  return Object.hasOwn(poolSelectionDocs, word);
}

/** The audit's options and their docs (hover and completion). */
export const auditOptionDocs: Readonly<Record<string, string>> = {
  select: 'Which samples of each question the audit attacks: stored, first, hash_random, all (default), best(R) or gold_informed.',
  robustness: 'Rerun every attack under each listed pool selection, side by side: `robustness stored, first, hash_random, all, best(R0), gold_informed`.',
  clusters: '`clusters common`: every attack\'s figures over the question clusters isolated-eligible for all the audit\'s attacks (the paper\'s n = 593); `each` (default): each attack\'s own.',
  timeout: '`timeout 600`: seconds a `candidates command` may run before it and every process it started are killed (default 300).',
  certify: '`certify by_generator`: state the certificate per attack and candidate generator (which generators each λ is certified against).',
  holdout: '`holdout 0.5`: hold out this share of question clusters (by SHA-256 of the question id); the minimal repair and λ are chosen on the rest and tested on them.',
};

/** A checked option value read as a pool selection; undefined when it is not one. */
export function poolSelectionOf(value: OptionValue): PoolSelection | undefined {
  if (value.kind !== 'name' || !isRule(value.name.text)) return undefined;
  const rule = value.name.text;
  if ((rule === 'best') !== (value.argument !== undefined)) return undefined;
  return value.argument === undefined ? { rule } : { rule, reward: value.argument.text };
}

/** Checks `select`, `robustness` and `clusters`; `rewards` are the rewards the audit scores. */
export function checkAuditOptions(a: Analysis, audit: AuditDecl, rewards: ReadonlySet<string>): void {
  const first = new Map<string, Span>();
  for (const item of audit.options) {
    const previous = first.get(item.key.text);
    if (previous !== undefined) {
      report(a, issueCodes.repeatedAuditItem, 'error', item.span, `this audit already sets ${item.key.text}`, { related: [{ span: previous, message: 'first set here' }] });
    }
    first.set(item.key.text, previous ?? item.span);
    checkOption(a, item, rewards);
  }
}

function checkOption(a: Analysis, item: OptionItem, rewards: ReadonlySet<string>): void {
  const key = item.key.text;
  const doc = auditOptionDocs[key];
  if (doc === undefined) {
    const suggestion = suggest(a, key, () => Object.keys(auditOptionDocs));
    report(a, issueCodes.unknownOption, 'error', item.key.span,
      `an audit has no option '${key}' (${Object.keys(auditOptionDocs).join(', ')})${suggestion ? `; did you mean '${suggestion}'?` : ''}`,
      suggestion === undefined ? {} : { data: { suggestion } });
    return;
  }
  a.occurrences.push({ span: item.key.span, symbol: { kind: 'audit-word', category: 'audit-option', name: key, doc }, isDeclaration: false });
  if (key !== 'robustness' && item.values.length > 1) report(a, issueCodes.invalidSetting, 'error', item.values[1]!.span, `${key} takes one value`);
  if (key === 'timeout' || key === 'holdout' || key === 'certify') {
    checkGeneratorOption(a, key, item.values);
    return;
  }
  if (key === 'clusters') {
    for (const value of item.values) {
      if (value.kind !== 'name' || value.argument !== undefined || (value.name.text !== 'common' && value.name.text !== 'each')) {
        report(a, issueCodes.unknownOption, 'error', value.span, "clusters is 'common' or 'each'");
      }
    }
    return;
  }
  for (const value of item.values) checkSelection(a, value, rewards);
}

function checkSelection(a: Analysis, value: OptionValue, rewards: ReadonlySet<string>): void {
  const rules = Object.keys(poolSelectionDocs);
  if (value.kind !== 'name' || !isRule(value.name.text)) {
    const word = value.kind === 'name' ? value.name.text : String(value.value);
    const suggestion = value.kind === 'name' ? suggest(a, word, () => rules) : undefined;
    report(a, issueCodes.unknownPoolSelection, 'error', value.span,
      `unknown pool selection '${word}' (stored, first, hash_random, all, best(REWARD), gold_informed)${suggestion ? `; did you mean '${suggestion}'?` : ''}`,
      suggestion === undefined ? {} : { data: { suggestion } });
    return;
  }
  const rule = value.name.text;
  a.occurrences.push({ span: value.name.span, symbol: { kind: 'audit-word', category: 'pool-selection', name: rule, doc: poolSelectionDocs[rule] }, isDeclaration: false });
  if (rule === 'best' && value.argument === undefined) {
    report(a, issueCodes.unknownPoolSelection, 'error', value.span, 'best selects by a reward: write best(R0)');
  } else if (rule !== 'best' && value.argument !== undefined) {
    report(a, issueCodes.unknownPoolSelection, 'error', value.argument.span, `${rule} takes no reward (only best(R) does)`);
  } else if (value.argument !== undefined) {
    checkBestReward(a, value.argument, rewards);
  }
}

function checkBestReward(a: Analysis, reward: Name, rewards: ReadonlySet<string>): void {
  if (resolveDeclared(a, reward, 'reward') === undefined) return;
  if (!rewards.has(reward.text)) {
    report(a, issueCodes.rewardNotAudited, 'error', reward.span, `best(${reward.text}) needs '${reward.text}' to be the audited reward or one it compares: add 'compare ${reward.text}'`);
  }
}

/** `timeout` (seconds > 0), `holdout` (a share strictly between 0 and 1) and `certify by_generator`. */
function checkGeneratorOption(a: Analysis, key: 'timeout' | 'holdout' | 'certify', values: readonly OptionValue[]): void {
  for (const value of values) {
    if (key === 'certify') {
      if (value.kind !== 'name' || value.argument !== undefined || value.name.text !== 'by_generator') report(a, issueCodes.unknownOption, 'error', value.span, "certify is 'by_generator'");
    } else if (value.kind !== 'number' || value.percent) {
      report(a, issueCodes.invalidSetting, 'error', value.span, key === 'timeout' ? 'timeout is a number of seconds, e.g. timeout 600' : 'holdout is a share of clusters, e.g. holdout 0.5');
    } else if (key === 'timeout' ? !(value.value > 0) : !(value.value > 0 && value.value < 1)) {
      report(a, issueCodes.invalidSetting, 'error', value.span, key === 'timeout' ? `timeout must be above 0 seconds, not ${value.value}` : `holdout is a share strictly between 0 and 1, not ${value.value}`);
    }
  }
}

/** A checked audit's number option (`timeout`, `holdout`), or undefined when it is not set. */
export function numberOption(audit: AuditDecl, key: string): number | undefined {
  for (const item of audit.options) {
    if (item.key.text !== key) continue;
    const value = item.values[0];
    if (value?.kind === 'number') return value.value;
  }
  return undefined;
}
