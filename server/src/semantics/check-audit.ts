import type { AttackItem, AuditDecl, AuditItem, ComparisonDecl, OptionItem, ExpectMetricItem, ExpectMinimalItem, Name, SettingItem } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';
import { issueCodes, type IssueCode } from '../problems/issue-codes.js';
import { maxBootstrapResamples, maxLatticeDetectors, maxSweepPoints } from '../problems/limits.js';
import { report, suggest, type Analysis } from './analysis.js';
import { defaultSweep, generatorKinds, metricKinds, selectionKinds } from './builtins.js';
import { weightMass } from './weights.js';
import type { EditInfo } from './check-edit.js';
import { checkAuditOptions } from './audit-options.js';
import { resolveDeclared } from './resolve-declared.js';
import { checkConforms } from './check-conformance.js';
import { frozenPairs, rewardTerms, type FrozenField, type FrozenPair } from './frozen-fields.js';
import type { AttackSymbol, AuditWordCategory, DeclSymbol } from './symbols.js';

/**
 * The edit an attack's kind names: a built-in edit of the prelude (hovered as a word) or one the
 * spec declares (a declaration, with references and rename). In `attack launder targets L` one
 * word is both the name and the kind; it is already recorded as the attack's declaration.
 */
function resolveAttackKind(a: Analysis, attack: AttackItem): EditInfo | undefined {
  const kind = attack.attackKind;
  if (kind === undefined) return undefined;
  const edit = a.edits.get(kind.text);
  if (edit === undefined) {
    const names = [...a.edits.keys()];
    const suggestion = suggest(a, kind.text, () => names);
    report(a, issueCodes.unknownAttackKind, 'error', kind.span,
      `unknown attack kind '${kind.text}' (${names.join(', ')}, or an edit this spec declares)${suggestion ? `; did you mean '${suggestion}'?` : ''}`,
      suggestion === undefined ? {} : { data: { suggestion } });
    return undefined;
  }
  if (kind === attack.name) return edit;
  const declared = a.globals.get(kind.text);
  if (!edit.builtin && declared !== undefined) a.occurrences.push({ span: kind.span, symbol: declared, isDeclaration: false });
  else a.occurrences.push({ span: kind.span, symbol: { kind: 'audit-word', category: 'attack-kind', name: kind.text, doc: edit.doc }, isDeclaration: false });
  return edit;
}

/**
 * A target detector that reads no part of the trajectory the edit changes keeps its value on every
 * edit, so it never flips 0 → 1 and no edit of the attack is eligible: said before any data is read.
 */
function checkCanFlip(a: Analysis, edit: EditInfo, detector: DeclSymbol, at: Name): void {
  const reads = a.readSets.ofDecl(detector.decl);
  if ([...reads].some((part) => edit.writes.has(part))) return;
  const read = reads.size === 0 ? 'nothing of the trajectory' : [...reads].join(', ');
  report(a, issueCodes.neverEligible, 'warning', at.span,
    `'${detector.name}' reads ${read}; edit '${edit.name}' changes only ${[...edit.writes].join(', ')}: '${detector.name}' can never flip 0 → 1, so this attack has no eligible edit`);
}

/** Resolves one of the fixed words of an audit (attack kinds, generators, metrics, selections). */
function resolveWord(a: Analysis, name: Name, category: AuditWordCategory, words: Readonly<Record<string, string>>, code: IssueCode, what: string): boolean {
  const doc = words[name.text];
  if (doc === undefined) {
    const suggestion = suggest(a, name.text, () => Object.keys(words));
    report(a, code, 'error', name.span,
      `unknown ${what} '${name.text}' (${Object.keys(words).join(', ')})${suggestion ? `; did you mean '${suggestion}'?` : ''}`,
      suggestion === undefined ? {} : { data: { suggestion } });
    return false;
  }
  a.occurrences.push({ span: name.span, symbol: { kind: 'audit-word', category, name: name.text, doc }, isDeclaration: false });
  return true;
}

export function checkSingleItem<K extends AuditItem['kind']>(a: Analysis, audit: { readonly items: readonly (AuditItem | OptionItem)[] }, kind: K, what: string): Extract<AuditItem, { kind: K }> | undefined {
  const items = audit.items.filter((i): i is Extract<AuditItem, { kind: K }> => i.kind === kind);
  for (const extra of items.slice(1)) {
    report(a, issueCodes.repeatedAuditItem, 'error', extra.span, `this audit already names its ${what}`, { related: [{ span: items[0]!.span, message: 'first stated here' }] });
  }
  return items[0];
}

