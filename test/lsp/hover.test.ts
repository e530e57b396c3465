import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DocumentDiagnosticRequest, HoverRequest, type FullDocumentDiagnosticReport, type Hover, type MarkupContent, type Position } from 'vscode-languageserver-protocol/node';
import { builtinFunctions, functionSignature } from '../../server/src/language/builtins.js';
import { paperSpec, positionIn, pullClientCapabilities, pushClientCapabilities, rangeOf, tempFolder, TestClient } from './lsp-test-client.js';

describe('hover', () => {
  let client: TestClient;
  const folder = tempFolder();
  const uri = folder.uri('paper.reward');
  before(async () => {
    client = await TestClient.start({ capabilities: pullClientCapabilities });
    await client.open(uri, paperSpec);
  });
  after(async () => {
    await client.stop();
    folder.remove();
  });

  async function hoverAt(position: Position): Promise<{ text: string; hover: Hover }> {
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
    assert.ok(hover, `no hover at ${JSON.stringify(position)}`);
    const contents = hover.contents as MarkupContent;
    assert.equal(contents.kind, 'markdown');
    return { text: contents.value, hover };
  }

  test('a detector used in a derived reward: kind, type, visibility, doc and source', async () => {
    const at = positionIn(paperSpec, 'R0 - 1.2 * L\n', 11);
    const { text, hover } = await hoverAt(at);
    assert.deepEqual(hover.range, { start: at, end: { line: at.line, character: at.character + 1 } });
    assert.ok(text.startsWith('detector `L`: boolean, visible'), text);
    assert.ok(text.includes('cites a real corpus passage it never retrieved'));
    assert.ok(text.includes('```reward\nany c in citations: c in corpus and c not in retrieved\n```'));
  });

  test('a logged field says what it depends on, and the frozen-field warning sits on the term that reads it', async () => {
    const text = `corpus c = "c.jsonl"
pool p = "p.jsonl"
field judge "the grader's verdict" : number = meta.judge.score depends on answer, steps
field score "a logged score" : number = meta.score
detector F "cites fakes" = any x in citations: x not in corpus
reward R {
  verdict 1 * judge
  logged 0.5 * score
}
audit a {
  reward R
  corpus c
  pools p
  attack fake_id targets F
}
`;
    const other = uri.replace('paper.reward', 'fields.reward');
    await client.open(other, text);
    const at = async (needle: string, offset: number): Promise<string> => {
      const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: other }, position: positionIn(text, needle, offset) });
      return (hover?.contents as MarkupContent).value;
    };
    const judge = await at('1 * judge', 4);
    assert.ok(judge.includes('Depends on `answer`, `steps`: only an edit that writes one of them'), judge);
    const score = await at('0.5 * score', 6);
    assert.ok(score.includes('Depends on the whole trajectory (no `depends on`)'), score);
    const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: other } })) as FullDocumentDiagnosticReport;
    const frozen = report.items.filter((d) => d.code === 'frozen-field');
    assert.deepEqual(frozen.map((d) => d.range), [rangeOf(text, 'logged 0.5 * score')]);
    assert.match(String(frozen[0]!.message), /^term 'logged' reads logged field 'score' \(meta\.score\)/);
  });

  test('a field or reward computed by a program says what runs, on what, and whether its requests carry gold; it is never frozen', async () => {
    const text = `corpus c = "c.jsonl"
pool p = "p.jsonl"
field fmt "a format check" : boolean = command "node fmt.mjs" depends on final_text
oracle field judge "a judge shown the gold" : number = command "node judge.mjs"
reward trained "the trainer's reward" = command "python3 -m herald_adapters.verl r.py"
detector F "cites fakes" = any x in citations: x not in corpus
reward R = trained - 1 * F
reward J { verdict 1 * judge  format 0.1 * fmt }
audit a {
  reward R
  compare J
  corpus c
  pools p
  attack fake_id targets F
}
`;
    const other = uri.replace('paper.reward', 'commands.reward');
    await client.open(other, text);
    const at = async (needle: string, offset: number): Promise<string> => {
      const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: other }, position: positionIn(text, needle, offset) });
      return (hover?.contents as MarkupContent).value;
    };
    const fmt = await at('0.1 * fmt', 7);
    assert.ok(fmt.includes('Computed by `node fmt.mjs` on every trajectory') && fmt.includes('carry no gold'), fmt);
    assert.ok(fmt.includes('Depends on `final_text`: an edit that writes none of them keeps the original\'s value'), fmt);
    const judge = await at('1 * judge', 4);
    assert.ok(judge.includes('carry the gold answers') && !judge.includes('frozen'), judge);
    const trained = await at('= trained - 1', 3);
    assert.ok(trained.includes('Computed by `python3 -m herald_adapters.verl r.py`'), trained);
    const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: other } })) as FullDocumentDiagnosticReport;
    assert.deepEqual(report.items.filter((d) => d.code === 'frozen-field'), []);
  });

  test('an edit: its operations, what they change, oracle by taint; an attack of it shows the edit\'s doc', async () => {
    const text = `corpus c = "c.jsonl"
pool p = "p.jsonl"
detector Q "a repeated query" = repeated_queries() > 0
reward R { a 1 * exact_match(answer, gold.answers) }
edit repeat "repeat one search" = duplicate each s in steps where s.type == "search"
edit swap "swap a support passage" = replace each c in citations where c in gold.support with x in retrieved
audit a {
  reward R
  corpus c
  pools p
  attack r = repeat targets Q
}
`;
    const other = uri.replace('paper.reward', 'edits.reward');
    await client.open(other, text);
    const at = async (needle: string, offset: number): Promise<string> => {
      const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: other }, position: positionIn(text, needle, offset) });
      return (hover?.contents as MarkupContent).value;
    };
    const repeat = await at('edit repeat', 6);
    assert.ok(repeat.includes('repeat one search') && repeat.includes('duplicate each s in steps where s.type == "search"') && repeat.includes('Changes steps.'), repeat);
    const swap = await at('edit swap', 6);
    assert.ok(swap.includes('Changes citations, final_text. Oracle'), swap);
    assert.ok((await at('= repeat targets', 2)).includes('repeat one search'));
    await client.close(other);
  });

  test('an oracle signal says where the gold labels come in', async () => {
    const { text } = await hoverAt(positionIn(paperSpec, 'signal support_miss', 7));
    assert.ok(text.startsWith('signal `support_miss`: boolean, oracle'), text);
    assert.ok(text.includes('through `gold`'), text);
  });

  test('a pool\'s from clause: the importer\'s summary and options, an option\'s doc and its value\'s, the word from', async () => {
    const text = 'corpus c = "c.jsonl"\npool runs = "dumps/*.jsonl" from verl(dialect: search_r1)\n';
    const other = uri.replace('paper.reward', 'import.reward');
    await client.open(other, text);
    const at = async (needle: string, delta = 1): Promise<string> => {
      const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: other }, position: positionIn(text, needle, delta) });
      return (hover?.contents as MarkupContent | undefined)?.value ?? '';
    };
    const format = await at('verl(');
    assert.ok(format.startsWith('importer `verl`'), format);
    assert.ok(format.includes('verl rollout') && format.includes('`dialect`') && format.includes('`question_marker`'), format);
    assert.ok((await at('dialect:')).startsWith('option `dialect` of importer `verl`'));
    assert.ok((await at('from ')).includes('importer'));
    const dialect = await at('search_r1)', 2);
    assert.ok(dialect.startsWith('`search_r1`: a value of option `dialect` of importer `verl`'), dialect);
    assert.ok(dialect.includes('<information>'), dialect);
    await client.close(other);
  });

  test('a built-in function: signature and doc', async () => {
    const { text } = await hoverAt(positionIn(paperSpec, 'token_f1(', 3));
    assert.ok(text.includes('token_f1(text: text, answers: texts | text, normalization?: text) → number'), text);
    assert.ok(text.includes('best token-level F1'), text);
  });

  test('every built-in function: its signature and doc', async () => {
    const calls = builtinFunctions.map((fn, i) => `signal s${i} = ${fn.name}()`).join('\n');
    const other = folder.uri('functions.reward');
    await client.open(other, calls);
    for (const fn of builtinFunctions) {
      const position = positionIn(calls, `= ${fn.name}(`, 2);
      const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: other }, position });
      const text = (hover?.contents as MarkupContent | undefined)?.value ?? '';
      assert.ok(text.startsWith(`\`\`\`reward\n${functionSignature(fn)}\n\`\`\``), text);
      assert.ok(text.includes(fn.doc), text);
    }
    await client.close(other);
  });

  test('gold and its fields are oracle', async () => {
    const gold = await hoverAt(positionIn(paperSpec, 'gold.support', 1));
    assert.ok(gold.text.startsWith('field `gold`: gold record, oracle'), gold.text);
    const support = await hoverAt(positionIn(paperSpec, 'gold.support', 6));
    assert.ok(support.text.startsWith('field `gold.support` of gold record: id set, oracle'), support.text);
    const citations = await hoverAt(positionIn(paperSpec, 'misses(citations', 8));
    assert.ok(citations.text.startsWith('field `citations`: id set, visible'), citations.text);
  });

  test('a reward lists its terms; a derived reward its base', async () => {
    const r0 = await hoverAt(positionIn(paperSpec, 'reward R0 ', 7));
    assert.ok(r0.text.startsWith('reward `R0`: number, oracle'), r0.text);
    assert.ok(r0.text.includes('- `answer` 1 × `token_f1(answer, gold.answers)` (oracle)'), r0.text);
    assert.ok(r0.text.includes('- `tool_cost` -0.03 × `search_calls`'), r0.text);
    const full = await hoverAt(positionIn(paperSpec, 'reward R_full', 8));
    assert.ok(full.text.includes('Derived from `R0`'), full.text);
    assert.ok(full.text.includes('- -0.8 × `support_miss`'), full.text);
  });

  test('a reward term shows its type, visibility, weight and expression', async () => {
    const { text, hover } = await hoverAt(positionIn(paperSpec, 'grounding   0.6', 2));
    assert.equal(text, 'term `grounding` of reward `R0`: number, oracle\n\n0.6 × `grounding(citations, gold.answers)` (oracle)');
    const name = rangeOf(paperSpec, 'grounding   0.6').start;
    assert.deepEqual(hover.range, { start: name, end: { line: name.line, character: name.character + 'grounding'.length } });
    const visible = await hoverAt(positionIn(paperSpec, 'tool_cost', 0));
    assert.ok(visible.text.startsWith('term `tool_cost` of reward `R0`: number, visible'), visible.text);
  });

  test('the step forms: fields, members, tool arguments and calls, visible, with their docs', async () => {
    const spec = 'detector D "d" = any s in steps: s.tool == "visit" and s.args.url == "" and s.step_reward < 0\n'
      + 'detector E "e" = calls("visit") > 2 or final_status == "length" or count(reasoning) == 0 or prompt == ""\nreward R { d -1 * D  e -1 * E }\n';
    const other = folder.uri('steps.reward');
    await client.open(other, spec);
    const at = async (text: string, offset: number): Promise<string> => {
      const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: other }, position: positionIn(spec, text, offset) });
      return (hover?.contents as MarkupContent | undefined)?.value ?? '';
    };
    const expected: [string, number, string, string][] = [
      ['in steps:', 3, 'field `steps`: steps, visible', 'Every logged step in order'],
      ['s.tool', 2, 'field `tool` of step: text, visible', '`"search"` for a search step'],
      ['s.args.url', 2, 'field `args` of step: tool arguments, visible', 'The arguments of a tool call'],
      ['s.args.url', 7, 'field `url` of tool arguments: text, visible', '`""` when the call has no such argument'],
      ['s.step_reward', 2, 'field `step_reward` of step: number, visible', '0 when the step logs none'],
      ['calls(', 1, '```reward\ncalls(tool: text) → number\n```', '`calls("search")` counts the search steps too'],
      ['final_status', 1, 'field `final_status`: text, visible', '`""` when the log has none'],
      ['reasoning)', 1, 'field `reasoning`: text set, visible', 'reasoning (think) steps'],
      ['prompt ==', 1, 'field `prompt`: text, visible', 'the same under every edit'],
    ];
    for (const [text, offset, headline, doc] of expected) {
      const shown = await at(text, offset);
      assert.ok(shown.startsWith(headline), shown);
      assert.ok(shown.includes(doc), shown);
    }
    await client.close(other);
  });

  test('a quantifier variable shows its element type', async () => {
    const { text } = await hoverAt(positionIn(paperSpec, 'c in corpus and', 0));
    assert.ok(text.startsWith('variable `c`: id, visible'), text);
  });

  test('audit words and attacks: kind docs, the attack\'s audit and targets', async () => {
    const selection = await hoverAt(positionIn(paperSpec, 'oracle_worst', 2));
    assert.ok(selection.text.startsWith('selection `oracle_worst`'), selection.text);
    const metric = await hoverAt(positionIn(paperSpec, 'expect asr', 8));
    assert.ok(metric.text.startsWith('metric `asr`'), metric.text);
    const attack = await hoverAt(positionIn(paperSpec, 'launder, oracle_worst', 2));
    assert.ok(attack.text.startsWith('attack `launder` in audit `paper`'), attack.text);
    assert.ok(attack.text.includes('targets `L`'), attack.text);
    assert.ok(attack.text.includes('`lexical(8)`'), attack.text);
  });

  test('keywords explain their construct, in context', async () => {
    const detector = await hoverAt(positionIn(paperSpec, 'detector U', 2));
    assert.ok(detector.text.startsWith('keyword `detector`'), detector.text);
    assert.ok(detector.text.includes('must be boolean and visible'), detector.text);
    const auditReward = await hoverAt(positionIn(paperSpec, '  reward R0\n', 3));
    assert.ok(auditReward.text.includes('names the audited reward'), auditReward.text);
    const line = rangeOf(paperSpec, '  reward R0\n').start.line;
    assert.deepEqual(auditReward.hover.range, { start: { line, character: 2 }, end: { line, character: 8 } });
  });

  test('an aggregation\'s word explains it, and its variable says what binds it', async () => {
    const spec = 'signal S = max a in gold.answers: token_f1(answer, a) else 0\nreward R { s 1 * S }\n';
    const other = folder.uri('aggregation.reward');
    await client.open(other, spec);
    const at = async (needle: string, offset: number) => {
      const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: other }, position: positionIn(spec, needle, offset) });
      return (hover?.contents as MarkupContent | undefined)?.value ?? '';
    };
    const word = await at('max a', 1);
    assert.ok(word.startsWith('aggregation `max`'), word);
    assert.ok(word.includes('else D'), word);
    assert.ok((await at('a in gold', 0)).includes('an aggregation (`sum`, `max`, `min`, `mean`)'));
  });

  test('comments, strings and punctuation have no hover', async () => {
    for (const position of [positionIn(paperSpec, '# Exact visible', 3), positionIn(paperSpec, '"pools/corpus.jsonl"', 4), positionIn(paperSpec, 'F = 1.0', 2)]) {
      assert.equal(await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position }), null);
    }
  });

  test('no handler failed', () => assert.deepEqual(client.loggedErrors, []));
});

describe('hover for a plain-text client', () => {
  test('answers in plain text when the client does not take markdown', async () => {
    const client = await TestClient.start({ capabilities: pushClientCapabilities });
    const uri = 'untitled:spec-1';
    const published = client.diagnostics.next((p) => p.uri === uri);
    await client.open(uri, 'signal s = has_final\n');
    await published;
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 13 } });
    assert.equal((hover?.contents as MarkupContent).kind, 'plaintext');
    await client.stop();
  });
});
