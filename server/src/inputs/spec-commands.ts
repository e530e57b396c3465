import type { Spec, StringLit } from '../syntax/ast.js';

// The one list of the programs a spec runs, beside the one list of the files it reads
// (spec-inputs.ts). The command line asks for consent from it before anything runs; a program kind
// added here (issue 23's computed terms) is refused without consent everywhere at once.

export interface SpecCommand {
  /** The audit block that would run it. */
  readonly audit: string;
  /** The command text as written, run by `/bin/sh -c` in the spec's folder. */
  readonly command: string;
  /** The string in the spec that holds it, for `file:line:col`. */
  readonly link: StringLit;
}

/**
 * Every program the spec's audits would run (each `candidates command` of an attack), in spec
 * order, for the audit named `only` or for all. Comparisons run none (the checker refuses one there).
 */
export function specCommands(spec: Spec, only?: string): SpecCommand[] {
  const commands: SpecCommand[] = [];
  for (const decl of spec.decls) {
    if (decl.kind !== 'audit' || decl.name === undefined || (only !== undefined && decl.name.text !== only)) continue;
    for (const item of decl.items) {
      if (item.kind !== 'attack') continue;
      for (const generator of item.generators) {
        if (generator.kind === 'candidates-command' && generator.command !== undefined) {
          commands.push({ audit: decl.name.text, command: generator.command.value, link: generator.command });
        }
      }
    }
  }
  return commands;
}
