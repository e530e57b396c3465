import type { CstNode } from 'chevrotain';
import { settingWords } from '../problems/vocabulary.js';
import type * as A from './ast.js';
import { comparisonOperator, expression, postfixExpression } from './build-expression.js';
import type * as C from './cst-types.js';
import { cover, each, nameOf, numberOf, one, read, readAll, stringOf, tokenSpan, type Children } from './cst-read.js';

// The CST → AST step: one function per grammar rule, each taking its node's children as typed by
// cst-types.d.ts (generated from the grammar) and tolerating children a recovered node lacks
// (cst-read.ts). Expressions are built in build-expression.ts.

/**
 * The parser's `spec` rule builds a SpecCstNode: the one place where Chevrotain's untyped CST meets
 * the generated types (the test of cst-types.d.ts keeps them the grammar's).
 */
function isSpec(node: CstNode): node is C.SpecCstNode {
  return node.name === 'spec';
}

/** The declarations of a parsed spec. */
export function buildDecls(cst: CstNode): A.Decl[] {
  return isSpec(cst) ? each(cst.children.declaration, declaration) : [];
}

function declaration(c: Children<C.DeclarationCstNode>): A.Decl | undefined {
  return one(c.corpusDecl, corpusDecl) ?? one(c.poolDecl, poolDecl) ?? one(c.fieldDecl, fieldDecl) ?? one(c.editDecl, editDecl) ?? one(c.signalDecl, signalDecl) ?? one(c.detectorDecl, detectorDecl)
    ?? one(c.rewardDecl, rewardDecl) ?? one(c.auditDecl, auditDecl) ?? one(c.trainingDecl, trainingDecl) ?? one(c.comparisonDecl, comparisonDecl);
}

function corpusDecl(c: Children<C.CorpusDeclCstNode>): A.CorpusDecl {
  const name = nameOf(read(c.Identifier));
  const path = stringOf(read(c.StringLiteral));
  return { kind: 'corpus', name, path, span: cover(read(c.Corpus), name, path) };
}

function poolDecl(c: Children<C.PoolDeclCstNode>): A.PoolDecl {
  const name = nameOf(read(c.Identifier));
  const path = stringOf(read(c.StringLiteral));
  const source = one(c.importClause, importClause);
  return { kind: 'pool', name, path, ...(source === undefined ? {} : { source }), span: cover(read(c.Pool), name, path, source) };
}

function importClause(c: Children<C.ImportClauseCstNode>): A.ImportClause | undefined {
  const from = nameOf(read(c.from));
  if (from === undefined) return undefined;
  const format = nameOf(read(c.format));
  const options = each(c.importOption, importOption);
  return { kind: 'import', from, format, options, span: cover(from, format, read(c.LParen), options, read(c.RParen)) };
}

function importOption(c: Children<C.ImportOptionCstNode>): A.ImportOption | undefined {
  const name = nameOf(read(c.key));
  if (name === undefined) return undefined;
  const value = nameOf(read(c.word)) ?? stringOf(read(c.StringLiteral)) ?? numberOf(read(c.NumberLiteral));
  return { name, value, span: cover(name, read(c.Colon), value) };
}

function fieldDecl(c: Children<C.FieldDeclCstNode>): A.FieldDecl {
  const name = nameOf(read(c.name));
  const doc = stringOf(read(c.StringLiteral));
  const modifier = nameOf(read(c.modifier));
  const fieldType = nameOf(read(c.fieldType));
  const path = readAll(c.path).map((t) => nameOf(t)!);
  const command = one(c.commandSource, commandSource);
  const dependsOn = one(c.dependsClause, dependsClause);
  return {
    kind: 'logged', name, doc, modifier, fieldType, path, ...(command === undefined ? {} : { command }), dependsOn,
    span: cover(modifier, read(c.Field), name, doc, read(c.Colon), fieldType, read(c.Equals), path, command, dependsOn),
  };
}

function commandSource(c: Children<C.CommandSourceCstNode>): A.CommandSource | undefined {
  const word = nameOf(read(c.word));
  const program = stringOf(read(c.program));
  if (word === undefined || program === undefined) return undefined;
  return { word, program, span: cover(word, program) };
}

function dependsClause(c: Children<C.DependsClauseCstNode>): A.DependsClause | undefined {
  const depends = nameOf(read(c.depends));
  if (depends === undefined) return undefined;
  const on = nameOf(read(c.on));
  const parts = readAll(c.part).map((t) => nameOf(t)!);
  return { depends, on, parts, span: cover(depends, on, parts) };
}

