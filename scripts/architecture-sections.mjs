// The parts of docs/architecture.md generated from the table of stages (scripts/stages.mjs): the
// drawing and the table, each between its markers. `npm run docs` writes them (scripts/write-docs.mjs)
// and test/contract/architecture-doc.test.ts fails when the doc differs.
import { allowedImports, below, ranks, stage, stageRoot, stages } from './stages.mjs';

/** The folder or file a doc shows for a stage: `lsp/`, `version.ts`, `client/`. */
export function shownPath(s) {
  const p = s.path.startsWith(`${stageRoot}/`) ? s.path.slice(stageRoot.length + 1) : s.path;
  return /\.[a-z]+$/.test(p) ? p : `${p}/`;
}

/** The stages as rows by rank, the highest first: a stage imports only stages on rows below its own. */
function drawing() {
  const rank = ranks();
  const top = Math.max(...rank.values());
  const rows = [];
  for (let r = top; r >= 0; r -= 1) rows.push(stages.filter((s) => rank.get(s.name) === r).map(shownPath).join('    '));
  const width = Math.max(...rows.map((row) => row.length));
  const centred = (text) => `${' '.repeat(Math.floor((width - text.length) / 2))}${text}`.trimEnd();
  const lines = rows.flatMap((row, i) => (i === 0 ? [centred(row)] : [centred('│'), centred(row)]));
  return ['```', ...lines, '```'].join('\n');
}

/** What a stage may import, in the table's words. */
function mayImportText(s) {
  const mark = (name) => `\`${shownPath(stage(name))}\`${(s.typesOnly ?? []).includes(name) ? ' (types only)' : ''}`;
  if (s.mayImport === below) {
    const except = (s.except ?? []).map(mark);
    return `every stage above it in this table${except.length > 0 ? `, but ${except.join(', ')}` : ''}`;
  }
  const allowed = allowedImports(s);
  return allowed.length === 0 ? 'nothing' : allowed.map(mark).join(', ');
}

function table() {
  const row = (cells) => `| ${cells.join(' | ')} |`;
  return [
    row(['stage', 'folder', 'holds', 'may import']),
    row(['---', '---', '---', '---']),
    ...stages.map((s) => row([s.name, `\`${shownPath(s)}\``, s.holds.replace(/\|/g, '\\|'), mayImportText(s)])),
  ].join('\n');
}

const marker = (name, end) => `<!-- ${end ? 'end of ' : ''}${name}: generated from scripts/stages.mjs by npm run docs -->`;

/** Each generated section's name and text. */
export function architectureSections() {
  return [
    { name: 'stage drawing', text: drawing() },
    { name: 'stage table', text: table() },
  ];
}

/** The doc's text between each section's markers (undefined for a section the doc lacks). */
export function sectionsIn(doc) {
  return architectureSections().map(({ name }) => {
    const start = doc.indexOf(marker(name, false));
    const end = doc.indexOf(marker(name, true));
    return { name, text: start < 0 || end < start ? undefined : doc.slice(start + marker(name, false).length, end).trim() };
  });
}

/** The doc with every section between its markers replaced by the generated text. */
export function withSections(doc) {
  let out = doc;
  for (const { name, text } of architectureSections()) {
    const open = marker(name, false);
    const close = marker(name, true);
    const start = out.indexOf(open);
    const end = out.indexOf(close);
    if (start < 0 || end < start) throw new Error(`docs/architecture.md lacks the markers of the ${name}`);
    out = `${out.slice(0, start + open.length)}\n${text}\n${out.slice(end)}`;
  }
  return out;
}
