// Runs the same VS Code API tests (test/vscode/suite) in desktop VS Code through @vscode/test-electron.
// It downloads a VS Code build, so it is for desktops and CI with internet access; these machines
// reach only the npm registry, and run the suite in code-server instead (run-code-server.ts).
// Usage: npm run test:electron
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { repoRoot, sampleWorkspace } from './code-server';

async function main(): Promise<void> {
  const workspace = sampleWorkspace(fs.mkdtempSync(path.join(os.tmpdir(), 'herald-vscode-')));
  await runTests({
    // The repository itself is the extension under development: build it first (npm run build).
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath: path.join(__dirname, 'suite'),
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
