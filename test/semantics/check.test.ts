import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { analyze } from '../../server/src/semantics/analyze.js';
import type { FileStatus } from '../../server/src/inputs/file-probe.js';
import { issueCodes, type IssueCode } from '../../server/src/problems/issue-codes.js';
import { maxEditOperations, maxExpressionNesting, maxLatticeDetectors, maxSpecLength, maxSweepPoints } from '../../server/src/problems/limits.js';
import { marked } from '../helpers/marked.js';

/** A clean spec that exercises every construct; each case below breaks one thing in it. */
const clean = `corpus wiki = "c.jsonl"
pool p = "p.jsonl"
detector L "cites unretrieved" = any c in citations: c in corpus and c not in retrieved
detector F "cites fakes" = any c in citations: c not in corpus
signal rate "a rate" = mean(has_final, search_calls > 0)
reward R0 {
  answer 1 * exact_match(answer, gold.answers)
  cost -0.1 * rate
}
reward R_L = R0 - 1.2 * L
audit a {
  reward R0
  compare R_L
  corpus wiki
  pools p
  attack launder targets L using lexical(8)
  attack fake_id targets F
  lattice L = 1.2, F = 1
  expect asr(R_L, launder, oracle_worst) == 0
  expect minimal_repair == {L}
  seed 7
}
`;

/** A clean spec with a training-signal block and a policy comparison; the block cases break it. */
const cleanBlocks = `corpus wiki = "c.jsonl"
pool train = "t.jsonl"
pool eval_a = "a.jsonl"
pool eval_b = "b.jsonl"
detector L "cites unretrieved" = any c in citations: c in corpus and c not in retrieved
reward R0 { answer 1 * exact_match(answer, gold.answers) }
reward R_L = R0 - 1.2 * L
training t {
  reward R_L
  corpus wiki
  log train
  normalize std
  min_groups 5
}
comparison m {
  reward R0
  corpus wiki
  base eval_a
  treatment eval_b
  detectors L
  attack launder targets L using lexical(8)
  margin 2
  claim 1
  seed 7
  bootstrap 200
}
`;

const specDir = '/specs';
const fileStatus: Record<string, FileStatus> = { 'missing.jsonl': 'missing', 'dumps/*.jsonl': 'missing', 'folder.jsonl': 'unreadable', '../elsewhere/p.jsonl': 'untrusted' };
const probeFile = (absolutePath: string): FileStatus => fileStatus[path.relative(specDir, absolutePath)] ?? 'ok';

function run(text: string): ReturnType<typeof analyze> {
  return analyze(text, { specFile: `${specDir}/spec.reward`, probeFile });
}

function variant(from: string, to: string, base = clean): string {
  assert.ok(base.includes(from), `the clean spec has no '${from}'`);
  return base.replace(from, to);
}

interface Case {
  readonly code: IssueCode;
  readonly title: string;
  /** The broken spec, with ⟦⟧ around where the diagnostic must be. */
  readonly bad: string;
  /** The nearest correct spec: must have no problem at all. */
  readonly good?: string;
  readonly data?: Record<string, unknown>;
}

