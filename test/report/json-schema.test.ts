import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import { reportJsonSchema } from '../../server/src/report/json-schema.js';
import { report } from '../../server/src/report/schema.js';
import { goldenReport } from './golden-report.js';

const schemaFile = path.join(__dirname, '..', '..', '..', 'docs', 'report.schema.json');

describe('report JSON Schema', () => {
  it('docs/report.schema.json is what the zod schema generates now (run `npm run schema`)', () => {
    assert.equal(readFileSync(schemaFile, 'utf8'), `${JSON.stringify(reportJsonSchema(), null, 2)}\n`);
  });

  it('accepts the golden report and rejects a broken one', () => {
    const validate = new Ajv2020({ allErrors: true }).compile(JSON.parse(readFileSync(schemaFile, 'utf8')) as object);
    const golden = goldenReport();
    assert.deepEqual(report.parse(golden), golden);
    assert.ok(validate(JSON.parse(JSON.stringify(golden))), JSON.stringify(validate.errors, null, 2));
    assert.equal(validate({ ...golden, version: 1 }), false, "a report of another version");
    const broken = JSON.parse(JSON.stringify(golden)) as { audits: { attacks: { results: { label: string }[] }[] }[] };
    broken.audits[0]!.attacks[0]!.results[0]!.label = 'oracle';
    assert.equal(validate(broken), false);
  });
});
