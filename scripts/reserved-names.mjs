// contract/reserved-names.ts, written by `npm run docs` from the compiled registry (out/): the client's
// New Spec template names its pools clear of these, without carrying the built-ins' implementations
// (and RE2JS) in its bundle. test/contract/reserved-names.test.ts fails when the file is stale.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The file's text, for the names the compiled language in `out/` gives a meaning. */
export function reservedNamesSource() {
  const { keywords } = require('../out/server/src/problems/vocabulary.js');
  const { builtinFieldsByName, builtinFunctionsByName } = require('../out/server/src/language/builtins.js');
  const names = [...new Set([...keywords, ...builtinFieldsByName.keys(), ...builtinFunctionsByName.keys()])].sort();
  const lines = names.map((n) => `  '${n}',`).join('\n');
  return `// Written by \`npm run docs\` (scripts/reserved-names.mjs); do not edit. test/contract/reserved-names.test.ts
// fails when it differs from the language's keywords (problems/vocabulary.ts) and built-ins
// (language/builtins.ts).

/** Every keyword and built-in field and function name: a name the language already gives a meaning. */
export const reservedNames: readonly string[] = [
${lines}
];
`;
}
