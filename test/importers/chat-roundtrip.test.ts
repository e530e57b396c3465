// Must show (issue 15): an old v1 pool and the same rows imported from chat-message form give
// byte-identical audit reports. Each row of the walkthrough sample is rendered as an ART trajectory
// (JSONL, one group per line: searches as `search` tool calls answered by `[Document k] (ID: …)`
// lists, invalid actions as assistant turns that call nothing, the final as the last assistant
// message; ids, question ids, gold, model/sample/group/pool in `metadata`), imported back through the
// registry, and audited by the CLI in a copy of the sample folder in place of the original pools.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { importerFor } from '../../server/src/importers/registry.js';
import type { ImportOutcome } from '../../server/src/importers/registry.js';
import type { ImportResult } from '../../server/src/importers/importer.js';
import { tempDir } from '../pool/temp-files.js';
import { artParquet } from './parquet-fixtures.js';
import type { ArtMessage, ArtRow } from './parquet-fixtures.js';
import type { V1Row } from '../pool/v1-row.js';

const sample = path.resolve('walkthrough/sample');
const herald = path.resolve('dist/herald.js');


function readRows(file: string): V1Row[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l): V1Row => JSON.parse(l));
}

const passages = new Map(fs.readFileSync(path.join(sample, 'pools/corpus.jsonl'), 'utf8').split('\n').filter((l) => l !== '').map((l) => {
  const passage: { id: string; text: string } = JSON.parse(l);
  return [passage.id, passage.text];
}));

/** One v1 row as the chat messages a tool-calling agent logs. */
function chatMessages(row: V1Row): PlainMessage[] {
  const messages: PlainMessage[] = [
    { role: 'system', content: 'Search with the search tool, answer in <answer></answer> and cite passages as [id].' },
    { role: 'user', content: row.question },
  ];
  for (const [k, step] of row.steps.entries()) {
    if (step.type === 'invalid') {
      messages.push({ role: 'assistant', content: step.text }, { role: 'user', content: 'Your previous action is invalid. Call a tool or answer.' });
      continue;
    }
    const id = `call_${k}`;
    const listing = step.results.map((docid, i) => `[Document ${i + 1}] (ID: ${docid}, Score: ${(0.9 - i / 10).toFixed(2)})\n${passages.get(docid) ?? ''}`).join('\n\n');
    messages.push(
      { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'search', arguments: JSON.stringify({ query: step.query }) } }] },
      { role: 'tool', tool_call_id: id, name: 'search', content: listing === '' ? 'No results.' : listing },
    );
  }
  if (row.final !== null) messages.push({ role: 'assistant', content: row.final.text });
  return messages;
}

/** The rows as ART's older JSONL: one group (the rows of one question) per line. */
function artJsonl(rows: readonly V1Row[]): string {
  const groups = new Map<string, V1Row[]>();
  for (const row of rows) groups.set(row.question_id, [...(groups.get(row.question_id) ?? []), row]);
  return [...groups.values()].map((group) => JSON.stringify({
    trajectories: group.map((row) => ({
      reward: 0,
      metrics: {},
      metadata: { id: row.id, question_id: row.question_id, question: row.question, answers: row.gold.answers, support_ids: row.gold.support_ids, ...(row.meta ?? {}) },
      messages_and_choices: chatMessages(row),
      tools: null,
      logs: [],
    })),
  })).join('\n') + '\n';
}

interface PlainMessage {
  role: string;
  content: string | null;
  tool_calls?: unknown[];
  tool_call_id?: string;
  name?: string;
}

/** The rows as ART's Parquet (ZSTD): one row per trajectory, `tool_calls` and `metadata` as JSON strings. */
function artParquetRows(rows: readonly V1Row[]): ArtRow[] {
  const groups = [...new Set(rows.map((r) => r.question_id))];
  return rows.map((row) => ({
    group_index: groups.indexOf(row.question_id),
    reward: 0,
    metadata: JSON.stringify({ id: row.id, question_id: row.question_id, question: row.question, answers: row.gold.answers, support_ids: row.gold.support_ids, ...(row.meta ?? {}) }),
    messages: chatMessages(row).map((m): ArtMessage => ({
      role: m.role,
      content: m.content,
      tool_calls: m.tool_calls === undefined ? null : JSON.stringify(m.tool_calls),
      tool_call_id: m.tool_call_id ?? null,
    })),
  }));
}

function audit(dir: string): string {
  const run = spawnSync(process.execPath, [herald, 'audit', 'paper.reward', '--format', 'json', '--quiet', '--no-cache'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.ok(run.status === 0 || run.status === 1, run.stderr);
  return run.stdout;
}

/**
 * The report as JSON without the pools' logged fields and turns (`profile.meta`, `profile.withTurns`):
 * an imported row keeps what the log held beside the trajectory (its messages, its turns), which a v1
 * row never had. Every other count of the profile, and every figure, must be the same.
 */
function withoutLogged(json: string): string {
  const report = JSON.parse(json) as { audits: { pools: { profile: Record<string, unknown> }[] }[] };
  for (const a of report.audits) for (const p of a.pools) {
    delete p.profile['meta'];
    delete p.profile['withTurns'];
  }
  return JSON.stringify(report, null, 2);
}

async function importInto(dir: string, form: 'jsonl' | 'parquet'): Promise<void> {
  const art = importerFor('art');
  assert.ok(art !== undefined);
  for (const name of ['hotpot', '2wiki']) {
    const rows = readRows(path.join(sample, 'pools', `${name}.jsonl`));
    const file = form === 'jsonl' ? { path: `${name}.art.jsonl`, bytes: new TextEncoder().encode(artJsonl(rows)) } : artParquet(`${name}.parquet`, artParquetRows(rows));
    const outcome: ImportOutcome = await art.run([file], { answer: 'answer_tag', citations: 'docid' });
    if (!outcome.ok) assert.fail(outcome.reason);
    const { counts, rows: imported, skipped }: ImportResult = outcome.result;
    assert.deepEqual(skipped, []);
    assert.deepEqual(counts, { read: rows.length, imported: rows.length, skipped: 0, questionIdsDerived: 0, groupsRecovered: null });
    assert.deepEqual(imported.map((r) => r.row.id), rows.map((r) => r.id));
    // The imported rows are v2 forms (result objects, citation markers), not copies of the v1 rows.
    assert.ok(imported.some((r) => JSON.stringify(r.row.steps).includes('"rank":1')));
    fs.writeFileSync(path.join(dir, 'pools', `${name}.jsonl`), imported.map((r) => JSON.stringify(r.row)).join('\n') + '\n');
  }
}

describe('chat-message roundtrip: v1 pool → ART → import → audit', () => {
  const before = audit(sample);

  for (const form of ['jsonl', 'parquet'] as const) {
    it(`audits to a byte-identical JSON report (ART ${form})`, async () => {
      const tmp = tempDir();
      fs.cpSync(sample, tmp.dir, { recursive: true });
      await importInto(tmp.dir, form);
      assert.ok(before.length > 1000);
      assert.equal(withoutLogged(audit(tmp.dir)), withoutLogged(before));
    });
  }
});
