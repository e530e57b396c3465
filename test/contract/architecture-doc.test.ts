import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';

const repoRoot = path.resolve(__dirname, '../../..');

/** What scripts/architecture-sections.mjs exports that this test reads. */
interface ArchitectureSections {
  architectureSections(): { readonly name: string; readonly text: string }[];
  sectionsIn(doc: string): { readonly name: string; readonly text: string | undefined }[];
}

describe('docs/architecture.md and the table of stages', () => {
  it('holds the drawing and the table that scripts/stages.mjs generates (npm run docs writes them)', async () => {
    const sections: ArchitectureSections = await import(pathToFileURL(path.join(repoRoot, 'scripts/architecture-sections.mjs')).href);
    const doc = readFileSync(path.join(repoRoot, 'docs/architecture.md'), 'utf8');
    const inDoc = sections.sectionsIn(doc);
    for (const { name, text } of sections.architectureSections()) {
      assert.equal(inDoc.find((s) => s.name === name)?.text, text, `docs/architecture.md's ${name} differs from scripts/stages.mjs: run npm run docs`);
    }
  });

  it('finds a section that differs', async () => {
    const sections: ArchitectureSections = await import(pathToFileURL(path.join(repoRoot, 'scripts/architecture-sections.mjs')).href);
    const original = readFileSync(path.join(repoRoot, 'docs/architecture.md'), 'utf8');
    const doc = original.replace('| `lsp/`, `cli/`, `threads/` |', '| `lsp/`, `cli/` |');
    assert.notEqual(doc, original, 'the test changes a row of the table');
    const table = sections.architectureSections().find((s) => s.name === 'stage table');
    assert.notEqual(sections.sectionsIn(doc).find((s) => s.name === 'stage table')?.text, table?.text);
  });
});
