// The real VS Code workbench on this machine: code-server 4.100.3 (installed by
// scripts/install-code-server.sh) on loopback, driven by Debian's Chromium through playwright-core.
// The API runner, the UI test and the untrusted-workspace run all start it through here.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';

export const repoRoot = path.resolve(__dirname, '../../..');
export const vsixPath = path.join(repoRoot, 'dist/herald-reward.vsix');
const codeServerBin = path.join(repoRoot, 'test/real-clients/.code-server/node_modules/.bin/code-server');
const chromiumPath = process.env['HERALD_CHROMIUM'] ?? '/usr/bin/chromium';

export function requireTools(): void {
  const missing = [
    fs.existsSync(codeServerBin) ? undefined : `code-server (${codeServerBin}): run scripts/install-code-server.sh`,
    fs.existsSync(chromiumPath) ? undefined : `Chromium (${chromiumPath}): apt-get install chromium, or set HERALD_CHROMIUM`,
    fs.existsSync(vsixPath) ? undefined : `the packaged extension (${vsixPath}): run npm run package`,
  ].filter((m) => m !== undefined);
  if (missing.length > 0) throw new Error(`the code-server tests cannot run; missing:\n  ${missing.join('\n  ')}`);
}

/** A fresh output folder under test-output/ (git-ignored), for logs, screenshots and workspaces. */
export function outputFolder(name: string): string {
  const dir = path.join(repoRoot, 'test-output', name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * A workspace holding a copy of the sample specs and their pools, so the tests may edit and save them,
 * and Search-R1's verl dump (`search-r1-rollout/`) as a researcher's own logs.
 */
export function sampleWorkspace(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  for (const spec of ['paper.reward', 'training.reward']) fs.copyFileSync(path.join(repoRoot, 'samples', spec), path.join(dir, spec));
  fs.cpSync(path.join(repoRoot, 'samples/pools'), path.join(dir, 'pools'), { recursive: true });
  fs.cpSync(path.join(repoRoot, 'samples/search-r1/rollout'), path.join(dir, 'search-r1-rollout'), { recursive: true });
  return dir;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface CodeServerOptions {
  /** Folder for code-server's user data, extensions, config and log. */
  readonly home: string;
  readonly workspace: string;
  /** Workspace trust on: the folder opens untrusted (restricted mode). */
  readonly trust?: boolean;
  /** Settings for the user's settings.json, beside the ones that keep the workbench quiet. */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Extra environment for code-server and so for its extension host. */
  readonly env?: Readonly<Record<string, string>>;
  /** A command that runs code-server, e.g. strace with its options. */
  readonly wrapper?: readonly string[];
}

export class CodeServer {
  private constructor(
    readonly url: string,
    readonly port: number,
    readonly extensionsDir: string,
    private readonly process: ChildProcess,
    readonly logFile: string,
  ) {}

  static async start(options: CodeServerOptions): Promise<CodeServer> {
    const { home } = options;
    const userData = path.join(home, 'user-data');
    const extensions = path.join(home, 'extensions');
    fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
    fs.writeFileSync(path.join(userData, 'User/settings.json'), JSON.stringify({
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'workbench.enableExperiments': false,
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'security.workspace.trust.startupPrompt': 'never',
      'security.workspace.trust.untrustedFiles': 'open',
      'telemetry.telemetryLevel': 'off',
      'window.restoreWindows': 'none',
      // The test workspaces live under the repository's test-output/: keep Git's prompts out of the screenshots.
      'git.enabled': false,
      'git.openRepositoryInParentFolders': 'never',
      ...options.settings,
    }, null, 2));
    const config = path.join(home, 'config.yaml');
    fs.writeFileSync(config, 'auth: none\ncert: false\n');
    const common = ['--config', config, '--user-data-dir', userData, '--extensions-dir', extensions];

    // Install the packaged extension, as a user would: what is tested is what users install.
    const installed = await promisify(execFile)(codeServerBin, [...common, '--install-extension', vsixPath, '--force'], { timeout: 120_000 });
    if (!/successfully installed/i.test(installed.stdout)) throw new Error(`installing ${vsixPath} failed:\n${installed.stdout}${installed.stderr}`);

    const port = await freePort();
    const logFile = path.join(home, 'code-server.log');
    const log = fs.openSync(logFile, 'w');
    const [command = codeServerBin, ...wrapperArgs] = options.wrapper === undefined ? [] : [...options.wrapper, codeServerBin];
    const child = spawn(command, [
      ...wrapperArgs, ...common, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check',
      '--disable-getting-started-override', '--ignore-last-opened', ...(options.trust === true ? [] : ['--disable-workspace-trust']), options.workspace,
    ], { stdio: ['ignore', log, log], env: { ...process.env, ...options.env }, detached: true });
    const server = new CodeServer(`http://127.0.0.1:${port}/`, port, extensions, child, logFile);
    await server.waitUntilListening();
    return server;
  }

  private async waitUntilListening(): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (this.process.exitCode !== null) throw new Error(`code-server exited with ${this.process.exitCode}:\n${fs.readFileSync(this.logFile, 'utf8')}`);
      try {
        const response = await fetch(`${this.url}healthz`);
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`code-server did not listen within 60 s:\n${fs.readFileSync(this.logFile, 'utf8')}`);
  }

  /** The folder the .vsix was installed into. */
  installedExtension(): string {
    const folder = fs.readdirSync(this.extensionsDir).find((f) => f.startsWith('herald-tools.herald-reward-'));
    if (folder === undefined) throw new Error(`the extension is not installed under ${this.extensionsDir}`);
    return path.join(this.extensionsDir, folder);
  }

  /** A remote URI for a path on this machine, as the workbench names files of its server. */
  remoteUri(file: string): string {
    return `vscode-remote://127.0.0.1:${this.port}${file}`;
  }

  workbenchUrl(workspace: string, payload: readonly (readonly [string, string])[] = []): string {
    const query = new URLSearchParams({ folder: workspace });
    if (payload.length > 0) query.set('payload', JSON.stringify(payload));
    return `${this.url}?${query.toString()}`;
  }

  /** Ends code-server and everything it started; resolves when it has exited (a wrapper has flushed its log). */
  async stop(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null || this.process.pid === undefined) return;
    const exited = new Promise<void>((resolve) => this.process.once('exit', () => resolve()));
    // code-server forks its extension host and language servers: end the whole process group.
    try {
      process.kill(-this.process.pid, 'SIGTERM');
    } catch {
      return;
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  }
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
  });
}

