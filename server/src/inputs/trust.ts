import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultInputLimits, type InputLimits } from './input-limits.js';

/**
 * Whether a program a spec names (a `candidates command`) may run, and if not, what the user does to
 * allow it. One rule for the editor and the command line: a program runs only with explicit consent
 * (a trusted workspace; `herald audit --allow-commands` or `HERALD_ALLOW_COMMANDS=1`).
 */
export type CommandConsent = { readonly allowed: true } | { readonly allowed: false; readonly howToAllow: string };

/** Consent in an editor: the workspace is trusted. */
const editorConsent = (trusted: boolean): CommandConsent =>
  trusted ? { allowed: true } : {
    allowed: false,
    howToAllow: 'trust the workspace to run it (VS Code: Manage Workspace Trust; another editor: send initializationOptions {"workspaceTrusted": true}, see the README)',
  };

/**
 * The part of LSP's `initialize` parameters the trust rule reads (kept structural: inputs/ knows no LSP;
 * what a client sends in `initializationOptions` is `HeraldInitializationOptions`, contract/protocol.ts).
 */
export interface TrustParams {
  readonly initializationOptions?: unknown;
  readonly workspaceFolders?: readonly { readonly uri: string }[] | null;
  readonly rootUri?: string | null;
}

/** Symbolic links followed before a path counts as a loop, as Linux's own limit. */
const maxLinks = 40;

/**
 * A path with symbolic links resolved, so a link inside the workspace cannot reach outside it.
 * Undefined when it cannot be resolved (a loop of links).
 */
function realPath(p: string, links = 0): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    // Not there (yet): a dangling link leads where its target would be created; a missing name
    // stays in its folder, which is where it would be created.
    let target: string | undefined;
    try {
      if (fs.lstatSync(p).isSymbolicLink()) target = path.resolve(path.dirname(p), fs.readlinkSync(p));
    } catch {
      target = undefined;
    }
    if (target !== undefined) return links >= maxLinks ? undefined : realPath(target, links + 1);
    const parent = path.dirname(p);
    if (parent === p) return p;
    const folder = realPath(parent, links);
    return folder === undefined ? undefined : path.join(folder, path.basename(p));
  }
}

/**
 * In a workspace the user has not trusted (VS Code's restricted mode, or an editor that does not say
 * the workspace is trusted) the server reads only files inside the workspace folders and runs no
 * program: a spec from a cloned repository must not make the editor read, say, a pool in the user's
 * home folder, or run its code. Trusted workspaces read as linked.
 * The rule is checked where a file is listed (the checker, the session) and again where it is
 * opened (`inputs/open-input.ts`), on the file actually opened.
 *
 * The rule also carries how much may be read (`limits`, inputs/input-limits.ts): it reaches every
 * place a linked file is sized or opened, and a user raises the limits for a session or a run, never
 * a workspace (the setting is the machine's).
 */
export class WorkspaceTrust {
  /** The workspace folders as given: what a worker thread needs to rebuild the rule. */
  readonly folders: readonly string[];
  private readonly realRoots: readonly string[];

  constructor(
    readonly trusted: boolean,
    roots: readonly string[],
    readonly limits: InputLimits = defaultInputLimits,
    readonly commands: CommandConsent = editorConsent(trusted),
  ) {
    this.folders = roots.map((r) => path.resolve(r));
    this.realRoots = this.folders.map((r) => realPath(r) ?? r);
  }

  /** Every file, and programs run: what a trusted editor workspace and an API caller get. */
  static readonly everything = new WorkspaceTrust(true, []);

  /** The same folders under other size limits. */
  withLimits(limits: InputLimits): WorkspaceTrust {
    return limits === this.limits ? this : new WorkspaceTrust(this.trusted, this.folders, limits, this.commands);
  }

  /** The same rule for files, with another answer on running programs (the command line's `--allow-commands`). */
  withCommands(commands: CommandConsent): WorkspaceTrust {
    return new WorkspaceTrust(this.trusted, this.folders, this.limits, commands);
  }

  /**
   * The rule an editor's `initialize` gives: trusted only when `initializationOptions.workspaceTrusted`
   * is the boolean `true`. A client that says nothing (Neovim, Emacs as the README first configures
   * them) or sends `"true"`, `1` or `false` gets an untrusted workspace: no program runs and no linked
   * file outside its folders is read.
   */
  static from(params: TrustParams): WorkspaceTrust {
    const options = params.initializationOptions;
    const trusted = typeof options === 'object' && options !== null && 'workspaceTrusted' in options && options.workspaceTrusted === true;
    if (trusted) return WorkspaceTrust.everything;
    const uris = params.workspaceFolders?.map((f) => f.uri) ?? (typeof params.rootUri === 'string' ? [params.rootUri] : []);
    return new WorkspaceTrust(false, uris.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u)));
  }

  /** The rule for the folders an analysis request carries: none means a trusted workspace. */
  static of(untrustedFolders: readonly string[] | undefined, limits: InputLimits = defaultInputLimits): WorkspaceTrust {
    return untrustedFolders === undefined ? WorkspaceTrust.everything.withLimits(limits) : new WorkspaceTrust(false, untrustedFolders, limits);
  }

  /**
   * Names the rule, for cache keys: files loaded under one rule are not handed out under another.
   * The limits are not in it: a loaded file fits any limit it was sized against before loading.
   */
  get key(): string {
    return this.trusted ? 'trusted' : `untrusted:${this.folders.join('\u0000')}`;
  }

  allows(absolutePath: string): boolean {
    if (this.trusted) return true;
    // A path outside by its name is refused without a system call on it; one inside by its name is
    // then resolved, so that a symbolic link placed in the workspace cannot lead out of it.
    if (!within(path.resolve(absolutePath), this.folders)) return false;
    const real = realPath(absolutePath);
    return real !== undefined && within(real, this.realRoots);
  }

  /** Whether a path already resolved (no symbolic links left in it) is inside the workspace. */
  allowsResolved(realAbsolutePath: string): boolean {
    return this.trusted || within(realAbsolutePath, this.realRoots);
  }
}

function within(target: string, roots: readonly string[]): boolean {
  return roots.some((root) => target === root || target.startsWith(root.endsWith(path.sep) ? root : root + path.sep));
}
