// Writes docs/report.schema.json from the compiled report schema (run `npm run typecheck` first).
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { reportJsonSchema } = require('../out/server/src/report/json-schema.js');
const target = new URL('../docs/report.schema.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(reportJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
