// Writes the generated docs from the compiled sources (run after the type-check emits out/).
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { renderDiagnosticsDoc } = require('../out/server/src/problems/diagnostics-doc.js');
writeFileSync('docs/diagnostics.md', renderDiagnosticsDoc());
console.log('wrote docs/diagnostics.md');
