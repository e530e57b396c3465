// Prints the shape figures the redesign is judged by, over server/src and client/src: files over 350
// lines, functions over 80 lines, type casts (`as T`, `<T>x`; not `as const`), and module-level caches
// (a Map, WeakMap or Set made at the top level of a module and written to after: `.set`, `.add`,
// `.delete` or `.clear` on it, or handed to a function; a constant lookup table is not one). Run: node scripts/code-metrics.mjs [--list]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const roots = ['server/src', 'client/src', 'client/webview'];
const list = process.argv.includes('--list');

function files(dir) {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

const found = { longFiles: [], longFunctions: [], casts: [], caches: [] };
for (const file of roots.flatMap(files)) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines = text.split('\n').length;
  if (lines > 350) found.longFiles.push(`${file} (${lines} lines)`);
  const line = (pos) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const length = line(node.end) - line(node.getStart(source)) + 1;
      if (length > 80) found.longFunctions.push(`${file}:${line(node.getStart(source))} (${length} lines)`);
    }
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && node.type.getText(source) !== 'const') {
      found.casts.push(`${file}:${line(node.getStart(source))} as ${node.type.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) {
      const init = d.initializer;
      if (init === undefined || !ts.isNewExpression(init) || !/^(Weak)?(Map|Set)$/.test(init.expression.getText(source))) continue;
      const name = d.name.getText(source);
      const written = new RegExp(`\\b${name}\\.(set|add|delete|clear)\\(`).test(text);
      // Handed to a helper that fills it (a memo passed by reference) counts as written too.
      const handedOn = new RegExp(`[(,]\\s*${name}\\s*[,)]`).test(text);
      if (written || handedOn) found.caches.push(`${file}:${line(d.getStart(source))} ${name}`);
    }
  }
}
for (const [what, items] of Object.entries(found)) {
  console.log(`${what}: ${items.length}`);
  if (list) for (const item of items) console.log(`  ${item}`);
}
