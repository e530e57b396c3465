import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the VS Code client sends in `initializationOptions`; other clients send nothing and are trusted. */
export interface HeraldInitializationOptions {
  readonly workspaceTrusted?: boolean;
}

/** The part of LSP's `initialize` parameters the trust rule reads (kept structural: inputs/ knows no LSP). */
export interface TrustParams {
  readonly initializationOptions?: unknown;
  readonly workspaceFolders?: readonly { readonly uri: string }[] | null;
  readonly rootUri?: string | null;
}

/** A path with symbolic links resolved, so a link inside the workspace cannot reach outside it. */
function realPath(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    // Not there (yet): resolve its folder instead, which is where it would be created.
    const parent = path.dirname(p);
    return parent === p ? p : path.join(realPath(parent), path.basename(p));
  }
}

/**
 * In a workspace the user has not trusted (VS Code's restricted mode) the server reads only files
 * inside the workspace folders: a spec from a cloned repository must not make the editor read, say,
 * a pool in the user's home folder. Trusted workspaces and editors without the notion read as linked.
 */
export class WorkspaceTrust {
  private readonly roots: readonly string[];
  private readonly realRoots: readonly string[];

  constructor(readonly trusted: boolean, roots: readonly string[]) {
    this.roots = roots.map((r) => path.resolve(r));
    this.realRoots = this.roots.map(realPath);
  }

  static readonly everything = new WorkspaceTrust(true, []);

  static from(params: TrustParams): WorkspaceTrust {
    const options = params.initializationOptions;
    const untrusted = typeof options === 'object' && options !== null && 'workspaceTrusted' in options && options.workspaceTrusted === false;
    if (!untrusted) return WorkspaceTrust.everything;
    const uris = params.workspaceFolders?.map((f) => f.uri) ?? (typeof params.rootUri === 'string' ? [params.rootUri] : []);
    return new WorkspaceTrust(false, uris.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u)));
  }

  allows(absolutePath: string): boolean {
    if (this.trusted) return true;
    // A path outside by its name is refused without a system call on it; one inside by its name is
    // then resolved, so that a symbolic link placed in the workspace cannot lead out of it.
    return within(path.resolve(absolutePath), this.roots) && within(realPath(absolutePath), this.realRoots);
  }
}

function within(target: string, roots: readonly string[]): boolean {
  return roots.some((root) => target === root || target.startsWith(root.endsWith(path.sep) ? root : root + path.sep));
}
