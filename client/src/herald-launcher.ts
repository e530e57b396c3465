// The `herald` launcher the extension puts on the integrated terminal's PATH: a script that runs the
// command line bundled in the extension (dist/herald.js) with the extension host's own runtime, so
// no Node needs to be installed. Under a desktop VS Code that runtime is Electron, which behaves as
// Node with ELECTRON_RUN_AS_NODE (as for the `herald` tasks). Pure, so a test can run what it writes.

export interface Launcher {
  /** The file's name in the launcher folder. */
  readonly name: string;
  readonly text: string;
  /** Needs the executable bit (POSIX). */
  readonly executable: boolean;
}

/** `text` as one word of a POSIX shell: single-quoted, a quote inside written '\''. */
function shellWord(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/** The launcher for `platform`: `herald` (a POSIX shell script) or `herald.cmd` (Windows). */
export function heraldLaunchers(runtime: string, cli: string, platform: string): Launcher[] {
  if (platform === 'win32') {
    // setlocal: the variable stays in this script, not the terminal's session. %* passes every argument.
    return [{ name: 'herald.cmd', executable: false, text: `@echo off\r\nsetlocal\r\nset ELECTRON_RUN_AS_NODE=1\r\n"${runtime}" "${cli}" %*\r\n` }];
  }
  return [{
    name: 'herald', executable: true,
    text: `#!/bin/sh\n# The herald command line bundled with the HERALD extension; the extension rewrites this file when it starts.\nELECTRON_RUN_AS_NODE=1 exec ${shellWord(runtime)} ${shellWord(cli)} "$@"\n`,
  }];
}
