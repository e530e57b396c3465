// Runs the VS Code API tests (test/vscode/suite) inside code-server's extension host, against the
// installed .vsix: the same mocha files @vscode/test-electron runs on a desktop (run-electron.ts).
// The workbench reports the tests' exit code through `codeAutomationExit`, as in VS Code's own
// browser integration tests.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import { CodeServer, launchChromium, newPage, outputFolder, requireTools, sampleWorkspace } from './code-server';

const timeoutMs = 20 * 60_000;

async function main(): Promise<number> {
  requireTools();
  const out = outputFolder('code-server-api');
  const workspace = sampleWorkspace(path.join(out, 'workspace'));
  const home = path.join(out, 'home');
  const server = await CodeServer.start({
    home, workspace,
    env: { HERALD_EXPECT_EXTENSION_UNDER: path.join(home, 'extensions'), HERALD_VSCODE_GREP: process.env['HERALD_VSCODE_GREP'] ?? '' },
  });
  const transcript: string[] = [];
  const browser = await launchChromium();
  try {
    const page = await newPage(browser, []);
    const exit = new Promise<number>((resolve) => {
      void page.exposeFunction('codeAutomationExit', (code: number) => resolve(code));
    });
    // The extension host's console (mocha's reporter among it) arrives here as console.log arguments.
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => transcript.push(`[${type}] ${format(...args)}`));
    const testsPath = path.join(__dirname, 'suite');
    // The workbench runs extension tests only in extension-development mode, so the development path is
    // the installed package's own folder: the extension under test is still exactly the .vsix's content.
    const installed = server.installedExtension();
    await page.goto(server.workbenchUrl(workspace, [
      ['extensionDevelopmentPath', server.remoteUri(installed)], ['extensionTestsPath', server.remoteUri(testsPath)],
    ]));
    const code = await Promise.race([exit, new Promise<number>((resolve) => setTimeout(() => resolve(-1), timeoutMs))]);
    await page.screenshot({ path: path.join(out, 'workbench-at-exit.png') }).catch(() => undefined);
    if (code === -1) transcript.push(`[runner] no exit code from the extension host within ${timeoutMs / 60_000} minutes`);
    return code;
  } finally {
    await browser.close();
    await server.stop();
    fs.writeFileSync(path.join(out, 'console.log'), transcript.join('\n'));
    console.log(transcript.filter((l) => !l.startsWith('[debug]')).join('\n'));
    console.log(`\ncode-server log: ${server.logFile}\nbrowser console: ${path.join(out, 'console.log')}`);
  }
}

main().then((code) => {
  console.log(code === 0 ? 'VS Code API tests in code-server: passed' : `VS Code API tests in code-server: FAILED (exit ${code})`);
  process.exit(code === 0 ? 0 : 1);
}, (error: unknown) => {
  console.error(error instanceof Error ? error.stack ?? error.message : error);
  process.exit(1);
});
