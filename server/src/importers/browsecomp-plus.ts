// BrowseComp-Plus run files: one `run_*.json` per query, `{query_id, status, tool_call_counts,
// retrieved_docids, result[{type: tool_call|reasoning|output_text, tool_name, arguments, output}], metadata{model}}`.
// `search` outputs a JSON list `[{docid, score?, snippet}]`; `get_document` returns `{docid, text}`.
// The items are laid out as the chat messages they were (a call and its output; reasoning and text
// before a call ride on that call's turn) and converted by the shared chat converter. The query
// text and gold are not in run files: further inputs give them (./browsecomp-gold.ts).
import { z } from 'zod';
import { addQueryFile, LabelBook, looksLikeQrels, supportIds, supportRules } from './browsecomp-gold.js';
import type { SupportRule } from './browsecomp-gold.js';
import { isObject } from './chat-messages.js';
import { itemMessages } from './browsecomp-items.js';
import { browseCompPlusRenderer } from './browsecomp-render.js';
import { chatOptionDocs, chatOptionValues, chatOptionShape, chatRules } from './chat-options.js';
import { fileStem, idText, jsonDocument, utf8Text } from './chat-records.js';
import { ImportTally } from './chat-row.js';
import { chatRulesJson } from './chat-render.js';
import { chatTrajectory } from './chat-trajectory.js';
import type { ChatRules } from './chat-trajectory.js';
import type { Importer } from './importer.js';

const defaults = { answer: 'exact_answer', citations: 'docid' } as const;

const options = z
  .strictObject({ ...chatOptionShape(defaults), support: z.enum(supportRules).default('evidence') })
  .transform((o) => ({ rules: chatRules(o), support: o.support }));

type BrowseCompOptions = z.output<typeof options>;

interface RunFile {
  readonly path: string;
  readonly run: Readonly<Record<string, unknown>>;
}


function addRun(tally: ImportTally, { path, run }: RunFile, sample: number, labels: LabelBook, rules: ChatRules, support: SupportRule): void {
  const at = { file: path, line: 1 };
  const queryId = idText(run.query_id);
  if (queryId === undefined) return tally.skip(at, 'query_id: expected a string or a number');
  if (!Array.isArray(run.result)) return tally.skip(at, 'result: expected a list');
  const read = itemMessages(run.result);
  if (!read.ok) return tally.skip(at, read.reason);
  const label = labels.get(queryId);
  const status = typeof run.status === 'string' && run.status !== '' ? run.status : undefined;
  const model = isObject(run.metadata) && typeof run.metadata.model === 'string' ? { model: run.metadata.model } : {};
  const meta = {
    ...model,
    sample,
    run: fileStem(path),
    ...(isObject(run.tool_call_counts) ? { tool_call_counts: run.tool_call_counts } : {}),
    ...(label?.judge === undefined ? {} : { judge: label.judge }),
    items: run.result,
    chat_rules: chatRulesJson(rules),
  };
  tally.add(
    {
      id: `${queryId}#${sample}`,
      questionId: queryId,
      question: label?.question ?? '',
      trajectory: chatTrajectory(read.value.messages, rules, status),
      ...(label === undefined ? {} : { gold: { answers: label.answers, support_ids: supportIds(label, support) } }),
      meta,
    },
    at,
  );
}

const supportRuleDocs: Readonly<Record<SupportRule, string>> = {
  evidence: "the query file's `evidence_docs`",
  gold: "the query file's `gold_docs`",
  both: '`evidence_docs` and `gold_docs`',
};

export const browseCompPlusImporter: Importer<BrowseCompOptions> = {
  format: 'browsecomp_plus',
  summary: 'BrowseComp-Plus run files (run_*.json, one per query), with its query file and qrels as further inputs for the question and gold',
  options,
  optionDocs: {
    ...chatOptionDocs(defaults),
    support: 'which labelled documents of the query file are `gold.support_ids`: `evidence` (evidence_docs), `gold` (gold_docs) or `both`; qrels lines given as inputs always count. Default `evidence`',
  },
  optionValues: {
    ...chatOptionValues,
    support: supportRules.map((r) => ({ value: r, doc: supportRuleDocs[r] })),
  },
  renderer: browseCompPlusRenderer,
  run(files, o, emit) {
    const tally = new ImportTally(emit);
    const labels = new LabelBook();
    const runs: RunFile[] = [];
    let labelFiles = 0;
    for (const file of files) {
      const decoded = utf8Text(file.bytes);
      if (!decoded.ok) {
        tally.read += 1;
        tally.skip({ file: file.path, line: 1 }, decoded.reason);
        continue;
      }
      const doc = jsonDocument(decoded.text);
      if (doc.ok && isObject(doc.value) && 'result' in doc.value) {
        runs.push({ path: file.path, run: doc.value });
        continue;
      }
      labelFiles += 1;
      const issues = doc.ok && isObject(doc.value) ? (labels.addQuery(doc.value) ? [] : [{ at: { file: file.path, line: 1 }, reason: "neither a run file (no 'result') nor a query record (no 'query_id')" }])
        : looksLikeQrels(decoded.text) ? labels.addQrels(file.path, decoded.text) : addQueryFile(labels, file.path, decoded.text);
      tally.read += issues.length;
      for (const issue of issues) tally.skipped.push(issue);
    }
    const samples = new Map<string, number>();
    for (const run of runs) {
      tally.read += 1;
      const key = idText(run.run.query_id) ?? '';
      const sample = samples.get(key) ?? 0;
      samples.set(key, sample + 1);
      addRun(tally, run, sample, labels, o.rules, o.support);
    }
    const unlabelled = tally.questionIds.filter((id) => labels.get(id) === undefined).length;
    if (labelFiles > 0) tally.note(`labels for ${labels.size} queries read from ${labelFiles} query/qrels files`);
    if (unlabelled > 0) tally.note(`${unlabelled} rows have no query text: no query file given for their query_id (question is "")`);
    if (runs.length > 0) tally.note('run files log no prompt: the rows have no meta.prompt, and the field prompt reads ""');
    return Promise.resolve(tally.result(null, 'never (run files carry query_id)'));
  },
};