export async function newPage(browser: Browser, transcript: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.on('console', (m) => transcript.push(`[${m.type()}] ${m.text()}`));
  page.on('pageerror', (e) => transcript.push(`[pageerror] ${e.message}`));
  return page;
}

/** What a person does in the workbench with the keyboard, as the UI tests need it. */
export function workbenchActions(page: Page): {
  openFile(name: string): Promise<void>;
  goTo(at: { line: number; column: number }): Promise<void>;
  command(title: string): Promise<void>;
  hover(containing: string): Promise<string>;
  toggleProblems(): Promise<void>;
  problemRows(): Promise<string[]>;
} {
  const quickInput = async (keys: string, text: string, row?: string): Promise<void> => {
    // A key pressed while the workbench moves focus (a panel closing, a webview taking it) can be
    // dropped: press it again rather than wait out the whole timeout.
    for (let attempt = 1; ; attempt++) {
      await page.keyboard.press(keys);
      try {
        await page.locator('.quick-input-widget input').waitFor({ state: 'visible', timeout: attempt < 3 ? 5000 : 30_000 });
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
    await page.keyboard.type(text);
    if (row !== undefined) await page.locator('.quick-input-list .monaco-list-row', { hasText: row }).first().waitFor();
    await page.keyboard.press('Enter');
  };
  return {
    async openFile(name) {
      // Enter can reach Quick Open while its file search is still refreshing the list, which then drops
      // the key; clicking the file's own row opens exactly that file.
      await page.keyboard.press('Control+P');
      await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
      await page.keyboard.type(name);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().click();
      await page.locator('.tab.active', { hasText: name }).waitFor();
    },
    async goTo(at) {
      // Go to Line does nothing until a text editor has the focus (a file just opened may not yet):
      // then the widget stays open, and a person closes it and asks again.
      for (let attempt = 1; ; attempt += 1) {
        await quickInput('Control+G', `${at.line}:${at.column}`);
        try {
          await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: attempt < 3 ? 5000 : 30_000 });
          return;
        } catch (error) {
          if (attempt >= 3) throw error;
          await page.keyboard.press('Escape');
        }
      }
    },
    command: (title) => quickInput('Control+Shift+P', title, title),
    async hover(containing) {
      await page.keyboard.press('Control+K');
      await page.keyboard.press('Control+I');
      const hover = page.locator('.monaco-hover:visible', { hasText: containing });
      await hover.waitFor();
      return hover.innerText();
    },
    toggleProblems: () => page.keyboard.press('Control+Shift+M'),
    problemRows: () => page.locator('.markers-panel .monaco-list-row').allInnerTexts(),
  };
}

/** 1-based line and column of `needle` on the first line from `fromLine` (0-based) that starts with `linePrefix`. */
export function lineColumn(text: string, linePrefix: string, needle: string, fromLine = 0): { line: number; column: number } {
  const lines = text.split('\n');
  for (let i = fromLine; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (line.trimStart().startsWith(linePrefix) && line.includes(needle)) return { line: i + 1, column: line.indexOf(needle) + 1 };
  }
  throw new Error(`no line starting with '${linePrefix}' holds '${needle}'`);
}

export interface Workbench {
  readonly server: CodeServer;
  readonly page: Page;
  readonly actions: ReturnType<typeof workbenchActions>;
  /** Closes the browser and code-server, and writes the page's console to `out`/console.log. */
  close(): Promise<void>;
}

/** code-server with the .vsix installed and the workbench open on `options.workspace`, for the UI tests. */
export async function openWorkbench(options: CodeServerOptions & { readonly out: string }): Promise<Workbench> {
  const server = await CodeServer.start(options);
  const transcript: string[] = [];
  const browser = await launchChromium();
  const page = await newPage(browser, transcript);
  await page.goto(server.workbenchUrl(options.workspace));
  await page.locator('.monaco-workbench .part.editor').waitFor({ timeout: 60_000 });
  return {
    server, page, actions: workbenchActions(page),
    async close() {
      if (!browser.isConnected()) return;
      await browser.close();
      await server.stop();
      fs.writeFileSync(path.join(options.out, 'console.log'), transcript.join('\n'));
    },
  };
}