export function checkAttack(a: Analysis, audit: AuditDecl | ComparisonDecl, attack: AttackItem, attacks: Map<string, AttackSymbol>): void {
  if (attack.name !== undefined) {
    const previous = attacks.get(attack.name.text);
    if (previous !== undefined) {
      report(a, issueCodes.duplicateName, 'error', attack.name.span, `this audit already has an attack named '${attack.name.text}'`, {
        related: [{ span: previous.nameSpan, message: 'the other attack' }],
      });
    } else {
      const symbol: AttackSymbol = { kind: 'attack', name: attack.name.text, item: attack, audit, nameSpan: attack.name.span };
      attacks.set(attack.name.text, symbol);
      a.occurrences.push({ span: attack.name.span, symbol, isDeclaration: true });
    }
  }
  const edit = resolveAttackKind(a, attack);
  const targets = attack.targets.map((target) => resolveDeclared(a, target, 'detector'));

  if (edit !== undefined) {
    if (edit.generated && attack.generators.length === 0) {
      report(a, issueCodes.missingGenerator, 'error', attack.span, `a ${edit.name} attack needs candidates: add 'using lexical(8)' (or bm25(K), candidates "file")`);
    } else if (!edit.generated && attack.generators.length > 0) {
      report(a, issueCodes.generatorNotAllowed, 'error', attack.generators[0]!.span, `${edit.name} is an exact edit and takes no candidate generator (only an edit 'with generated' does)`);
    }
    targets.forEach((symbol, i) => {
      if (symbol !== undefined) checkCanFlip(a, edit, symbol, attack.targets[i]!);
    });
  }
  for (const generator of attack.generators) {
    if (generator.kind === 'candidates-command' && generator.word.text !== 'command') {
      report(a, issueCodes.unknownGenerator, 'error', generator.word.span, `write candidates "file.jsonl" or candidates command "program args", not '${generator.word.text}'`);
    }
    if (generator.kind !== 'generator') continue;
    resolveWord(a, generator.generator, 'generator', generatorKinds, issueCodes.unknownGenerator, 'generator');
    const budget = generator.budget;
    if (budget !== undefined && (!Number.isInteger(budget.value) || budget.value < 1)) {
      report(a, issueCodes.invalidBudget, 'error', budget.span, `a candidate budget is a positive whole number, not ${budget.value}`);
    }
  }
}

const selectionNames = Object.keys(selectionKinds);

function checkExpectMetric(a: Analysis, item: ExpectMetricItem, rewards: Set<string>, attacks: Map<string, AttackSymbol>): void {
  if (!resolveWord(a, item.metric, 'metric', metricKinds, issueCodes.unknownMetric, 'metric')) return;
  if (item.metric.text === 'minimal_repair') {
    report(a, issueCodes.typeMismatch, 'error', item.value?.span ?? item.metric.span, 'minimal_repair is a set of detectors: write expect minimal_repair == {L}');
    return;
  }
  if (item.args.length !== 3) {
    report(a, issueCodes.wrongArity, 'error', item.span, `${item.metric.text} takes (reward, attack, selection), e.g. ${item.metric.text}(R0, launder, oracle_worst)`);
  }
  const [reward, attack, selection] = item.args;
  if (reward !== undefined && resolveDeclared(a, reward, 'reward') !== undefined && !rewards.has(reward.text)) {
    report(a, issueCodes.rewardNotAudited, 'error', reward.span, `this audit neither audits nor compares '${reward.text}': add it to 'compare'`);
  }
  if (attack !== undefined) {
    const symbol = attacks.get(attack.text);
    if (symbol === undefined) {
      const suggestion = suggest(a, attack.text, () => attacks.keys());
      report(a, issueCodes.unknownName, 'error', attack.span, `this audit has no attack '${attack.text}'${suggestion ? `; did you mean '${suggestion}'?` : ''}`,
        suggestion === undefined ? {} : { data: { suggestion } });
    } else {
      a.occurrences.push({ span: attack.span, symbol, isDeclaration: false });
    }
  }
  if (selection !== undefined) resolveWord(a, selection, 'selection', selectionKinds, issueCodes.unknownSelection, `selection (${selectionNames.join(' or ')})`);

  const value = item.value;
  if (value === undefined) return;
  const isRate = item.metric.text === 'asr' || item.metric.text === 'upper';
  if (!isRate && item.percent) {
    report(a, issueCodes.valueOutOfRange, 'error', value.span, `${item.metric.text} is a reward difference, not a percentage`);
  } else if (isRate) {
    const max = item.percent ? 100 : 1;
    if (value.value < 0 || value.value > max) {
      report(a, issueCodes.valueOutOfRange, 'error', value.span, `a rate lies between 0 and ${item.percent ? '100%' : '1 (or write a percentage, e.g. 5%)'}`);
    }
  }
}

