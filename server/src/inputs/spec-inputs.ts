import * as path from 'node:path';
import type { Spec, StringLit } from '../syntax/ast.js';
import { baselineFileOf } from './baseline-file.js';
import { isGlobLink } from './glob-files.js';
import { poolImportOf, type PoolImport } from './import-pool.js';
import type { NamedFile } from './load-inputs.js';
import { resolveLink } from './paths.js';

// The one list of the files a spec reads. The checker probes it, the trust rule filters it, the
// analyses load from it and the CLI refuses to write over it: a kind of file added here is checked,
// trusted and protected everywhere at once.

export type SpecInputKind = 'corpus' | 'pool' | 'candidates' | 'baseline';

export interface SpecInput {
  readonly kind: SpecInputKind;
  /** The declared name of a corpus or pool (training and evaluation logs are pools). */
  readonly name?: string;
  /** The string in the spec that links it; the baseline beside the spec has none. */
  readonly link?: StringLit;
  /** Absolute path; for a glob link, the absolute glob (`globFiles` lists its files). */
  readonly path: string;
  /** The link is a glob (`dumps/*.jsonl`): the pool is every file it matches, in sorted order. */
  readonly glob?: true;
  /** `from FORMAT(...)`: the pool's files are a foreign log, read through that importer. */
  readonly importer?: PoolImport;
}

/**
 * Every file a spec reads, in spec order: corpora and pools (audit pools, training and evaluation
 * logs), candidate files of attacks in audits and comparisons, and the baseline beside the spec
 * when the spec has an audit. Links resolve against the spec's folder.
 */
export function specInputs(spec: Spec, specFile: string): SpecInput[] {
  const specDir = path.dirname(specFile);
  const inputs: SpecInput[] = [];
  for (const decl of spec.decls) {
    if ((decl.kind === 'corpus' || decl.kind === 'pool') && decl.path !== undefined) {
      const importer = decl.kind === 'pool' ? poolImportOf(decl) : undefined;
      inputs.push({
        kind: decl.kind, ...(decl.name === undefined ? {} : { name: decl.name.text }), link: decl.path, path: resolveLink(specDir, decl.path.value),
        ...(decl.kind === 'pool' && isGlobLink(decl.path.value) ? { glob: true } : {}), ...(importer === undefined ? {} : { importer }),
      });
    }
    if (decl.kind !== 'audit' && decl.kind !== 'comparison') continue;
    for (const item of decl.items) {
      if (item.kind !== 'attack') continue;
      for (const generator of item.generators) {
        if (generator.kind === 'candidates-file' && generator.path !== undefined) inputs.push({ kind: 'candidates', link: generator.path, path: resolveLink(specDir, generator.path.value) });
      }
    }
  }
  if (spec.decls.some((d) => d.kind === 'audit')) inputs.push({ kind: 'baseline', path: baselineFileOf(specFile) });
  return inputs;
}

/** The files of one checked spec, by what its blocks call them. */
export interface SpecFiles {
  readonly inputs: readonly SpecInput[];
  /** The corpus or pool of that name, with its file. */
  named(name: string): NamedFile;
  /** A candidate file as the spec links it, with its file. */
  linked(link: string): { readonly link: string; readonly file: string };
}

export function specFiles(spec: Spec, specFile: string): SpecFiles {
  const specDir = path.dirname(specFile);
  const inputs = specInputs(spec, specFile);
  return {
    inputs,
    // The checker made sure every name links a file; the spec's folder stands in for none (and fails to load as one).
    named: (name) => {
      const input = inputs.find((i) => (i.kind === 'corpus' || i.kind === 'pool') && i.name === name);
      return { name, file: input?.path ?? specDir, ...(input?.glob === undefined ? {} : { glob: true }), ...(input?.importer === undefined ? {} : { importer: input.importer }) };
    },
    linked: (link) => ({ link, file: resolveLink(specDir, link) }),
  };
}
