import * as fs from 'node:fs';
import * as path from 'node:path';
import { inputFiles } from '../inputs/glob-files.js';
import { notRegularFile } from '../inputs/open-input.js';
import { replaceFile } from '../inputs/replace-file.js';
import { WorkspaceTrust } from '../inputs/trust.js';
import { specInputs, type SpecInput } from '../inputs/spec-inputs.js';
import { escapeControls } from '../report/escape-text.js';
import type { Spec } from '../syntax/ast.js';
import type { CommandOutput } from './check-command.js';

// Where `--out` may write: never over the spec or a file the run reads (its pools, corpora,
// candidate files, baseline, and the logs named on the command line), never into a FIFO, device
// or folder. Files are compared as the file system resolves them (real paths, and device and inode
// for hard links and case-insensitive names), so `./pool.jsonl`, `sub/../pool.jsonl` or a
// symbolic link to the pool are the pool; compared before the run and again before the rename
// that puts the written file in place.

/** A file the run reads, with the words that name it in the refusal. */
export interface ReadFile {
  readonly file: string;
  readonly what: string;
}

function describeInput(input: SpecInput, spec: string): string {
  switch (input.kind) {
    case 'corpus':
    case 'pool':
      return `the ${input.kind} '${input.name ?? ''}' that ${spec} reads`;
    case 'candidates':
      return `a candidates file that ${spec} reads`;
    case 'baseline':
      return `the baseline of ${spec}`;
  }
}

/** The spec itself, then every file it reads (`specInputs`: the one list), then `extra` (files named on the command line). */
export function filesRead(specFile: string, spec: Spec, extra: readonly ReadFile[] = []): ReadFile[] {
  const specPath = path.resolve(specFile);
  return [
    { file: specPath, what: 'the spec itself' },
    ...specInputs(spec, specPath).flatMap((input) => inputFiles(input, WorkspaceTrust.everything).map((file) => ({ file, what: describeInput(input, specFile) }))),
    ...extra.map((e) => ({ file: path.resolve(e.file), what: e.what })),
  ];
}

/** Symbolic links followed at most this many times, as the kernel's own limit (ELOOP). */
const maxLinks = 40;

/**
 * The file that writing to `file` would write: its real path, or for a file that does not exist yet,
 * the target of a dangling link or the real path of its folder with its name.
 */
function realTarget(file: string, links = 0): string {
  const absolute = path.resolve(file);
  try {
    return fs.realpathSync(absolute);
  } catch {
    // Not there (yet): see below.
  }
  if (links < maxLinks) {
    try {
      return realTarget(path.resolve(path.dirname(absolute), fs.readlinkSync(absolute)), links + 1);
    } catch {
      // Not a link.
    }
  }
  const folder = path.dirname(absolute);
  return folder === absolute ? absolute : path.join(realTarget(folder, links), path.basename(absolute));
}

/** The file as the file system knows it: where writing would go, and its device and inode when it exists. */
interface FileIdentity {
  readonly real: string;
  readonly inode: string | undefined;
}

function identify(file: string): FileIdentity {
  let inode: string | undefined;
  try {
    const stat = fs.statSync(file);
    inode = `${stat.dev}:${stat.ino}`;
  } catch {
    inode = undefined;
  }
  return { real: realTarget(file), inode };
}

/** Same real path, or (hard links, case-insensitive names) the same device and inode. */
function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.real === b.real || (a.inode !== undefined && a.inode === b.inode);
}

/**
 * Where a command's report goes: stdout, or a file checked against the files the run reads; `real`
 * is where it is written (a link named by `--out` is written through to its target, as before, but
 * by rename: see `writeOutput`).
 */
export type OutputTarget =
  | { readonly kind: 'stdout' }
  | { readonly kind: 'file'; readonly file: string; readonly real: string; readonly reads: readonly ReadFile[] };

/** The file in `reads` that `out` is, or what else keeps it from being written; undefined when it may be. */
function outProblem(out: string, reads: readonly ReadFile[]): string | undefined {
  const target = identify(out);
  const hit = reads.find((r) => sameFile(target, identify(r.file)));
  if (hit !== undefined) return `it is ${hit.what}`;
  try {
    // A FIFO would block the write until someone reads it, and a device or folder is no report.
    return notRegularFile(fs.statSync(out));
  } catch {
    return undefined;
  }
}

/**
 * Stdout when `out` is undefined, else the file, unless it is the spec, a file in `reads`, or not a
 * regular file: then undefined, after saying on stderr why (the command exits 2 before it runs, and
 * writes nothing).
 */
/** Text tables are cut to 120 columns only on their way to a terminal: a file (`--out`) or a pipe gets every character. */
export function fitsTerminal(target: OutputTarget, io: CommandOutput): boolean {
  return target.kind === 'stdout' && io.terminal === true;
}

export function outputTarget(command: string, out: string | undefined, reads: readonly ReadFile[], io: CommandOutput): OutputTarget | undefined {
  if (out === undefined) return { kind: 'stdout' };
  const problem = outProblem(out, reads);
  if (problem === undefined) return { kind: 'file', file: out, real: realTarget(out), reads };
  io.err(escapeControls(`herald ${command}: refusing to write the report to ${out}: ${problem}; nothing was written`));
  return undefined;
}

/**
 * Checked again once the report is written, right before it is renamed into place: the run may
 * have taken minutes, and `--out` may have become a link to one of its inputs, or a hard link, or
 * another kind of file. (The rename would replace such a link, not the input, but a report put
 * where the user's input was linked is not what they asked for either.)
 */
function stillWritable(target: OutputTarget & { kind: 'file' }, written: fs.Stats): string | undefined {
  const mine = `${written.dev}:${written.ino}`;
  const input = target.reads.find((r) => identify(r.file).inode === mine);
  if (input !== undefined) return `the file written is ${input.what}`;
  const problem = outProblem(target.file, target.reads);
  if (problem !== undefined) return `${problem} now (it changed during the run)`;
  return realTarget(target.file) === target.real ? undefined : 'it leads elsewhere now (it changed during the run)';
}

/**
 * Writes a rendered report, or its pieces in order, where `outputTarget` said; false after saying on
 * stderr why it could not. Pieces are written one by one: an imported pool of a million rows is
 * more text than one string may hold. A file is written by `replaceFile`: whatever fails, an
 * existing file is left as it was.
 */
export function writeOutput(target: OutputTarget, rendered: string | Iterable<string>, io: CommandOutput & { write: (text: string) => void }, quiet = false): boolean {
  const pieces = typeof rendered === 'string' ? [rendered] : rendered;
  if (target.kind === 'stdout') {
    for (const piece of pieces) io.write(piece);
    return true;
  }
  return writeFileTarget(target, pieces, io, quiet);
}

/** Writes bytes to a file target (never stdout), as `writeOutput` writes text. */
export function writeFileTarget(target: Extract<OutputTarget, { kind: 'file' }>, pieces: Iterable<string | Uint8Array>, io: CommandOutput, quiet = false): boolean {
  const written = replaceFile(target.real, pieces, { beforeRename: (stats) => stillWritable(target, stats) });
  if (!written.ok) {
    io.err(escapeControls(`herald: cannot write ${target.file}: ${written.reason}; ${fs.existsSync(target.real) ? 'it was left as it was' : 'nothing was written'}`));
    return false;
  }
  if (!quiet) io.err(escapeControls(`herald: wrote ${target.file}`));
  return true;
}