function editDecl(c: Children<C.EditDeclCstNode>): A.EditDecl {
  const name = nameOf(read(c.name));
  const doc = stringOf(read(c.StringLiteral));
  const guard = one(c.guard, expression);
  const ops = each(c.editOp, editOp);
  return { kind: 'edit', name, doc, guard, ops, span: cover(read(c.keyword), name, doc, read(c.when), guard, read(c.Equals), ops) };
}

function editOp(c: Children<C.EditOpCstNode>): A.EditOp | undefined {
  const verb = nameOf(read(c.verb));
  if (verb === undefined) return undefined;
  const field = nameOf(read(c.field));
  const value = one(c.value, expression);
  const binder = one(c.editBinder, editBinder);
  const source = one(c.editSource, editSource);
  const destination = nameOf(read(c.destination));
  return {
    kind: 'edit-op', verb, field, value, binder, source, destination,
    span: cover(verb, field, read(c.Equals), value, binder, read(c.with), source, read(c.to), destination),
  };
}

function editBinder(c: Children<C.EditBinderCstNode>): A.EditBinder {
  const mode = nameOf(read(c.mode));
  const variable = nameOf(read(c.variable));
  const collection = one(c.collection, expression);
  const condition = one(c.condition, expression);
  return { mode, variable, collection, condition, span: cover(mode, variable, read(c.In), collection, read(c.where), condition) };
}

function editSource(c: Children<C.EditSourceCstNode>): A.EditSource | undefined {
  const word = nameOf(read(c.word));
  if (word !== undefined) return { kind: 'source-word', word, span: word.span };
  const variable = nameOf(read(c.variable));
  if (variable === undefined) return undefined;
  const collection = one(c.collection, expression);
  const condition = one(c.condition, expression);
  return { kind: 'source-each', variable, collection, condition, span: cover(variable, read(c.In), collection, read(c.where), condition) };
}

function signalDecl(c: Children<C.SignalDeclCstNode>): A.SignalDecl {
  const name = nameOf(read(c.Identifier));
  const doc = stringOf(read(c.StringLiteral));
  const body = one(c.expression, expression);
  return { kind: 'signal', name, doc, body, span: cover(read(c.Signal), name, doc, read(c.Equals), body) };
}

function detectorDecl(c: Children<C.DetectorDeclCstNode>): A.DetectorDecl {
  const name = nameOf(read(c.Identifier));
  const doc = stringOf(read(c.StringLiteral));
  const body = one(c.expression, expression);
  return { kind: 'detector', name, doc, body, span: cover(read(c.Detector), name, doc, read(c.Equals), body) };
}

function rewardDecl(c: Children<C.RewardDeclCstNode>): A.RewardDecl {
  const name = nameOf(read(c.Identifier));
  const doc = stringOf(read(c.StringLiteral));
  const base = nameOf(read(c.base));
  const terms = [...each(c.term, term), ...each(c.derivedTerm, derivedTerm)];
  const command = one(c.commandSource, commandSource);
  const span = cover(read(c.Reward), name, doc, read(c.LBrace), read(c.Equals), base, terms, command, read(c.RBrace));
  return { kind: 'reward', name, doc, base, terms, ...(command === undefined ? {} : { command }), span };
}

function term(c: Children<C.TermCstNode>): A.Term | undefined {
  const name = nameOf(read(c.Identifier));
  if (name === undefined) return undefined;
  const weight = one(c.signedNumber, signedNumber);
  const body = one(c.expression, expression);
  return {
    kind: 'term', name, weight: weight?.value, weightSpan: weight?.span, body, derived: false,
    span: cover(name, weight?.span, read(c.Star), body),
  };
}

function derivedTerm(c: Children<C.DerivedTermCstNode>): A.Term | undefined {
  const sign = read(c.Plus) ?? read(c.Minus);
  const number = read(c.NumberLiteral);
  const body = one(c.postfixExpression, postfixExpression);
  if (body === undefined) return undefined;
  // The term is named after what it weighs: `L` in `- 1.2 * L`, `misses` in `- 0.8 * misses(...)`.
  const label = body.kind === 'name' ? body.name : body.kind === 'call' ? body.callee : { text: '(expression)', span: body.span };
  const magnitude = number === undefined ? undefined : Number(number.image);
  const weight = magnitude === undefined ? undefined : sign?.image === '-' ? -magnitude : magnitude;
  return {
    kind: 'term', name: label, weight, weightSpan: number === undefined ? undefined : cover(sign, number), body, derived: true,
    span: cover(sign, number, read(c.Star), body),
  };
}