function checkExpectMinimal(a: Analysis, item: ExpectMinimalItem, latticeDetectors: Set<string>): void {
  if (!resolveWord(a, item.metric, 'metric', metricKinds, issueCodes.unknownMetric, 'metric')) return;
  if (item.metric.text !== 'minimal_repair') {
    report(a, issueCodes.typeMismatch, 'error', item.span, `${item.metric.text} is a number: compare it with a number, not a set`);
    return;
  }
  for (const detector of item.detectors) {
    if (resolveDeclared(a, detector, 'detector') !== undefined && !latticeDetectors.has(detector.text)) {
      report(a, issueCodes.kindMismatch, 'error', detector.span, `'${detector.text}' is not in this audit's lattice`);
    }
  }
}

export function checkSetting(a: Analysis, item: SettingItem): void {
  const values = item.values;
  if (item.key !== 'sweep' && values.length > 1) {
    report(a, issueCodes.invalidSetting, 'error', values[1]!.span, `${item.key} takes one value`);
  }
  for (const value of values) {
    const ok = item.key === 'sweep' ? value.value >= 0 : Number.isInteger(value.value) && value.value >= (item.key === 'bootstrap' ? 1 : 0);
    if (!ok) {
      const wanted = item.key === 'sweep' ? 'a scale of 0 or more' : item.key === 'bootstrap' ? 'a positive whole number of resamples' : 'a whole number of 0 or more';
      report(a, issueCodes.invalidSetting, 'error', value.span, `${item.key} needs ${wanted}`);
    } else if (item.key === 'bootstrap' && value.value > maxBootstrapResamples) {
      report(a, issueCodes.settingTooLarge, 'error', value.span,
        `bootstrap takes at most ${maxBootstrapResamples.toLocaleString('en-US')} resamples: each resample draw holds an index per cluster, so ${value.value} would exhaust memory`);
    }
  }
  const extra = values[maxSweepPoints];
  if (item.key === 'sweep' && extra !== undefined) {
    report(a, issueCodes.settingTooLarge, 'error', extra.span,
      `a sweep takes at most ${maxSweepPoints} scales (this one has ${values.length}): each scale re-scores every attack`);
  }
}

/** The lattice scores all 2^k subsets of its detectors for every attack: past the limit that is neither time nor memory an audit has. */
function checkLatticeSize(a: Analysis, audit: AuditDecl): void {
  const entries = audit.items.flatMap((i) => (i.kind === 'lattice' ? i.entries : []));
  const extra = entries[maxLatticeDetectors];
  if (extra === undefined) return;
  report(a, issueCodes.latticeTooLarge, 'error', extra.span,
    `a lattice holds at most ${maxLatticeDetectors} detectors (this one lists ${entries.length}): each of its 2^k subsets is scored for every attack, ` +
    `and ${maxLatticeDetectors + 1} would be ${(2 ** (maxLatticeDetectors + 1)).toLocaleString('en-US')} subsets`);
}

