import type { Spec, StringLit } from '../syntax/ast.js';

// The one list of the programs a spec runs, beside the one list of the files it reads
// (spec-inputs.ts). The command line asks for consent from it before anything runs, so a program
// kind added here is refused without consent everywhere at once.

export interface SpecCommand {
  /** A candidate generator (audits run it), or a field or reward computed by a program (any analysis that reads it). */
  readonly kind: 'generator' | 'term';
  /** What runs it, in words: `audit paper: candidates command`, `field judge: command`. */
  readonly owner: string;
  /** The command text as written, run by `/bin/sh -c` in the spec's folder. */
  readonly command: string;
  /** The string in the spec that holds it, for `file:line:col`. */
  readonly link: StringLit;
}

/**
 * Every program the spec's audits would run, in spec order: each `candidates command` of an attack
 * of the audit named `only` (or of every audit), and every field and reward computed by a command,
 * which any analysis may read (the engine runs only those it reads, after the same consent).
 * Comparisons and training blocks run no generator (the checker refuses one there).
 */
export function specCommands(spec: Spec, only?: string): SpecCommand[] {
  const commands: SpecCommand[] = [];
  for (const decl of spec.decls) {
    if ((decl.kind === 'logged' || decl.kind === 'reward') && decl.command !== undefined && decl.name !== undefined) {
      const kind = decl.kind === 'reward' ? 'reward' : 'field';
      commands.push({ kind: 'term', owner: `${kind} ${decl.name.text}: command`, command: decl.command.program.value, link: decl.command.program });
    }
    if (decl.kind !== 'audit' || decl.name === undefined || (only !== undefined && decl.name.text !== only)) continue;
    for (const item of decl.items) {
      if (item.kind !== 'attack') continue;
      for (const generator of item.generators) {
        if (generator.kind === 'candidates-command' && generator.command !== undefined) {
          commands.push({ kind: 'generator', owner: `audit ${decl.name.text}: candidates command`, command: generator.command.value, link: generator.command });
        }
      }
    }
  }
  return commands;
}