const cases: Case[] = [
  { code: issueCodes.lexError, title: 'a character no token starts with', bad: variant('cost -0.1 * rate', 'cost -0.1 * rate ⟦$⟧') },
  { code: issueCodes.unterminatedString, title: 'a string without its closing quote', bad: variant('"a rate" = mean(has_final, search_calls > 0)', '⟦"a rate = mean(has_final, search_calls > 0)⟧') },
  {
    code: issueCodes.badEscape, title: 'a backslash a spec string loses, in a description as in a pattern',
    bad: variant('"a rate" = mean(has_final, search_calls > 0)', '"a rate per line⟦\\n⟧" = mean(has_final, search_calls > 0)'),
    good: variant('"a rate" = mean(has_final, search_calls > 0)', '"a rate per line\\\\n" = mean(has_final, search_calls > 0)'),
  },
  { code: issueCodes.nonFiniteNumber, title: 'a weight too large for a double', bad: variant('cost -0.1 * rate', 'cost -⟦1e309⟧ * rate') },
  { code: issueCodes.nonFiniteNumber, title: 'a lattice penalty too large for a double', bad: variant('lattice L = 1.2', 'lattice L = ⟦2e308⟧') },
  { code: issueCodes.nonFiniteWeight, title: 'two finite weights that sum past a double', bad: variant('reward R_L = R0 - 1.2 * L', 'reward ⟦R_L⟧ = R0 - 1e308 * L - 1e308 * F') },
  { code: issueCodes.nonFiniteWeight, title: 'a lattice penalty that the sweep scales past a double', bad: variant('lattice L = 1.2, F = 1', '⟦lattice L = 1.2, F = 1e308⟧\n  sweep 0, 2') },
  { code: issueCodes.parseError, title: 'a term without its *', bad: variant('answer 1 * exact_match', 'answer 1 ⟦exact_match⟧') },
  { code: issueCodes.unknownName, title: 'a misspelt signal, with a suggestion', bad: variant('-0.1 * rate', '-0.1 * ⟦rat⟧'), data: { suggestion: 'rate' } },
  { code: issueCodes.unknownName, title: 'a misspelt pool in an audit', bad: variant('pools p', 'pools ⟦q⟧') },
  { code: issueCodes.duplicateName, title: 'two declarations with one name', bad: variant('reward R_L', 'signal ⟦rate⟧ = 2\nreward R_L') },
  { code: issueCodes.duplicateName, title: 'a signal named like a built-in field', bad: variant('reward R0 {', 'signal ⟦answer⟧ "a score" = 1\nreward R0 {') },
  { code: issueCodes.duplicateName, title: 'an audit named like a built-in field', bad: variant('audit a {', 'audit ⟦citations⟧ {') },
  { code: issueCodes.duplicateName, title: 'a logged field named like a built-in function', bad: variant('reward R0 {', 'field ⟦token_f1⟧ "judge" : number = meta.f1\nreward R0 {') },
  { code: issueCodes.duplicateName, title: 'two attacks with one name', bad: variant('attack fake_id targets F', 'attack fake_id targets F\n  attack ⟦fake_id⟧ targets F') },
  { code: issueCodes.kindMismatch, title: 'a pool used as a value', bad: variant('-0.1 * rate', '-0.1 * ⟦p⟧') },
  { code: issueCodes.kindMismatch, title: 'a detector where a reward is audited', bad: variant('  reward R0\n', '  reward ⟦L⟧\n') },
  { code: issueCodes.recursiveDefinition, title: 'a signal that reads itself', bad: variant('mean(has_final, search_calls > 0)', 'mean(has_final, ⟦rate⟧)') },
  { code: issueCodes.unusedDeclaration, title: 'a signal nothing reads', bad: variant('reward R0 {', 'signal ⟦spare⟧ = 1\nreward R0 {') },
  { code: issueCodes.typeMismatch, title: 'a numeric detector', bad: variant('any c in citations: c not in corpus', '⟦count(citations)⟧') },
  { code: issueCodes.typeMismatch, title: 'an id compared with a text set', bad: variant('c not in corpus', '⟦c⟧ not in gold.answers') },
  { code: issueCodes.typeMismatch, title: 'an if whose branches differ in type', bad: variant('mean(has_final, search_calls > 0)', 'mean(has_final, ⟦if has_final then 1 else answer⟧)') },
  { code: issueCodes.typeMismatch, title: 'an if on a number', bad: variant('mean(has_final, search_calls > 0)', 'mean(has_final, if ⟦search_calls⟧ then 1 else 0)') },
  { code: issueCodes.oracleDetector, title: 'a detector whose if reads gold in a branch', bad: variant('c not in corpus', 'c not in (if has_final then corpus else ⟦gold⟧.support)') },
  { code: issueCodes.badPattern, title: 'a capture group the pattern does not have', bad: variant('mean(has_final, search_calls > 0)', 'mean(has_final, last_match(final_text, "<answer>.*</answer>", ⟦1⟧) == "")') },
  { code: issueCodes.badPattern, title: 'a pattern with an unclosed bracket', bad: variant('mean(has_final, search_calls > 0)', 'mean(has_final, matches(final_text, "<answer>⟦[a-z⟧"))') },
  { code: issueCodes.badField, title: 'a logged field of an unknown type', bad: variant('reward R0 {', 'field judge "score" : ⟦float⟧ = meta.judge.score\nsignal j = judge\nreward R0 {\n  j 1 * j'), good: variant('reward R0 {', 'field judge "score" : number = meta.judge.score\nsignal j = judge\nreward R0 {\n  j 1 * j') },
  { code: issueCodes.badField, title: 'a logged field read from outside meta', bad: variant('reward R0 {', 'field judge "score" : number = ⟦judge.score⟧\nsignal j = judge\nreward R0 {\n  j 1 * j') },
  { code: issueCodes.badField, title: "a misspelt part in a field's depends on", bad: variant('reward R0 {', 'field judge "score" : number = meta.judge.score depends on ⟦answr⟧\nsignal j = judge\nreward R0 {\n  j 1 * j'), data: { suggestion: 'answer' } },
  { code: issueCodes.badField, title: "a part no logged value can depend on in a field's depends on", bad: variant('reward R0 {', 'field judge "score" : number = meta.judge.score depends on answer, ⟦gold⟧\nsignal j = judge\nreward R0 {\n  j 1 * j') },
  { code: issueCodes.badField, title: "'depends' without 'on'", bad: variant('reward R0 {', 'field judge "score" : number = meta.judge.score depends ⟦of⟧ answer\nsignal j = judge\nreward R0 {\n  j 1 * j') },
  {
    code: issueCodes.frozenField, title: 'a term that reads a logged field no pool re-renders, under attacks that write what it depends on',
    bad: variant('reward R0 {', 'field judge "score" : number = meta.judge.score\nreward R0 {\n  ⟦verdict 1 * judge⟧'),
    good: variant('reward R0 {', 'field judge "score" : number = meta.judge.score depends on answer\nreward R0 {\n  verdict 1 * judge'),
    data: { audit: 'a', field: 'judge', fields: ['judge'], attacks: ['launder', 'fake_id'], rewards: ['R0', 'R_L'] },
  },
  { code: issueCodes.oracleDetector, title: 'a detector that reads an oracle logged field', bad: variant('detector F "cites fakes" = any c in citations: c not in corpus', 'oracle field judge "saw gold" : number = meta.judge\ndetector F "cites fakes" = ⟦judge⟧ > 0.5') },
  { code: issueCodes.wrongArity, title: 'a function given one argument too many', bad: variant('exact_match(answer, gold.answers)', 'exact_match(answer, gold.answers, "squad", ⟦answer⟧)') },
  { code: issueCodes.badArgument, title: 'a misspelt normalisation', bad: variant('exact_match(answer, gold.answers)', 'exact_match(answer, gold.answers, ⟦"sqaud"⟧)'), good: variant('exact_match(answer, gold.answers)', 'exact_match(answer, gold.answers, "squad_spaced")') },
  { code: issueCodes.badArgument, title: 'digits of round that are no whole number', bad: variant('mean(has_final, search_calls > 0)', 'round(mean(has_final, search_calls > 0), ⟦0.5⟧)') },
  { code: issueCodes.unknownMember, title: 'a misspelt gold field', bad: variant('gold.answers', 'gold.⟦answer⟧'), data: { suggestion: 'answers' } },
  { code: issueCodes.oracleDetector, title: 'a detector that reads gold', bad: variant('c not in corpus', 'c not in ⟦gold⟧.support') },
  { code: issueCodes.oracleDetector, title: 'a detector that reads gold through a signal', bad: variant('detector F "cites fakes" = any c in citations: c not in corpus', 'signal em = exact_match(answer, gold.answers) > 0\ndetector F "cites fakes" = ⟦em⟧') },
  { code: issueCodes.missingDescription, title: 'a detector without a description', bad: variant('detector F "cites fakes"', 'detector ⟦F⟧') },
  { code: issueCodes.penaltySign, title: 'a derived reward that pays for a violation', bad: variant('R0 - 1.2 * L', 'R0 ⟦+ 1.2⟧ * L') },
  { code: issueCodes.penaltySign, title: 'a negative lattice penalty', bad: variant('lattice L = 1.2', 'lattice L = ⟦-1.2⟧') },
  { code: issueCodes.penaltySign, title: 'a reward term that pays for a detector', bad: variant('cost -0.1 * rate', 'cost -0.1 * rate\n  fakes ⟦0.5⟧ * F') },
  { code: issueCodes.missingFile, title: 'a pool that does not exist', bad: variant('"p.jsonl"', '⟦"missing.jsonl"⟧'), data: { path: '/specs/missing.jsonl' } },
  { code: issueCodes.missingFile, title: "a comparison's candidate file that does not exist", bad: variant('using lexical(8)\n  margin', 'using lexical(8), candidates ⟦"missing.jsonl"⟧\n  margin', cleanBlocks), good: cleanBlocks, data: { path: '/specs/missing.jsonl' } },
  { code: issueCodes.untrustedFile, title: "a comparison's candidate file outside an untrusted workspace", bad: variant('using lexical(8)\n  margin', 'using lexical(8), candidates ⟦"../elsewhere/p.jsonl"⟧\n  margin', cleanBlocks), good: cleanBlocks, data: { path: '/elsewhere/p.jsonl' } },
  { code: issueCodes.unreadableFile, title: 'a corpus path that is a folder', bad: variant('"c.jsonl"', '⟦"folder.jsonl"⟧') },
  { code: issueCodes.missingFile, title: 'a pool glob that matches no file', bad: variant('"p.jsonl"', '⟦"dumps/*.jsonl"⟧'), good: variant('"p.jsonl"', '"runs/*.jsonl"') },
  { code: issueCodes.unknownImporter, title: 'a pool imported from a format no importer reads', bad: variant('"p.jsonl"', '"p.jsonl" from ⟦verll⟧(dialect: search_r1)'), good: variant('"p.jsonl"', '"p.jsonl" from verl(dialect: search_r1)') },
  { code: issueCodes.badImportOption, title: 'an option the importer does not take', bad: variant('"p.jsonl"', '"p.jsonl" from verl(⟦dialekt⟧: search_r1)'), good: variant('"p.jsonl"', '"p.jsonl" from verl(dialect: search_r1)') },
  { code: issueCodes.badImportOption, title: 'an option value the importer refuses', bad: variant('"p.jsonl"', '"p.jsonl" from verl(dialect: ⟦search_r2⟧)'), good: variant('"p.jsonl"', '"p.jsonl" from verl(dialect: hermes)') },
  { code: issueCodes.badImportOption, title: 'an option given twice', bad: variant('"p.jsonl"', '"p.jsonl" from verl(dialect: hermes, ⟦dialect⟧: hermes)'), good: variant('"p.jsonl"', '"p.jsonl" from verl()') },
  { code: issueCodes.untrustedFile, title: 'a pool outside an untrusted workspace', bad: variant('"p.jsonl"', '⟦"../elsewhere/p.jsonl"⟧'), data: { path: '/elsewhere/p.jsonl' } },
  { code: issueCodes.incompleteAudit, title: 'an audit without a corpus', bad: variant('audit a {', 'audit ⟦a⟧ {').replace('  corpus wiki\n', '') },
  { code: issueCodes.repeatedAuditItem, title: 'an audit with two rewards', bad: variant('  reward R0\n', '  reward R0\n  ⟦reward R0⟧\n') },
  { code: issueCodes.unknownAttackKind, title: 'a misspelt attack kind', bad: variant('attack launder targets', 'attack launder = ⟦laundr⟧ targets'), data: { suggestion: 'launder' } },
  { code: issueCodes.badEdit, title: 'an edit with an unknown verb', bad: variant('reward R_L = R0 - 1.2 * L', 'edit pad "pad the answer" = ⟦padd⟧ answer = concat(answer, " ", question)\nreward R_L = R0 - 1.2 * L'), good: variant('reward R_L = R0 - 1.2 * L', 'edit pad "pad the answer" = set answer = concat(answer, " ", question)\nreward R_L = R0 - 1.2 * L') },
  { code: issueCodes.badEdit, title: 'an edit with two each operations', bad: variant('reward R_L = R0 - 1.2 * L', 'edit two "two forks" = delete each s in steps where s.type == "search", ⟦delete each c in citations⟧\nreward R_L = R0 - 1.2 * L'), good: variant('reward R_L = R0 - 1.2 * L', 'edit two "one fork" = delete all s in steps where s.type == "search", delete each c in citations\nreward R_L = R0 - 1.2 * L') },
  { code: issueCodes.badEdit, title: 'replace with an unknown source', bad: variant('reward R_L = R0 - 1.2 * L', 'edit swap "swap" = replace each c in citations with ⟦generatd⟧\nreward R_L = R0 - 1.2 * L'), good: variant('reward R_L = R0 - 1.2 * L', 'edit swap "swap" = replace each c in citations with generated\nreward R_L = R0 - 1.2 * L') },
  { code: issueCodes.badEdit, title: 'an edit of one operation too many', bad: variant('reward R_L = R0 - 1.2 * L', `edit pad "double" = ${'set answer = concat(answer, answer), '.repeat(maxEditOperations)}⟦set answer = concat(answer, answer)⟧\nreward R_L = R0 - 1.2 * L`), good: variant('reward R_L = R0 - 1.2 * L', `edit pad "double" = ${'set answer = concat(answer, answer), '.repeat(maxEditOperations - 1)}set answer = concat(answer, answer)\nreward R_L = R0 - 1.2 * L`) },
  {
    code: issueCodes.commandInEdit, title: "an edit whose guard reads a field computed by a command",
    bad: variant('reward R_L = R0 - 1.2 * L', 'field judge "a judge" : number = command "node judge.mjs"\nedit ⟦pad⟧ "pad a good answer" when judge > 0.5 = set answer = concat(answer, " ", question)\nreward R_L = R0 - 1.2 * L - 0.1 * judge').replace('  attack fake_id targets F\n', '  attack fake_id targets F\n  attack pad\n'),
    good: variant('reward R_L = R0 - 1.2 * L', 'field judge "a judge" : number = command "node judge.mjs"\nedit pad "pad the answer" = set answer = concat(answer, " ", question)\nreward R_L = R0 - 1.2 * L - 0.1 * judge').replace('  attack fake_id targets F\n', '  attack fake_id targets F\n  attack pad\n'),
  },
  {
    code: issueCodes.badConformance, title: 'a conforms line that compares a pool',
    bad: variant('  expect minimal_repair == {L}', '  expect minimal_repair == {L}\n  conforms R0 to ⟦p⟧'),
    good: variant('  expect minimal_repair == {L}', '  expect minimal_repair == {L}\n  conforms R_L to R0 within 0'),
  },
  {
    code: issueCodes.badConformance, title: "a conforms line without 'to', and a negative tolerance",
    bad: variant('  expect minimal_repair == {L}', '  expect minimal_repair == {L}\n  conforms R_L ⟦as⟧ R0 within ⟦-1⟧'),
  },
  { code: issueCodes.neverEligible, title: 'an attack whose target reads nothing the edit changes', bad: variant('  attack fake_id targets F\n', '  attack fake_id targets F\n  attack padded = pad targets ⟦F⟧\n').replace('reward R_L = R0 - 1.2 * L', 'edit pad "pad the answer" = set answer = concat(answer, " ", question)\nreward R_L = R0 - 1.2 * L') },
  { code: issueCodes.unknownGenerator, title: 'a misspelt generator', bad: variant('lexical(8)', '⟦lexicl⟧(8)'), data: { suggestion: 'lexical' } },
  { code: issueCodes.generatorNotAllowed, title: 'candidates for an exact edit', bad: variant('attack fake_id targets F', 'attack fake_id targets F using ⟦bm25(4)⟧') },
  { code: issueCodes.missingGenerator, title: 'a launder attack without candidates', bad: variant('attack launder targets L using lexical(8)', '⟦attack launder targets L⟧') },
  { code: issueCodes.invalidBudget, title: 'a fractional budget', bad: variant('lexical(8)', 'lexical(⟦2.5⟧)') },
  { code: issueCodes.unknownMetric, title: 'a misspelt metric', bad: variant('expect asr(', 'expect ⟦asrr⟧(') },
  { code: issueCodes.unknownSelection, title: 'a misspelt selection', bad: variant('oracle_worst)', '⟦oracle_wrst⟧)'), data: { suggestion: 'oracle_worst' } },
  { code: issueCodes.rewardNotAudited, title: 'an expect on a reward the audit does not compare', bad: variant('asr(R_L,', 'asr(⟦R_L⟧,').replace('  compare R_L\n', '') },
  { code: issueCodes.invalidSetting, title: 'a fractional seed', bad: variant('seed 7', 'seed ⟦7.5⟧') },
  { code: issueCodes.valueOutOfRange, title: 'a rate above 100%', bad: variant('oracle_worst) == 0', 'oracle_worst) <= ⟦150⟧%') },
  { code: issueCodes.unknownPoolSelection, title: 'a misspelt pool selection', bad: variant('  seed 7\n', '  seed 7\n  select ⟦frist⟧\n'), good: variant('  seed 7\n', '  seed 7\n  select first\n'), data: { suggestion: 'first' } },
  { code: issueCodes.unknownPoolSelection, title: 'best without its reward', bad: variant('  seed 7\n', '  seed 7\n  robustness all, ⟦best⟧\n'), good: variant('  seed 7\n', '  seed 7\n  robustness all, best(R0), gold_informed\n') },
  { code: issueCodes.rewardNotAudited, title: 'best of a reward the audit does not score', bad: variant('  seed 7\n', '  seed 7\n  select best(⟦R_F⟧)\n').replace('audit a {', 'reward R_F = R0 - 1 * F\naudit a {'), good: variant('  seed 7\n', '  seed 7\n  select best(R_L)\n') },
  { code: issueCodes.unknownOption, title: 'a misspelt audit option', bad: variant('  seed 7\n', '  seed 7\n  ⟦robustnes⟧ first\n'), good: variant('  seed 7\n', '  seed 7\n  robustness first\n  clusters common\n'), data: { suggestion: 'robustness' } },
  { code: issueCodes.unknownOption, title: 'a misspelt training option', bad: variant('min_groups 5', '⟦min_group⟧ 5', cleanBlocks), good: cleanBlocks, data: { suggestion: 'min_groups' } },
  { code: issueCodes.unknownOption, title: 'a normalisation that is neither std nor mean', bad: variant('normalize std', 'normalize ⟦median⟧', cleanBlocks), good: cleanBlocks },
  { code: issueCodes.misplacedItem, title: 'a lattice in a training block', bad: variant('  min_groups 5\n', '  min_groups 5\n  ⟦lattice L = 1.2⟧\n', cleanBlocks), good: cleanBlocks },
  { code: issueCodes.misplacedItem, title: 'an expect line in a comparison', bad: variant('  claim 1\n', '  claim 1\n  ⟦expect minimal_repair == {L}⟧\n', cleanBlocks), good: cleanBlocks },
  { code: issueCodes.incompleteAudit, title: 'a training block without its log', bad: variant('training t {', 'training ⟦t⟧ {', cleanBlocks).replace('  log train\n', ''), good: cleanBlocks },
  { code: issueCodes.incompleteAudit, title: 'a comparison without its treatment arm', bad: variant('comparison m {', 'comparison ⟦m⟧ {', cleanBlocks).replace('  treatment eval_b\n', ''), good: cleanBlocks },
  { code: issueCodes.invalidSetting, title: 'a fractional min_groups', bad: variant('min_groups 5', 'min_groups ⟦2.5⟧', cleanBlocks), good: cleanBlocks },
  { code: issueCodes.kindMismatch, title: 'a detector given as a training log', bad: variant('log train', 'log ⟦L⟧', cleanBlocks).replace('pool train = "t.jsonl"\n', ''), good: cleanBlocks },
  { code: issueCodes.repeatedAuditItem, title: 'a comparison with two margins', bad: variant('  margin 2\n', '  margin 2\n  ⟦margin 3⟧\n', cleanBlocks), good: cleanBlocks },
  { code: issueCodes.specTooLarge, title: 'a spec past the size limit', bad: `⟦⟧${clean}${'#'.repeat(maxSpecLength)}\n` },
  { code: issueCodes.nestingTooDeep, title: 'parentheses nested past the limit', bad: variant('mean(has_final, search_calls > 0)', `${'('.repeat(maxExpressionNesting)}⟦(⟧has_final${')'.repeat(maxExpressionNesting + 1)}`) },
  { code: issueCodes.latticeTooLarge, title: 'a lattice of one detector too many', bad: variant('lattice L = 1.2, F = 1', `lattice L = 1.2, F = 1${', L = 1'.repeat(maxLatticeDetectors - 2)}, ⟦L = 1⟧`) },
  { code: issueCodes.settingTooLarge, title: 'a bootstrap of a billion resamples', bad: variant('seed 7', 'seed 7\n  bootstrap ⟦1e9⟧') },
  { code: issueCodes.settingTooLarge, title: 'a sweep of one scale too many', bad: variant('seed 7', `seed 7\n  sweep ${'1, '.repeat(maxSweepPoints)}⟦2⟧`) },
];

