// Writes the generated docs from the compiled sources (run after the type-check emits out/) and from
// the table of stages (scripts/stages.mjs).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { withSections } from './architecture-sections.mjs';
import { reservedNamesSource } from './reserved-names.mjs';

const require = createRequire(import.meta.url);
const { renderDiagnosticsDoc } = require('../out/server/src/problems/diagnostics-doc.js');
writeFileSync('docs/diagnostics.md', renderDiagnosticsDoc());
console.log('wrote docs/diagnostics.md');
writeFileSync('docs/architecture.md', withSections(readFileSync('docs/architecture.md', 'utf8')));
console.log('wrote the stage drawing and table of docs/architecture.md');
writeFileSync('server/src/contract/reserved-names.ts', reservedNamesSource());
console.log('wrote server/src/contract/reserved-names.ts');
