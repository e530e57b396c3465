// Writes docs/report.schema.json and docs/pool.schema.json from the compiled zod schemas (run
// `npm run typecheck` first).
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { reportJsonSchema } = require('../out/server/src/report/json-schema.js');
const { poolRowJsonSchema } = require('../out/server/src/pool/json-schema.js');
for (const [file, schema] of [['report.schema.json', reportJsonSchema()], ['pool.schema.json', poolRowJsonSchema()]]) {
  const target = new URL(`../docs/${file}`, import.meta.url);
  writeFileSync(target, `${JSON.stringify(schema, null, 2)}\n`);
  console.log(`wrote ${target.pathname}`);
}
