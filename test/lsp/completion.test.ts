import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import {
  CompletionItemKind, CompletionRequest, InsertTextFormat, type CompletionItem, type CompletionList,
} from 'vscode-languageserver-protocol/node';
import { builtinFields, builtinFunctions, functionSignature } from '../../server/src/language/builtins.js';
import { LineIndex } from '../../server/src/problems/line-index.js';
import { paperSpec, pullClientCapabilities, pushClientCapabilities, tempFolder, TestClient } from './lsp-test-client.js';

const cursor = '‸';

/** Splits a text with one cursor marker into the text and the marker's position. */
function withCursor(marked: string) {
  const at = marked.indexOf(cursor);
  assert.ok(at >= 0 && marked.indexOf(cursor, at + 1) < 0, 'exactly one cursor marker');
  const text = marked.slice(0, at) + marked.slice(at + cursor.length);
  return { text, position: new LineIndex(text).position(at) };
}

/** The paper's spec with `replacement` (holding the cursor) in place of `original`. */
function paperWith(original: string, replacement: string): string {
  assert.ok(paperSpec.includes(original), original);
  return paperSpec.replace(original, replacement);
}

const declarationKeywords = ['corpus', 'pool', 'field', 'oracle field', 'signal', 'detector', 'reward', 'audit', 'training', 'comparison', 'edit'];
const stepMembers = ['args', 'has_step_reward', 'query', 'results', 'retrieval', 'step_reward', 'text', 'titles', 'tool', 'type', 'urls'];
const auditItemKeywords = ['reward', 'compare', 'corpus', 'pools', 'attack', 'lattice', 'expect', 'conforms', 'seed', 'bootstrap', 'sweep'];

