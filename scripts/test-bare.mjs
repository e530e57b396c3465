// Proves that `npm test` needs nothing but Node 20 and `npm ci`: runs it with a PATH that holds only a
// fresh temporary folder with `node` and `npm` in it (symlinks to the ones running this script), so
// editors, browsers, git, python and the rest are hidden. npm puts node_modules/.bin on PATH itself.
// npm 11 runs scripts with `sh` found on PATH (@npmcli/promise-spawn), not /bin/sh as its docs say, so
// its script-shell is set to /bin/sh by absolute path here; that keeps `sh` off PATH too.
// Exits with npm test's status.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** Programs that some test or CI step could reach for by name; none may be needed by `npm test`. */
const watched = ['nvim', 'emacs', 'chromium', 'chromium-browser', 'google-chrome', 'code-server', 'strace', 'Xvfb', 'python3', 'git'];

/** The executable `name` resolves to on `path`, as a shell would find it, or undefined. */
function which(name, path) {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** npm's command-line entry: the npm running this script (npm run test:bare), else `npm` on PATH. */
function npmCli() {
  const fromNpm = process.env.npm_execpath;
  if (fromNpm && /npm-cli\.js$/.test(fromNpm)) return fromNpm;
  const onPath = which('npm', process.env.PATH);
  if (onPath) return realpathSync(onPath);
  throw new Error('npm not found: run this with `npm run test:bare`, or with npm on PATH');
}

const node = process.execPath;
const npm = npmCli();
const bin = mkdtempSync(join(tmpdir(), 'herald-bare-'));
let cleaned = false;
function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  rmSync(bin, { recursive: true, force: true });
}

let child;
try {
  symlinkSync(node, join(bin, 'node'));
  symlinkSync(npm, join(bin, 'npm'));
  const path = bin;
  const hidden = watched.filter((name) => which(name, path) === undefined);
  const visible = watched.filter((name) => !hidden.includes(name));
  const hiddenPresent = hidden.filter((name) => which(name, process.env.PATH) !== undefined);
  console.log(`test:bare: node -> ${node}`);
  console.log(`test:bare: npm  -> ${npm}`);
  console.log(`test:bare: PATH=${path}`);
  console.log(`test:bare: hidden: ${hidden.join(', ') || '(none)'}`);
  console.log(`test:bare: of those, on the original PATH (now hidden): ${hiddenPresent.join(', ') || '(none)'}`);
  if (visible.length > 0) console.log(`test:bare: still visible: ${visible.join(', ')}`);
  const scriptShell = process.env.npm_config_script_shell || '/bin/sh';
  console.log(`test:bare: npm script-shell=${scriptShell}`);
  console.log(`test:bare: running npm test in ${process.cwd()}\n`);
  child = spawn(join(bin, 'npm'), ['test'], { stdio: 'inherit', env: { ...process.env, PATH: path, npm_config_script_shell: scriptShell } });
} catch (error) {
  cleanUp();
  throw error;
}

// Ctrl-C reaches npm test through the terminal's process group; wait for it to end, then clean up.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('error', (error) => {
  cleanUp();
  console.error(`test:bare: could not run npm test: ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  cleanUp();
  const status = code ?? 1;
  console.log(`\ntest:bare: npm test ${signal ? `killed by ${signal}` : `exited ${status}`} with PATH=${bin} (removed)`);
  process.exit(status);
});
