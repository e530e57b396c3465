import { createHash } from 'node:crypto';
import type { Decl, Spec } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';

// Content hashes of a spec's parts, for the queries that keep what an analysis computed while what it
// read is unchanged (audit/prepared-audits.ts). A part's hash covers its tokens (so a comment or a
// change of layout keeps it, and a string's spaces do not) and, through every declared name among
// them, the hashes of the declarations it uses: editing a signal changes the hash of every detector,
// term and audit that reads it, and nothing else. A name token counts as a use wherever it stands;
// where it is a bound variable that shadows a declaration the hash only changes more often.

/** A token as the lexer gives it: its text and where it starts. */
export interface SpecToken {
  readonly image: string;
  readonly startOffset: number;
}

export interface SpecHashes {
  /** Per declared name (the first declaration of it): its tokens and the hashes of the names it uses. */
  readonly decls: ReadonlyMap<string, string>;
  /** Per reward term, `REWARD.TERM`: its expression, without its weight, and the hashes of the names it uses. */
  readonly terms: ReadonlyMap<string, string>;
  /** Per attack of an audit, `AUDIT.ATTACK`: its item (edit, targets, generators) and the hashes of the names it uses. */
  readonly attacks: ReadonlyMap<string, string>;
  /**
   * Per attack, `AUDIT.ATTACK`: its hash with the detectors it names (its targets) counted by name,
   * not by definition: what stays when a detector's definition changes (audit/prepared-audits.ts).
   */
  readonly attackShapes: ReadonlyMap<string, string>;
  /**
   * Per audit: what its report is computed from, its block without the `expect` lines (which are
   * judged against the report), and the hashes of the names that remain.
   */
  readonly reports: ReadonlyMap<string, string>;
}

export const termHashKey = (reward: string, term: string): string => `${reward}.${term}`;
export const attackHashKey = (audit: string, attack: string): string => `${audit}.${attack}`;

/** The content hash of plain data: SHA-256 of its JSON. What every kept result's key is made of. */
export function contentDigest(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

/** The hashes of every declaration, reward term and attack of a parsed spec; `tokens` in order, without comments. */
export function specHashes(spec: Spec, tokens: readonly SpecToken[]): SpecHashes {
  const declared = new Map<string, Decl>();
  for (const decl of spec.decls) if (decl.name !== undefined && !declared.has(decl.name.text)) declared.set(decl.name.text, decl);

  // The images of the tokens in `span`, but those in `leaveOut` (spans inside it, in order).
  const imagesIn = (span: Span, leaveOut: readonly Span[] = []): string[] => {
    let low = 0;
    let high = tokens.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (tokens[mid]!.startOffset < span.start) low = mid + 1;
      else high = mid;
    }
    const images: string[] = [];
    let gap = 0;
    for (let i = low; i < tokens.length && tokens[i]!.startOffset < span.end; i++) {
      const at = tokens[i]!.startOffset;
      while (gap < leaveOut.length && leaveOut[gap]!.end <= at) gap++;
      if (gap < leaveOut.length && leaveOut[gap]!.start <= at) continue;
      images.push(tokens[i]!.image);
    }
    return images;
  };

  // The declarations' hashes in dependency order, with a stack of our own: a chain of declarations
  // may be as long as the spec (each using the one before), deeper than the call stack goes.
  const decls = new Map<string, string>();
  const usedNames = (images: readonly string[], self: string | undefined): string[] =>
    [...new Set(images.filter((image) => image !== self && declared.has(image)))].sort();
  const visiting = new Set<string>();
  for (const root of declared.keys()) {
    if (decls.has(root)) continue;
    const stack: { name: string; images: string[]; names: string[] }[] = [];
    const open = (name: string): void => {
      const images = imagesIn(declared.get(name)!.span);
      visiting.add(name);
      stack.push({ name, images, names: usedNames(images, name) });
    };
    open(root);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const next = top.names.find((name) => !decls.has(name) && !visiting.has(name));
      if (next !== undefined) {
        open(next);
        continue;
      }
      stack.pop();
      visiting.delete(top.name);
      // A declaration that uses itself, through others, is an error of the check, and no analysis runs on it.
      const uses = top.names.map((name) => `${name}=${decls.get(name) ?? `cycle:${name}`}`);
      decls.set(top.name, contentDigest([declared.get(top.name)!.kind, top.images, uses]));
    }
  }
  const uses = (images: readonly string[], self: string | undefined): string[] => usedNames(images, self).map((name) => `${name}=${decls.get(name)!}`);

  const terms = new Map<string, string>();
  const attacks = new Map<string, string>();
  const attackShapes = new Map<string, string>();
  const shapeUses = (images: readonly string[]): string[] =>
    usedNames(images, undefined).map((name) => (declared.get(name)!.kind === 'detector' ? `${name}=detector` : `${name}=${decls.get(name)!}`));
  const reports = new Map<string, string>();
  for (const decl of declared.values()) {
    if (decl.kind === 'reward' && decl.name !== undefined) {
      for (const term of decl.terms) {
        if (term.body === undefined) continue;
        const images = imagesIn(term.body.span);
        terms.set(termHashKey(decl.name.text, term.name.text), contentDigest(['term', images, uses(images, undefined)]));
      }
    }
    if (decl.kind === 'audit' && decl.name !== undefined) {
      const expects = decl.items.filter((item) => item.kind === 'expect-metric' || item.kind === 'expect-minimal').map((item) => item.span);
      const images = imagesIn(decl.span, expects);
      reports.set(decl.name.text, contentDigest(['report', images, uses(images, decl.name.text)]));
      for (const item of decl.items) {
        if (item.kind !== 'attack' || item.name === undefined) continue;
        const images = imagesIn(item.span);
        attacks.set(attackHashKey(decl.name.text, item.name.text), contentDigest(['attack', images, uses(images, undefined)]));
        attackShapes.set(attackHashKey(decl.name.text, item.name.text), contentDigest(['attack', images, shapeUses(images)]));
      }
    }
  }
  return { decls, terms, attacks, attackShapes, reports };
}