describe('completion', () => {
  let client: TestClient;
  const folder = tempFolder();
  let documents = 0;
  before(async () => {
    client = await TestClient.start({ capabilities: pullClientCapabilities });
  });
  after(async () => {
    await client.stop();
    folder.remove();
  });

  async function complete(marked: string): Promise<CompletionItem[]> {
    const { text, position } = withCursor(marked);
    const uri = folder.uri(`completion-${++documents}.reward`);
    await client.open(uri, text);
    const result = await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position });
    await client.close(uri);
    return Array.isArray(result) ? result : ((result as CompletionList | null)?.items ?? []);
  }
  const labels = (items: readonly CompletionItem[]) => items.map((i) => i.label).sort();
  const item = (items: readonly CompletionItem[], label: string, kind?: CompletionItemKind) => {
    const found = items.find((i) => i.label === label && (kind === undefined || i.kind === kind));
    assert.ok(found, `no completion '${label}' in ${labels(items).join(', ')}`);
    return found;
  };

  test('at the top level: the declaration keywords, as snippets', async () => {
    const items = await complete(`${paperSpec}\n${cursor}`);
    assert.deepEqual(labels(items), [...declarationKeywords, 'reward ='].sort());
    const signal = item(items, 'signal', CompletionItemKind.Keyword);
    assert.equal(signal.insertTextFormat, InsertTextFormat.Snippet);
    assert.equal(signal.insertText, 'signal ${1:name} "${2:what it measures}" = $0');
  });

  test('in an edit: the verbs, their modes and collections, the clauses, the sources, and the bound variables in conditions', async () => {
    assert.deepEqual(labels(await complete(`edit e "d" = ${cursor}`)), ['append', 'delete', 'duplicate', 'replace', 'set']);
    assert.deepEqual(labels(await complete(`edit e "d" when has_final = set answer = answer, ${cursor}`)), ['append', 'delete', 'duplicate', 'replace', 'set']);
    assert.deepEqual(labels(await complete(`edit e "d" = replace ${cursor}`)), ['each']);
    assert.deepEqual(labels(await complete(`edit e "d" = delete ${cursor}`)), ['all', 'each']);
    assert.deepEqual(labels(await complete(`edit e "d" = delete all s in ${cursor}`)), ['citations', 'steps']);
    assert.deepEqual(labels(await complete(`edit e "d" = set ${cursor}`)), ['answer', 'final_text']);
    assert.deepEqual(labels(await complete(`edit e "d" = replace each c in citations ${cursor}`)), ['where', 'with']);
    assert.deepEqual(labels(await complete(`edit e "d" = replace each c in citations with ${cursor}`)), ['fake_id', 'generated', 'other_ranks']);
    assert.deepEqual(labels(await complete(`edit e "d" = delete all s in steps where s.${cursor}`)), stepMembers);
    const condition = labels(await complete(`edit e "d" = replace each c in citations with x in retrieved where ${cursor}`));
    assert.ok(condition.includes('c') && condition.includes('x') && condition.includes('question'), condition.join(', '));
    assert.ok(labels(await complete(`edit e "d" = delete all s in steps where s.type == "search" ${cursor}`)).includes('and'));
  });

  test('in a conditional: the then or else it waits for, after a finished operand', async () => {
    const afterCondition = labels(await complete(`signal s = if has_final ${cursor}`));
    assert.ok(afterCondition.includes('then') && !afterCondition.includes('else'), afterCondition.join(', '));
    const afterBranch = labels(await complete(`signal s = if has_final then 1 ${cursor}`));
    assert.ok(afterBranch.includes('else') && !afterBranch.includes('then'), afterBranch.join(', '));
    const operand = await complete(`signal s = ${cursor}`);
    assert.equal(item(operand, 'if').insertTextFormat, InsertTextFormat.Snippet);
  });

  test('after a pool\'s path: from and the declarations; after from: the importers; in its parentheses: its options', async () => {
    assert.deepEqual(labels(await complete(`pool p = "p.jsonl" ${cursor}`)), [...declarationKeywords, 'from', 'reward ='].sort());
    assert.deepEqual(labels(await complete(`corpus c = "c.jsonl" ${cursor}`)), [...declarationKeywords, 'reward ='].sort());
    const formats = await complete(`pool p = "dumps/*.jsonl" from ${cursor}`);
    const verl = item(formats, 'verl', CompletionItemKind.Module);
    assert.match(String((verl.documentation as { value: string }).value), /verl rollout/);
    assert.ok(!labels(formats).includes('signal'));
    assert.ok(labels(await complete(`pool p = "p.jsonl" from ve${cursor}`)).includes('verl'));
    const options = await complete(`pool p = "p.jsonl" from verl(${cursor}`);
    assert.deepEqual(labels(options), ['dialect', 'question_marker']);
    assert.match(String((item(options, 'dialect').documentation as { value: string }).value), /search_r1/);
    assert.deepEqual(labels(await complete(`pool p = "p.jsonl" from verl(dialect: hermes, ${cursor})`)), ['question_marker']);
    assert.deepEqual(labels(await complete(`pool p = "p.jsonl" from verl(question_marker: ${cursor}`)), []);
    assert.deepEqual(labels(await complete(`pool p = "p.jsonl" from verl(dialect: hermes)\n${cursor}`)), [...declarationKeywords, 'reward ='].sort());
  });

  test('after an import option\'s colon: the values the importer lists for it, with their docs', async () => {
    const dialects = await complete(`pool p = "p.jsonl" from verl(dialect: ${cursor}`);
    assert.deepEqual(labels(dialects), ['asearcher', 'autorefine', 'hermes', 'mmsearch_r1', 'r1_searcher', 'research', 'search_r1', 'webthinker', 'zerosearch']);
    const hermes = item(dialects, 'hermes', CompletionItemKind.EnumMember);
    assert.equal(hermes.detail, 'verl dialect');
    assert.match(String((hermes.documentation as { value: string }).value), /<tool_call>/);
    // While the value is typed, after another option, and in another importer that takes a dialect.
    assert.ok(labels(await complete(`pool p = "p.jsonl" from skyrl(question_marker: "Q:", dialect: her${cursor}`)).includes('hermes'));
    assert.deepEqual(labels(await complete(`pool p = "p.jsonl" from art(answer: ${cursor})`)), ['answer_tag', 'boxed', 'exact_answer', 'whole']);
    assert.deepEqual(labels(await complete(`pool p = "p.jsonl" from browsecomp_plus(support: ${cursor}`)), ['both', 'evidence', 'gold']);
    // r1_searcher takes no options; an option nobody lists values for offers nothing.
    assert.deepEqual(labels(await complete(`pool p = "p.jsonl" from r1_searcher(dialect: ${cursor}`)), []);
    assert.deepEqual(labels(await complete(`pool p = "p.jsonl" from nope(dialect: ${cursor}`)), []);
  });

  test('in an empty file and while typing a keyword', async () => {
    assert.deepEqual(labels(await complete(cursor)), [...declarationKeywords, 'reward ='].sort());
    assert.deepEqual(labels(await complete(`det${cursor}`)), [...declarationKeywords, 'reward ='].sort());
  });

  test('inside an audit after `using`: the generators and `candidates`, nothing else', async () => {
    const items = await complete(paperWith('attack launder targets L using lexical(8)', `attack launder targets L using ${cursor}`));
    assert.deepEqual(labels(items), ['bm25', 'candidates', 'lexical']);
    assert.equal(item(items, 'lexical').insertText, 'lexical(${1:8})');
    assert.equal(item(items, 'lexical').kind, CompletionItemKind.Function);
  });

  test('inside an audit after a generator list: `,` continues it, a new line starts an item', async () => {
    const items = await complete(paperWith('attack launder targets L using lexical(8)', `attack launder targets L using lexical(8), ${cursor}`));
    assert.deepEqual(labels(items), ['bm25', 'candidates', 'lexical']);
    const next = await complete(paperWith('  lattice U', `  ${cursor}\n  lattice U`));
    // The audit options join the item keywords at an item's start.
    assert.deepEqual(labels(next), [...auditItemKeywords, 'certify', 'clusters', 'holdout', 'robustness', 'select', 'timeout'].sort());
  });

  test('inside an expression: visible declared values, fields, functions, variables in scope and operand keywords', async () => {
    const items = await complete(`${paperSpec}\ndetector D "d" =\n  any c in citations: ${cursor}`);
    const names = labels(items);
    for (const expected of ['c', 'citations', 'retrieved', 'has_final', 'corpus', 'L', 'U', 'F', 'no_retrieval', 'violation_rate', 'token_f1', 'mean', 'any', 'all', 'count', 'not', 'true']) {
      assert.ok(names.includes(expected), `missing ${expected}`);
    }
    // A detector must stay visible: gold and oracle signals are not offered; neither are
    // rewards, pools, corpora, audits or the detector being declared.
    for (const unexpected of ['gold', 'support_miss', 'R0', 'R_L', 'hotpot', 'wiki', 'paper', 'D', 'audit', 'lexical', 'and']) {
      assert.ok(!names.includes(unexpected), `unexpected ${unexpected}`);
    }
    assert.equal(item(items, 'c').kind, CompletionItemKind.Variable);
    assert.equal(item(items, 'c').detail, 'variable: id, visible');
    assert.equal(item(items, 'token_f1').detail, 'token_f1(text: text, answers: texts | text, normalization?: text) → number');
    assert.equal(item(items, 'L').kind, CompletionItemKind.Event);
    assert.equal(item(items, 'citations').kind, CompletionItemKind.Field);
    assert.equal(item(items, 'any', CompletionItemKind.Keyword).insertText, 'any ${1:c} in ${2:citations}: $0');
  });

  test('inside an expression: the aggregations as snippets, their variable in scope in the where filter and the body', async () => {
    const items = await complete(`${paperSpec}\nsignal S = ${cursor}`);
    assert.equal(item(items, 'max', CompletionItemKind.Keyword).insertText, 'max ${1:a} in ${2:gold.answers}: ${3:token_f1(answer, a)} else ${4:0}');
    assert.equal(item(items, 'sum', CompletionItemKind.Keyword).insertText, 'sum ${1:s} in ${2:steps}: $0');
    assert.ok(item(items, 'max', CompletionItemKind.Function), 'max(…) stays a function');
    const filter = await complete(`${paperSpec}\nsignal S = sum s in steps where ${cursor}`);
    assert.equal(item(filter, 's').detail, 'variable: step, visible');
    const body = await complete(`${paperSpec}\nsignal S = max a in gold.answers: ${cursor}`);
    assert.equal(item(body, 'a').detail, 'variable: text, oracle');
    const member = await complete(`${paperSpec}\nsignal S = sum s in steps where s.has_step_reward: s.${cursor}`);
    assert.deepEqual(labels(member), stepMembers);
  });

  test('inside an expression: every built-in function with its signature, every visible built-in field', async () => {
    const items = await complete(`${paperSpec}\ndetector D "d" = ${cursor}`);
    for (const fn of builtinFunctions) {
      const offered = item(items, fn.name, CompletionItemKind.Function);
      assert.equal(offered.detail, functionSignature(fn));
      const doc = offered.documentation;
      assert.ok((typeof doc === 'string' ? doc : doc?.value)?.includes(fn.doc), fn.name);
    }
    for (const field of builtinFields) {
      const offered = items.some((i) => i.label === field.name && i.kind === CompletionItemKind.Field);
      assert.equal(offered, field.visibility === 'visible', field.name);
    }
  });

  test('in a signal, oracle values are offered', async () => {
    const names = labels(await complete(`${paperSpec}\nsignal S = ${cursor}`));
    assert.ok(names.includes('gold') && names.includes('support_miss'));
    assert.ok(!names.includes('S'));
  });

  test('after a finished operand: the operators that continue it and the next declaration', async () => {
    const names = labels(await complete(`${paperSpec}\nsignal S = has_final ${cursor}`));
    assert.deepEqual(names, ['and', 'in', 'not in', 'or', ...declarationKeywords, 'reward ='].sort());
  });

  test('after `gold.` the gold fields; after `s.` on a search step its fields', async () => {
    const gold = await complete(`${paperSpec}\nsignal S = recall(citations, gold.${cursor}`);
    assert.deepEqual(labels(gold), ['answers', 'support']);
    assert.equal(item(gold, 'support').detail, 'id set, oracle');
    const step = await complete(`${paperSpec}\nsignal S = count s in searches: s.${cursor}`);
    assert.deepEqual(labels(step), stepMembers);
    assert.deepEqual(labels(await complete(`${paperSpec}\nsignal S = any c in citations: c.${cursor}`)), []);
  });

  test('after `s.` on any logged step its fields, typed; after `s.args.` nothing to list (any name is an argument)', async () => {
    const step = await complete(`${paperSpec}\ndetector D "d" = any s in steps: s.${cursor}`);
    assert.deepEqual(labels(step), stepMembers);
    assert.equal(item(step, 'tool').detail, 'text, visible');
    assert.equal(item(step, 'args').detail, 'tool arguments, visible');
    assert.equal(item(step, 'titles').detail, 'text set, visible');
    assert.equal(item(step, 'step_reward').detail, 'number, visible');
    assert.equal(item(step, 'has_step_reward').detail, 'boolean, visible');
    assert.deepEqual(labels(await complete(`${paperSpec}\ndetector D "d" = any s in steps: s.args.${cursor}`)), []);
  });

  test('the step built-ins are offered in a detector, with their types', async () => {
    const items = await complete(`${paperSpec}\ndetector D "d" = ${cursor}`);
    assert.equal(item(items, 'steps').detail, 'steps, visible');
    assert.equal(item(items, 'reasoning').detail, 'text set, visible');
    assert.equal(item(items, 'final_status').detail, 'text, visible');
    assert.equal(item(items, 'calls').detail, 'calls(tool: text) → number');
  });

  test('a reward term and a derived reward take expressions; the base of a derived reward is a reward', async () => {
    const term = labels(await complete(paperWith('  answer      1.0   * token_f1', `  answer      1.0   * ${cursor}token_f1`)));
    assert.ok(term.includes('gold') && term.includes('token_f1') && term.includes('L'));
    assert.ok(!term.includes('R0'));
    const base = labels(await complete(`${paperSpec}\nreward R2 = ${cursor}`));
    assert.deepEqual(base, ['R0', 'R_L', 'R_full']);
    const operand = labels(await complete(`${paperSpec}\nreward R2 = R0 - 0.5 * ${cursor}`));
    assert.ok(operand.includes('F') && operand.includes('support_miss') && !operand.includes('R2'));
  });

  test('audit items name declarations of the right kind', async () => {
    assert.deepEqual(labels(await complete(paperWith('  compare R_L, R_full', `  compare R_L, ${cursor}`))), ['R0', 'R_full']);
    assert.deepEqual(labels(await complete(paperWith('  corpus wiki\n', `  corpus ${cursor}\n`))), ['wiki']);
    assert.deepEqual(labels(await complete(paperWith('  pools hotpot, wiki2, musique5, musique8', `  pools hotpot, ${cursor}`))), ['musique5', 'musique8', 'wiki2']);
    assert.deepEqual(labels(await complete(paperWith('  attack fake_id targets F', `  attack fake_id targets ${cursor}`))), ['F', 'L', 'U']);
    assert.deepEqual(labels(await complete(paperWith('  lattice U = 0.5, L = 1.2, F = 1.0', `  lattice U = 0.5, ${cursor}`))), ['F', 'L']);
    assert.deepEqual(labels(await complete(paperWith('  attack fake_id targets F', `  attack ${cursor}`))), ['fake_id', 'launder', 'same_final']);
  });

  test('in `expect`: metrics, then the audit\'s rewards, its attacks and the selections', async () => {
    const at = (text: string) => paperWith('  expect minimal_repair == {L}', text);
    assert.deepEqual(labels(await complete(at(`  expect ${cursor}`))), ['asr', 'mean_margin', 'minimal_repair', 'upper', 'worst_margin']);
    assert.deepEqual(labels(await complete(at(`  expect upper(${cursor}`))), ['R0', 'R_L', 'R_full']);
    assert.deepEqual(labels(await complete(at(`  expect upper(R0, ${cursor}`))), ['fake_id', 'launder', 'same_final']);
    assert.deepEqual(labels(await complete(at(`  expect upper(R0, launder, ${cursor}`))), ['first_visible', 'oracle_worst']);
    assert.deepEqual(labels(await complete(at(`  expect minimal_repair == {${cursor}}`))), ['F', 'L', 'U']);
  });

  test('audit options: the option names at an item start, pool selections and rewards as their values', async () => {
    const at = (text: string) => paperWith('  lattice U = 0.5, L = 1.2, F = 1.0', `  lattice U = 0.5, L = 1.2, F = 1.0\n${text}`);
    const start = labels(await complete(at(`  ${cursor}`)));
    assert.ok(['select', 'robustness', 'clusters', 'attack', 'expect'].every((w) => start.includes(w)), start.join());
    const rules = ['all', 'best', 'first', 'gold_informed', 'hash_random', 'stored'];
    assert.deepEqual(labels(await complete(at(`  select ${cursor}`))), rules);
    assert.deepEqual(labels(await complete(at(`  robustness stored, ${cursor}`))), rules);
    assert.deepEqual(labels(await complete(at(`  robustness stored, best(${cursor}`))), ['R0', 'R_L', 'R_full']);
    assert.deepEqual(labels(await complete(at(`  clusters ${cursor}`))), ['common', 'each']);
    const after = labels(await complete(at(`  select first\n  ${cursor}`)));
    assert.ok(after.includes('robustness') && after.includes('expect'), after.join());
  });

  test('attacks are scoped to their audit', async () => {
    const other = `${paperSpec}\naudit other {\n  reward R0\n  corpus wiki\n  pools hotpot\n  attack bogus = fake_id targets F\n  expect asr(R0, ${cursor}\n}\n`;
    assert.deepEqual(labels(await complete(other)), ['bogus']);
  });

  test('nothing inside comments, strings and numbers, or where a new name is written', async () => {
    assert.deepEqual(await complete(`# a comment ${cursor}\n`), []);
    assert.deepEqual(await complete(`detector D "pools/${cursor}" = has_final\n`), []);
    assert.deepEqual(await complete(`signal s = 12${cursor}\n`), []);
    assert.deepEqual(await complete(`signal ${cursor}`), []);
    assert.deepEqual(await complete(`signal s = any ${cursor}`), []);
  });

  test('in training and comparison blocks: their options and items, then what each option lists', async () => {
    const block = (body: string) => `${paperSpec}\ntraining t {\n  ${body}\n}\ncomparison m {\n  base hotpot\n}\n`;
    const start = labels(await complete(block(cursor)));
    for (const word of ['log', 'normalize', 'min_groups', 'reward', 'corpus']) assert.ok(start.includes(word), `${word} in ${start.join(', ')}`);
    assert.ok(!start.includes('lattice') && !start.includes('attack'), start.join(', '));
    const pools = labels(await complete(block(`log ${cursor}`)));
    assert.ok(pools.includes('hotpot') && pools.includes('wiki2') && !pools.includes('R0'), pools.join(', '));
    assert.ok(labels(await complete(block(`log hotpot, ${cursor}`))).includes('musique5'));
    assert.deepEqual(labels(await complete(block(`log hotpot\n  normalize ${cursor}`))), ['mean', 'std']);
    const afterOption = labels(await complete(block(`log hotpot\n  ${cursor}`)));
    assert.ok(afterOption.includes('min_groups'), afterOption.join(', '));
    const inComparison = `${paperSpec}\ncomparison m {\n  base hotpot\n  detectors ${cursor}\n}\n`;
    assert.deepEqual(labels(await complete(inComparison)), ['F', 'L', 'U']);
    const comparisonStart = labels(await complete(`${paperSpec}\ncomparison m {\n  ${cursor}\n}\n`));
    assert.ok(comparisonStart.includes('attack') && comparisonStart.includes('treatment'), comparisonStart.join(', '));
  });

  test('no handler failed', () => assert.deepEqual(client.loggedErrors, []));
});