/** A number with its sign; undefined when the parser recovered without the number. */
function signedNumber(c: Children<C.SignedNumberCstNode>): A.NumberLit | undefined {
  const number = read(c.NumberLiteral);
  if (number === undefined) return undefined;
  const minus = read(c.Minus);
  const value = Number(number.image);
  return { kind: 'number', value: minus ? -value : value, span: cover(minus ?? read(c.Plus), number) };
}

function auditDecl(c: Children<C.AuditDeclCstNode>): A.AuditDecl {
  const name = nameOf(read(c.Identifier));
  const doc = stringOf(read(c.StringLiteral));
  const all = each(c.blockItem, blockItem);
  const items = all.filter((i): i is A.AuditItem => i.kind !== 'option');
  const options = all.filter((i): i is A.OptionItem => i.kind === 'option');
  return { kind: 'audit', name, doc, items, options, span: cover(read(c.Audit), name, doc, read(c.LBrace), all, read(c.RBrace)) };
}

function trainingDecl(c: Children<C.TrainingDeclCstNode>): A.TrainingDecl {
  const name = nameOf(read(c.Identifier));
  const doc = stringOf(read(c.StringLiteral));
  const items = each(c.blockItem, blockItem);
  return { kind: 'training', name, doc, items, span: cover(read(c.Training), name, doc, read(c.LBrace), items, read(c.RBrace)) };
}

function comparisonDecl(c: Children<C.ComparisonDeclCstNode>): A.ComparisonDecl {
  const name = nameOf(read(c.Identifier));
  const doc = stringOf(read(c.StringLiteral));
  const items = each(c.blockItem, blockItem);
  return { kind: 'comparison', name, doc, items, span: cover(read(c.Comparison), name, doc, read(c.LBrace), items, read(c.RBrace)) };
}

function blockItem(c: Children<C.BlockItemCstNode>): A.BlockItem | undefined {
  return one(c.auditItem, auditItem) ?? one(c.optionItem, optionItem);
}

function optionItem(c: Children<C.OptionItemCstNode>): A.OptionItem | undefined {
  const key = nameOf(read(c.key));
  if (key === undefined) return undefined;
  const values = each(c.optionValue, optionValue);
  return { kind: 'option', key, values, span: cover(key, values) };
}

function optionValue(c: Children<C.OptionValueCstNode>): A.OptionValue | undefined {
  const all = read(c.All);
  const name = nameOf(read(c.Identifier)) ?? nameOf(all);
  if (name !== undefined) {
    const argument = nameOf(read(c.argument));
    if (argument === undefined) return { kind: 'name', name, span: name.span };
    return { kind: 'name', name, argument, span: cover(name.span, argument, read(c.RParen)) };
  }
  const number = one(c.signedNumber, signedNumber);
  if (number === undefined) return undefined;
  const percent = read(c.Percent);
  return { kind: 'number', value: number.value, percent: percent !== undefined, span: cover(number.span, percent) };
}

function auditItem(c: Children<C.AuditItemCstNode>): A.AuditItem | undefined {
  return one(c.auditReward, auditReward) ?? one(c.auditCompare, auditCompare) ?? one(c.auditCorpus, auditCorpus) ?? one(c.auditPools, auditPools)
    ?? one(c.attackItem, attackItem) ?? one(c.latticeItem, latticeItem) ?? one(c.expectItem, expectItem) ?? one(c.conformsItem, conformsItem)
    ?? one(c.settingItem, settingItem);
}

function conformsItem(c: Children<C.ConformsItemCstNode>): A.ConformsItem | undefined {
  const keyword = read(c.Conforms);
  if (keyword === undefined) return undefined;
  const subject = nameOf(read(c.subject));
  const to = nameOf(read(c.to));
  const reference = nameOf(read(c.reference));
  const within = nameOf(read(c.within));
  const tolerance = one(c.tolerance, signedNumber);
  return { kind: 'conforms', keyword: tokenSpan(keyword), subject, to, reference, within, tolerance, span: cover(keyword, subject, to, reference, within, tolerance) };
}