/** R_S at the largest sweep scale subtracts every λ times that scale from the audited reward: it must stay finite. */
function checkLatticeFinite(a: Analysis, audit: AuditDecl, rewardName: Name | undefined): void {
  const entries = audit.items.filter((i) => i.kind === 'lattice');
  if (entries.length === 0) return;
  const reward = rewardName === undefined ? undefined : a.globals.get(rewardName.text)?.decl;
  const base = reward?.kind === 'reward' ? weightMass(a, reward) : 0;
  const scales = audit.items.flatMap((i) => (i.kind === 'setting' && i.key === 'sweep' ? i.values.map((v) => v.value) : []));
  const largest = (scales.length === 0 ? defaultSweep : scales).reduce((m, s) => (Number.isFinite(s) && s > m ? s : m), 1);
  const lambdas = entries.flatMap((i) => i.entries.map((e) => e.lambda?.value ?? 0)).filter((l) => Number.isFinite(l));
  if (Number.isFinite(base + largest * lambdas.reduce((s, l) => s + Math.abs(l), 0))) return;
  report(a, issueCodes.nonFiniteWeight, 'error', entries[0]!.span,
    `the lattice penalties times the largest sweep scale (×${largest}) and the weights of the audited reward add up to more than a double holds: the figures would be Infinity or NaN`);
}

export function checkAudit(a: Analysis, audit: AuditDecl): void {
  // A header the parser could not read leaves no block to check; its parse error says enough.
  if (audit.name === undefined) return;
  const anchor: Span = audit.name.span;
  const rewards = new Set<string>();

  const rewardItem = checkSingleItem(a, audit, 'audit-reward', 'reward');
  if (rewardItem === undefined) report(a, issueCodes.incompleteAudit, 'error', anchor, "this audit names no reward: add 'reward R0'");
  else if (rewardItem.reward !== undefined && resolveDeclared(a, rewardItem.reward, 'reward') !== undefined) rewards.add(rewardItem.reward.text);

  const corpusItem = checkSingleItem(a, audit, 'audit-corpus', 'corpus');
  if (corpusItem === undefined) report(a, issueCodes.incompleteAudit, 'error', anchor, "this audit names no corpus: add 'corpus NAME'");
  else if (corpusItem.corpus !== undefined) resolveDeclared(a, corpusItem.corpus, 'corpus');

  const poolItems = audit.items.filter((i) => i.kind === 'audit-pools');
  if (poolItems.length === 0) report(a, issueCodes.incompleteAudit, 'error', anchor, "this audit reads no pools: add 'pools NAME, …'");

  const attacks = new Map<string, AttackSymbol>();
  const latticeDetectors = new Set<string>();
  for (const item of audit.items) {
    switch (item.kind) {
      case 'audit-compare':
        for (const reward of item.rewards) if (resolveDeclared(a, reward, 'reward') !== undefined) rewards.add(reward.text);
        break;
      case 'audit-pools':
        for (const pool of item.pools) resolveDeclared(a, pool, 'pool');
        break;
      case 'attack':
        checkAttack(a, audit, item, attacks);
        break;
      case 'lattice':
        for (const entry of item.entries) {
          if (latticeDetectors.has(entry.detector.text)) {
            report(a, issueCodes.duplicateName, 'error', entry.detector.span, `'${entry.detector.text}' is already in the lattice`);
          }
          if (resolveDeclared(a, entry.detector, 'detector') !== undefined) latticeDetectors.add(entry.detector.text);
          if (entry.lambda !== undefined && entry.lambda.value <= 0) {
            report(a, issueCodes.penaltySign, 'error', entry.lambda.span, `a lattice penalty λ must be positive: R_S = R − Σ λ·f subtracts it (got ${entry.lambda.value})`);
          }
        }
        break;
      default:
        break;
    }
  }
  if (attacks.size === 0 && audit.items.every((i) => i.kind !== 'attack')) {
    report(a, issueCodes.incompleteAudit, 'error', anchor, "this audit runs no attack: add e.g. 'attack launder targets L using lexical(8)'");
  }
  checkLatticeSize(a, audit);
  checkLatticeFinite(a, audit, rewardItem?.reward);
  checkAuditOptions(a, audit, rewards);
  // Expect lines may name attacks and lattice detectors declared below them.
  for (const item of audit.items) {
    if (item.kind === 'expect-metric') checkExpectMetric(a, item, rewards, attacks);
    else if (item.kind === 'expect-minimal') checkExpectMinimal(a, item, latticeDetectors);
    else if (item.kind === 'setting') checkSetting(a, item);
    else if (item.kind === 'conforms') checkConforms(a, item);
  }
  checkFrozenReads(a, audit, [...rewards], attacks);
  for (const key of ['seed', 'bootstrap', 'sweep'] as const) {
    const settings = audit.items.filter((i): i is SettingItem => i.kind === 'setting' && i.key === key);
    for (const extra of settings.slice(1)) {
      report(a, issueCodes.repeatedAuditItem, 'error', extra.span, `this audit already sets ${key}`, { related: [{ span: settings[0]!.span, message: 'first set here' }] });
    }
  }
}

