import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import { splitJsonlText } from '../../server/src/inputs/jsonl.js';
import { poolRowJsonSchema } from '../../server/src/pool/json-schema.js';
import { parsePoolRow } from '../../server/src/pool/schemas.js';
import { poolRow } from './temp-files.js';

const repo = path.join(__dirname, '..', '..', '..');
const schemaFile = path.join(repo, 'docs', 'pool.schema.json');

describe('pool row JSON Schema', () => {
  const validate = new Ajv2020({ allErrors: true }).compile(JSON.parse(readFileSync(schemaFile, 'utf8')) as object);
  const loads = (row: unknown): boolean => parsePoolRow(row, { pool: 'p', file: 'p.jsonl', line: 1 }).ok;

  it('docs/pool.schema.json is what the zod schema generates now (run `npm run docs`)', () => {
    assert.equal(readFileSync(schemaFile, 'utf8'), `${JSON.stringify(poolRowJsonSchema(), null, 2)}\n`);
  });

  it('accepts every row of the sample pools', () => {
    for (const pool of ['hotpot.jsonl', 'model-llama3-8b.jsonl', 'train-R0.jsonl', 'eval-R_L.jsonl']) {
      const rows = splitJsonlText(readFileSync(path.join(repo, 'samples', 'pools', pool), 'utf8'));
      for (const { line, text } of rows.slice(0, 300)) assert.ok(validate(JSON.parse(text)), `${pool}:${line}: ${JSON.stringify(validate.errors)}`);
    }
  });

  it('agrees with the loader on the rows it accepts and the rows it skips', () => {
    const cases: [string, unknown][] = [
      ['a valid row', poolRow('t1')],
      ['keys nobody reads, at every level', poolRow('t1', { extra: 1, final: { answer: 'a', citations: [], text: '', score: 2 }, meta: { temperature: 0.7 } })],
      ['no final, no meta', poolRow('t1', { final: null, meta: undefined })],
      ['meta fields given as null', poolRow('t1', { meta: { model: null, sample: null, group: null } })],
      ['a missing question_id', { ...poolRow('t1'), question_id: undefined }],
      ['an empty id', poolRow('')],
      ['an unknown step type', poolRow('t1', { steps: [{ type: 'answer', text: 'x' }] })],
      ['a citation that is a number', poolRow('t1', { final: { answer: 'a', citations: [3], text: '' } })],
      ['a fractional sample', poolRow('t1', { meta: { sample: 0.5 } })],
      ['gold without support ids', poolRow('t1', { gold: { answers: ['a'] } })],
      ['an array', [poolRow('t1')]],
    ];
    for (const [what, row] of cases) {
      const json: unknown = JSON.parse(JSON.stringify(row));
      assert.equal(validate(json), loads(json), what);
    }
  });
});