function auditReward(c: Children<C.AuditRewardCstNode>): A.AuditRewardItem {
  const reward = nameOf(read(c.Identifier));
  return { kind: 'audit-reward', reward, span: cover(read(c.Reward), reward) };
}

function auditCompare(c: Children<C.AuditCompareCstNode>): A.AuditCompareItem {
  const rewards = one(c.nameList, nameList) ?? [];
  return { kind: 'audit-compare', rewards, span: cover(read(c.Compare), rewards) };
}

function auditCorpus(c: Children<C.AuditCorpusCstNode>): A.AuditCorpusItem {
  const corpus = nameOf(read(c.Identifier));
  return { kind: 'audit-corpus', corpus, span: cover(read(c.Corpus), corpus) };
}

function auditPools(c: Children<C.AuditPoolsCstNode>): A.AuditPoolsItem {
  const pools = one(c.nameList, nameList) ?? [];
  return { kind: 'audit-pools', pools, span: cover(read(c.Pools), pools) };
}

function nameList(c: Children<C.NameListCstNode>): A.Name[] {
  return readAll(c.Identifier).map((t) => ({ text: t.image, span: tokenSpan(t) }));
}

function attackItem(c: Children<C.AttackItemCstNode>): A.AttackItem {
  const name = nameOf(read(c.name));
  const attackKind = read(c.Equals) !== undefined ? nameOf(read(c.attackKind)) : name;
  const targets = one(c.nameList, nameList) ?? [];
  const generators = each(c.generator, generator);
  return {
    kind: 'attack', name, attackKind, targets, generators,
    span: cover(read(c.Attack), name, attackKind, read(c.Targets), targets, read(c.Using), generators),
  };
}

function generator(c: Children<C.GeneratorCstNode>): A.Generator | undefined {
  const candidates = read(c.Candidates);
  if (candidates !== undefined) {
    const path = stringOf(read(c.StringLiteral));
    const word = nameOf(read(c.source));
    if (word !== undefined) return { kind: 'candidates-command', word, command: path, span: cover(candidates, word, path) };
    return { kind: 'candidates-file', path, span: cover(candidates, path) };
  }
  const name = nameOf(read(c.Identifier));
  if (name === undefined) return undefined;
  const budget = numberOf(read(c.NumberLiteral));
  return { kind: 'generator', generator: name, budget, span: cover(name, read(c.LParen), budget, read(c.RParen)) };
}

function latticeItem(c: Children<C.LatticeItemCstNode>): A.LatticeItem {
  const entries = each(c.latticeEntry, latticeEntry);
  return { kind: 'lattice', entries, span: cover(read(c.Lattice), entries) };
}

function latticeEntry(c: Children<C.LatticeEntryCstNode>): A.LatticeEntry | undefined {
  const detector = nameOf(read(c.Identifier));
  if (detector === undefined) return undefined;
  const lambda = one(c.signedNumber, signedNumber);
  return { detector, lambda, span: cover(detector, read(c.Equals), lambda) };
}

function expectItem(c: Children<C.ExpectItemCstNode>): A.ExpectMetricItem | A.ExpectMinimalItem | undefined {
  const metric = nameOf(read(c.metric));
  if (metric === undefined) return undefined;
  const op = one(c.comparisonOperator, comparisonOperator);
  const start = read(c.Expect);
  if (read(c.LBrace) !== undefined) {
    const detectors = one(c.set, nameList) ?? [];
    return { kind: 'expect-minimal', metric, detectors, span: cover(start, metric, read(c.LBrace), detectors, read(c.RBrace)) };
  }
  const args = one(c.args, nameList) ?? [];
  const value = one(c.signedNumber, signedNumber);
  const percent = read(c.Percent);
  return {
    kind: 'expect-metric', metric, args, op, value, percent: percent !== undefined,
    span: cover(start, metric, read(c.RParen), args, value, percent),
  };
}

function settingItem(c: Children<C.SettingItemCstNode>): A.SettingItem | undefined {
  const token = read(c.setting);
  const key = settingWords.find((w) => w === token?.image);
  if (token === undefined || key === undefined) return undefined;
  const values = readAll(c.NumberLiteral).map((t): A.NumberLit => ({ kind: 'number', value: Number(t.image), span: tokenSpan(t) }));
  return { kind: 'setting', key, keySpan: tokenSpan(token), values, span: cover(token, values) };
}