const listed = (words: readonly string[]): string => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)!}`);

/** Why the pools cannot recompute the field: each pool's format (or none), in words. */
function freezingPools(a: Analysis, field: FrozenField, key: string): string {
  return listed(field.pools.map((name) => {
    const decl = a.globals.get(name)?.decl;
    const format = decl?.kind === 'pool' ? decl.source?.format?.text : undefined;
    return format === undefined ? `pool ${name} (a pool file: nothing of its meta follows an edit)` : `pool ${name} (${format} does not render ${key})`;
  }));
}

/**
 * A term of an audited or compared reward that reads a frozen field an attack's edit can change:
 * warned at the term, once per term, naming the first such field, the attacks and the figures marked
 * frozen, and listing the term's other frozen fields (a rubric of a dozen logged metrics is one warning).
 */
function checkFrozenReads(a: Analysis, audit: AuditDecl, rewards: readonly string[], attacks: ReadonlyMap<string, AttackSymbol>): void {
  if (audit.name === undefined) return;
  const pools = audit.items.flatMap((i) => (i.kind === 'audit-pools' ? i.pools.map((p) => p.text) : []));
  const kinds = [...attacks.values()].flatMap((s) => (s.item.attackKind === undefined ? [] : [{ name: s.name, kind: s.item.attackKind.text }]));
  const pairs = frozenPairs(a, { rewards, pools, attacks: kinds });
  if (pairs.length === 0) return;
  const seen = new Set<number>();
  for (const reward of rewards) {
    for (const { term } of rewardTerms(a, reward)) {
      if (seen.has(term.span.start)) continue;
      const reads = a.readSets.fieldsOf(term.body);
      const fields = [...new Map(pairs.flatMap((p) => p.fields.filter((f) => reads.has(f.decl))).map((f) => [f.decl, f])).values()];
      if (fields.length === 0) continue;
      seen.add(term.span.start);
      const hitBy = (field: FrozenField): FrozenPair[] => pairs.filter((p) => p.fields.some((f) => f.decl === field.decl) && rewardTerms(a, p.reward).some((t) => t.term === term));
      const [first, ...others] = fields;
      const hit = fields.flatMap(hitBy);
      const more = others.length === 0 ? '' : `. The term also reads ${others.length} more logged field${others.length === 1 ? '' : 's'} frozen under these attacks: ${others.map((f) => `${f.name} (${f.path})`).join(', ')}`;
      report(a, issueCodes.frozenField, 'warning', term.span, `${frozenMessage(a, audit.name.text, term.name.text, first!, hitBy(first!))}${more}`, {
        data: { audit: audit.name.text, field: first!.name, fields: fields.map((f) => f.name), attacks: [...new Set(hit.map((p) => p.attack))], rewards: [...new Set(hit.map((p) => p.reward))] },
      });
    }
  }
}

function frozenMessage(a: Analysis, audit: string, term: string, field: FrozenField, pairs: readonly FrozenPair[]): string {
  const attacks = [...new Map(pairs.map((p) => [p.attack, p])).values()];
  const edits = attacks.map((p) => `${p.attack} writes ${listed(p.writes.filter((w) => field.dependsOn.includes(w)))}`).join('; ');
  const rewards = listed([...new Set(pairs.map((p) => p.reward))]);
  const depends = field.declared ? `${field.name} depends on ${listed(field.dependsOn)}` : `${field.name} may depend on the whole trajectory (no 'depends on')`;
  const key = `meta.${field.path.split('.')[1] ?? ''}`;
  return `term '${term}' reads logged field '${field.name}' (${field.path}), which ${freezingPools(a, field, key)} cannot recompute after an edit: it keeps its logged value. ` +
    `${depends}, and in audit ${audit} ${edits}: their figures under ${rewards} are marked frozen and not counted. ` +
    `If ${field.name} cannot change under ${attacks.length === 1 ? 'this edit' : 'these edits'}, say so with 'depends on'; otherwise link a format that renders ${key}, or recompute it by a command`;
}