describe('check: every issue code', () => {
  it('the clean spec has no problems', () => {
    assert.deepEqual(run(clean).problems, []);
  });

  it('the clean spec with training and comparison blocks has no problems', () => {
    assert.deepEqual(run(cleanBlocks).problems, []);
  });

  it('every code in the table has a case', () => {
    const covered = new Set(cases.map((c) => c.code));
    assert.deepEqual(Object.values(issueCodes).filter((code) => !covered.has(code)), []);
  });

  for (const c of cases) {
    it(`${c.code}: ${c.title}`, () => {
      const { text, spans } = marked(c.bad);
      const problems = run(text).problems.filter((p) => p.code === c.code);
      assert.deepEqual(problems.map((p) => p.span), spans, JSON.stringify(run(text).problems));
      if (c.data !== undefined) assert.deepEqual(problems[0]?.data, c.data);
      assert.deepEqual(run(c.good ?? clean).problems.filter((p) => p.code === c.code), []);
    });
  }
});

describe('check: types and visibility', () => {
  it('taints everything that reads gold, through signals, terms and derived rewards', () => {
    const { model } = run(`signal em = exact_match(answer, gold.answers)
signal n_calls = search_calls
detector U "no search" = has_final and search_calls == 0
reward visible_only { cost -0.1 * n_calls  u -1 * U }
reward oracle { em 1 * em }
reward derived = visible_only - 1 * U
reward derived_oracle = oracle - 1 * U
`);
    const info = (name: string) => {
      const symbol = model.globals.get(name);
      assert.ok(symbol, name);
      const i = model.declInfo.get(symbol.decl);
      return `${i?.type}/${i?.visibility}`;
    };
    assert.equal(info('em'), 'number/oracle');
    assert.equal(info('n_calls'), 'number/visible');
    assert.equal(info('U'), 'boolean/visible');
    assert.equal(info('visible_only'), 'number/visible');
    assert.equal(info('oracle'), 'number/oracle');
    assert.equal(info('derived'), 'number/visible');
    assert.equal(info('derived_oracle'), 'number/oracle');
  });

  it('types an if from its branches and taints it from all three parts', () => {
    const { model, problems } = run(`signal a = if has_final then 1 else false
signal b = if exact_match(answer, gold.answers) > 0 then 1 else 0
signal c = if has_final then tokens(answer) else count(gold.answers)
detector d "text branches" = (if has_final then answer else question) == ""
reward R { a 1 * a  b 1 * b  c 1 * c  d -1 * d }
`);
    assert.deepEqual(problems, []);
    const info = (name: string) => {
      const i = model.declInfo.get(model.globals.get(name)!.decl);
      return `${i?.type}/${i?.visibility}`;
    };
    assert.equal(info('a'), 'number/visible');
    assert.equal(info('b'), 'number/oracle');
    assert.equal(info('c'), 'number/oracle');
    assert.equal(info('d'), 'boolean/visible');
  });

  it('types logged fields as declared, oracle exactly when declared so, and taints their readers', () => {
    const { model, problems } = run(`field judge "score" : number = meta.judge.score
field ok "format" : boolean = meta.format_ok
oracle field gold_judge "saw gold" : number = meta.gold_judge
field docs "ids" : ids = meta.docids
signal a = if ok then judge else 0
signal b = gold_judge * 2
detector D "no logged docs" = count(docs) == 0 and not ok
reward R { a 1 * a  b 1 * b  d -1 * D }
`);
    assert.deepEqual(problems, []);
    const info = (name: string) => {
      const i = model.declInfo.get(model.globals.get(name)!.decl);
      return `${i?.type}/${i?.visibility}`;
    };
    assert.equal(info('judge'), 'number/visible');
    assert.equal(info('gold_judge'), 'number/oracle');
    assert.equal(info('a'), 'number/visible');
    assert.equal(info('b'), 'number/oracle');
    assert.equal(info('D'), 'boolean/visible');
    assert.equal(info('R'), 'number/oracle');
  });

  it('types quantifier variables from their collection', () => {
    const { problems } = run('signal s = any q in searches: q.query == question and count(q.results) > 0\nsignal t = count c in citations: c in gold.support\nreward R { x 1 * s  y 1 * t }');
    assert.deepEqual(problems, []);
    const { text, spans } = marked('signal s = any q in searches: q.⟦title⟧ == question\nreward R { x 1 * s }');
    assert.deepEqual(run(text).problems.map((p) => [p.code, p.span]), [['unknown-member', spans[0]]]);
  });

  it('treats booleans as 0/1 indicators in arithmetic but not strings', () => {
    assert.deepEqual(run('signal s = has_final * 2 + (search_calls > 1)\nreward R { x 1 * s }').problems, []);
    const { text, spans } = marked('signal s = ⟦question⟧ * 2\nreward R { x 1 * s }');
    assert.deepEqual(run(text).problems.map((p) => [p.code, p.span]), [['type-mismatch', spans[0]]]);
  });

  it('does not cascade errors from an unknown name', () => {
    const { problems } = run('signal s = nope + 1 > 2 and nope\nreward R { x 1 * s }');
    assert.deepEqual(problems.map((p) => p.code), ['unknown-name', 'unknown-name']);
  });

  it('a declaration named like a built-in is one error on its name, naming the built-in; uses keep the built-in', () => {
    // Issue 35: `signal answer = 1` was accepted, and the errors showed only at the uses.
    const { text, spans } = marked(`signal ⟦answer⟧ "shadows the field" = 1
audit ⟦citations⟧ { reward R }
pool ⟦token_f1⟧ = "p.jsonl"
reward R { f1 1 * token_f1(answer, gold.answers)  cited 0.1 * count(citations) }
`);
    const problems = analyze(text, { reportUnused: false }).problems.filter((p) => p.code !== issueCodes.incompleteAudit);
    assert.deepEqual(problems.map((p) => [p.code, p.span]), spans.map((span) => [issueCodes.duplicateName, span]));
    assert.match(problems[0]!.message, /'answer' is a built-in field/);
    assert.match(problems[2]!.message, /'token_f1' is a built-in function/);
    assert.deepEqual(problems.map((p) => p.data?.['builtin']).filter((b) => b !== undefined), ['field', 'field', 'function']);
  });

  it('skips linked-file checks without a folder and unused checks when asked', () => {
    const text = variant('"p.jsonl"', '"missing.jsonl"').replace('reward R0 {', 'signal spare = 1\nreward R0 {');
    assert.deepEqual(analyze(text, { reportUnused: false }).problems, []);
  });
});

describe('check: occurrences', () => {
  it('records every use of a detector, across expressions, derived rewards, targets and the lattice', () => {
    const { model, parsed } = run(clean);
    const lines = clean.split('\n');
    const L = model.globals.get('L');
    const uses = model.occurrences.filter((o) => o.symbol === L).map((o) => {
      const line = clean.slice(0, o.span.start).split('\n').length - 1;
      return `${o.isDeclaration ? 'decl' : 'use'}@${lines[line]!.trim().split(' ')[0]}`;
    });
    assert.deepEqual(uses, ['decl@detector', 'use@reward', 'use@attack', 'use@lattice', 'use@expect']);
    assert.ok(parsed.spec.decls.length > 0);
  });

  it('scopes attacks to their audit', () => {
    const two = `${clean}audit b {\n  reward R0\n  corpus wiki\n  pools p\n  attack same_final targets L\n  expect asr(R0, ⟦launder⟧, first_visible) == 0\n}\n`;
    const { text, spans } = marked(two);
    assert.deepEqual(run(text).problems.map((p) => [p.code, p.span]), [['unknown-name', spans[0]]]);
  });
});
