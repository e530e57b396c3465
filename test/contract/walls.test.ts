import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

// The stage walls are generated from scripts/stages.mjs (eslint.config.mjs); these lint deliberate
// imports through the real config to show that the walls bite where the table says, and only there.
const repoRoot = path.resolve(__dirname, '../../..');

// One instance for every case. The type-aware rules need each file in a tsconfig project, which
// these made-up paths are not: they are switched off here (the walls need no types).
const eslint = new ESLint({
  cwd: repoRoot,
  overrideConfig: {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: false, project: null } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
  },
});

/** The messages ESLint gives `code` as the file `filePath` (relative to the repository). */
async function messages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, filePath) });
  assert.ok(result !== undefined);
  return result.messages.map((m) => m.message);
}

const walls = (found: readonly string[]): string[] => found.filter((m) => /must not import|not in the stage table|for types only/.test(m));

describe('stage walls generated from scripts/stages.mjs', () => {
  it('fail a new folder of server/src, which the table lacks, and its import across a wall', async () => {
    const found = await messages('server/src/newstage/x.ts', "import { heraldVersion } from '../lsp/main.js';\nexport const v = heraldVersion;\n");
    assert.ok(found.includes('server/src/newstage is not in the stage table (scripts/stages.mjs): add it there with what it may import.'), found.join('\n'));
    assert.ok(found.some((m) => m.startsWith('newstage/ must not import lsp/: it may import no stage')), found.join('\n'));
  });

  it('fail a new top-level file of server/src', async () => {
    const found = await messages('server/src/new-entry.ts', 'export const x = 1;\n');
    assert.deepEqual(walls(found), ['server/src/new-entry.ts is not in the stage table (scripts/stages.mjs): add it there with what it may import.']);
  });

  it('fail client/ importing engine code, and pass its import of the contract', async () => {
    const engine = await messages('client/src/x.ts', "import { builtinFieldsByName } from '../../server/src/language/builtins.js';\nexport const n = builtinFieldsByName.size;\n");
    assert.deepEqual(walls(engine), ['client/ must not import language/: it may import contract/ (scripts/stages.mjs, drawn in docs/architecture.md).']);
    const webview = await messages('client/webview/x.ts', "import { percent } from '../../server/src/report/format-numbers.js';\nexport const p = percent(0.5);\n");
    assert.equal(walls(webview).length, 1, webview.join('\n'));
    const contract = await messages('client/src/x.ts', "import { heraldVersion } from '../../server/src/contract/index.js';\nexport const v = heraldVersion;\n");
    assert.deepEqual(walls(contract), []);
  });

  it('fail an import the table does not allow, and pass one it does', async () => {
    assert.deepEqual(walls(await messages('server/src/signal/x.ts', "import { auditSpec } from '../audit/audit-spec.js';\nexport const a = auditSpec;\n")),
      [`signal/ must not import audit/: it may import ${'problems/, stats/, version.ts, report/, pool/, language/, syntax/, importers/, inputs/, semantics/, reward/, edits/, scoring/, candidates/, threads/'} (scripts/stages.mjs, drawn in docs/architecture.md).`]);
    assert.equal(walls(await messages('server/src/report/x.ts', "import { parse } from '../syntax/parse.js';\nexport const p = parse;\n")).length, 1);
    assert.deepEqual(walls(await messages('server/src/audit/x.ts', "import { prepareEdits } from '../edits/prepare.js';\nexport const p = prepareEdits;\n")), []);
    assert.deepEqual(walls(await messages('server/src/render/report-page/x.ts', "import { percent } from '../../report/format-numbers.js';\nimport { h } from './html.js';\nexport const p = [percent, h];\n")), []);
  });

  it('pass a types-only stage imported with import type, and fail it imported for a value', async () => {
    const value = "import { sumProfiles } from '../pool/profile.js';\nexport const s = sumProfiles;\n";
    assert.deepEqual(walls(await messages('server/src/contract/x.ts', value)), ['contract/ may import pool/ for types only: write `import type` (scripts/stages.mjs).']);
    assert.deepEqual(walls(await messages('server/src/contract/x.ts', "import type { PoolProfile } from '../pool/profile.js';\nexport type P = PoolProfile;\n")), []);
    assert.deepEqual(walls(await messages('server/src/contract/x.ts', "import { type PoolProfile } from '../pool/profile.js';\nexport type P = PoolProfile;\n")), []);
    assert.deepEqual(walls(await messages('server/src/contract/x.ts', "export { sumProfiles } from '../pool/profile.js';\n")).length, 1);
  });

  it('keep the outside modules to their stages', async () => {
    const fsInAudit = await messages('server/src/audit/x.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n");
    assert.ok(fsInAudit.some((m) => m.includes('Only inputs/ (and the CLI) open files')), fsInAudit.join('\n'));
    const fsInNew = await messages('server/src/newstage/x.ts', "import { execFile } from 'node:child_process';\nexport const e = execFile;\n");
    assert.ok(fsInNew.some((m) => m.includes('Only inputs/ starts a process')), fsInNew.join('\n'));
    assert.ok(!(await messages('server/src/inputs/x.ts', "import { execFile } from 'node:child_process';\nexport const e = execFile;\n")).some((m) => m.includes('Only inputs/')));
    assert.ok((await messages('server/src/render/x.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n")).some((m) => m.includes('Only client/ imports vscode.')));
  });
});