describe('completion for a client without snippets', () => {
  test('keywords insert plain text', async () => {
    const client = await TestClient.start({ capabilities: pushClientCapabilities });
    const uri = 'untitled:completion';
    const published = client.diagnostics.next((p) => p.uri === uri);
    await client.open(uri, '\n');
    await published;
    const result = await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 1, character: 0 } });
    const items = (Array.isArray(result) ? result : (result?.items ?? [])) as CompletionItem[];
    assert.ok(items.length > 0);
    for (const i of items) assert.equal(i.insertTextFormat, undefined);
    assert.equal(items.find((i) => i.label === 'reward =')?.insertText, 'reward');
    await client.stop();
  });
});

describe('completion of a link\'s path', () => {
  // A workspace folder with the spec, and a pool folder beside it outside the workspace.
  const root = tempFolder();
  const workspace = path.join(root.dir, 'ws');
  const specUri = pathToFileURL(path.join(workspace, 'spec.reward')).href;

  before(() => {
    fs.mkdirSync(path.join(workspace, 'pools/deeper'), { recursive: true });
    for (const f of ['pools/hotpot.jsonl', 'pools/2wiki.jsonl', 'pools/notes.txt', 'pools/.hidden.jsonl', 'top.jsonl']) fs.writeFileSync(path.join(workspace, f), '');
    fs.mkdirSync(path.join(root.dir, 'outside'));
    fs.writeFileSync(path.join(root.dir, 'outside/secret.jsonl'), '');
  });
  after(() => root.remove());

  async function completeIn(client: TestClient, marked: string): Promise<CompletionItem[]> {
    const { text, position } = withCursor(marked);
    await client.open(specUri, text);
    const result = await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: specUri }, position });
    await client.close(specUri);
    return Array.isArray(result) ? result : ((result as CompletionList | null)?.items ?? []);
  }
  const names = (items: readonly CompletionItem[]) => items.map((i) => i.label);

  test('lists folders and JSONL files relative to the spec, after corpus, pool and candidates', async () => {
    const client = await TestClient.start({ capabilities: pullClientCapabilities });
    assert.deepEqual(names(await completeIn(client, `pool p = "${cursor}"\n`)), ['pools/', 'top.jsonl']);
    const inPools = await completeIn(client, `corpus c = "pools/h${cursor}"\n`);
    assert.deepEqual(names(inPools), ['deeper/', '2wiki.jsonl', 'hotpot.jsonl']);
    // The segment being typed is replaced, up to the closing quote.
    assert.deepEqual((inPools[2]!.textEdit as { range: unknown }).range, { start: { line: 0, character: 18 }, end: { line: 0, character: 19 } });
    assert.deepEqual(names(await completeIn(client, `pool p = "pools/${cursor}\n`)), ['deeper/', '2wiki.jsonl', 'hotpot.jsonl']);
    const candidates = `${paperSpec}\naudit x {\n  attack d = launder targets L using candidates "${cursor}"\n}\n`;
    assert.deepEqual(names(await completeIn(client, candidates)), ['pools/', 'top.jsonl']);
    assert.ok(names(await completeIn(client, `pool p = "../${cursor}"\n`)).includes('outside/'));
    // Not in other strings.
    assert.deepEqual(names(await completeIn(client, `detector D "${cursor}" = has_final\n`)), []);
    await client.stop();
  });

  test('in an untrusted workspace, only inside its folders', async () => {
    const client = await TestClient.start({
      capabilities: pullClientCapabilities,
      workspace: { workspaceFolders: [{ uri: pathToFileURL(workspace).href, name: 'ws' }], initializationOptions: { workspaceTrusted: false } },
    });
    assert.deepEqual(names(await completeIn(client, `pool p = "pools/${cursor}"\n`)), ['deeper/', '2wiki.jsonl', 'hotpot.jsonl']);
    assert.deepEqual(names(await completeIn(client, `pool p = "../${cursor}"\n`)), []);
    assert.deepEqual(names(await completeIn(client, `pool p = "../outside/${cursor}"\n`)), []);
    await client.stop();
  });
});
