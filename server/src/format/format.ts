import type { IToken, TokenType } from 'chevrotain';
import type { Comment, Decl } from '../syntax/ast.js';
import { parse, type ParseResult } from '../syntax/parse.js';
import * as T from '../syntax/tokens.js';
import { LineBuffer } from './line-buffer.js';
import { attachedSigns, flatSpace } from './spacing.js';

export interface FormatOptions {
  /** Spaces per indentation level (default 2). */
  readonly indent?: number;
}

/** Lines longer than this are broken where the author broke them; shorter ones are joined. */
const maxWidth = 100;

/**
 * Whether a line break may carry a blank line: never, when the source had one, or always. A gap
 * with own-line comments has several breaks; the first and the last follow their own policy.
 */
type BlankPolicy = 'never' | 'keep' | 'force';
interface Blanks {
  readonly first: BlankPolicy;
  readonly middle: BlankPolicy;
  readonly last: BlankPolicy;
}

const continuation: Blanks = { first: 'never', middle: 'never', last: 'never' };
const fileStart: Blanks = { first: 'never', middle: 'keep', last: 'keep' };
const betweenItems: Blanks = { first: 'keep', middle: 'keep', last: 'keep' };
const afterOpenBrace: Blanks = { first: 'never', middle: 'keep', last: 'keep' };
const beforeCloseBrace: Blanks = { first: 'keep', middle: 'keep', last: 'never' };
const emptyBlock: Blanks = { first: 'never', middle: 'keep', last: 'never' };
const aroundBlocks: Blanks = { first: 'force', middle: 'keep', last: 'keep' };

/** How a gap that breaks the line is laid out. */
interface LineGap {
  /** The indentation of the token after the gap. */
  readonly indent: number;
  /** The indentation of comments on their own lines in the gap (inside a block before its `}`). */
  readonly commentIndent: number;
  readonly blanks: Blanks;
}

/** The text between two neighbouring tokens, with the comments in it. */
interface Gap {
  readonly start: number;
  readonly end: number;
  readonly comments: readonly Comment[];
}

type Mode = 'flat' | 'keep';

/** An open `(` or `{` while a statement is printed: where the lines inside it start. */
interface Opener {
  readonly lineIndent: number;
  /** The column of the first token inside, when it follows on the same line; null for a hanging indent. */
  align: number | null | undefined;
}

function lineBreaks(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10 || (ch === 13 && text.charCodeAt(i + 1) !== 10)) count++;
  }
  return count;
}

const tokenEnd = (t: IToken): number => (t.endOffset ?? t.startOffset) + 1;
const isBlockDecl = (decl: Decl, opensBrace: boolean): boolean =>
  decl.kind === 'audit' || decl.kind === 'training' || decl.kind === 'comparison' || (decl.kind === 'reward' && opensBrace);
/** Trailing blanks in a comment are invisible noise; everything else in it is kept. */
const trimComment = (text: string): string => text.replace(/[ \t]+$/, '');

/**
 * Lays out one parsed spec. Every token is written exactly once, in order, with every comment
 * between the same two tokens as in the source; only the whitespace between them changes.
 */
class SpecPrinter {
  private readonly out = new LineBuffer();
  private readonly gaps: Gap[] = [];
  private readonly tokenAt = new Map<number, number>();
  private readonly signs: ReadonlySet<number>;
  /** Inline spacing that replaces the canonical one before a token: the padding that aligns columns. */
  private readonly padding = new Map<number, string>();

  constructor(
    private readonly text: string,
    private readonly parsed: ParseResult,
    private readonly unit: number,
  ) {
    const tokens = parsed.tokens;
    let c = 0;
    const comments = parsed.spec.comments;
    for (let i = 0; i <= tokens.length; i++) {
      const start = i === 0 ? 0 : tokenEnd(tokens[i - 1]!);
      const end = i === tokens.length ? text.length : tokens[i]!.startOffset;
      const inGap: Comment[] = [];
      while (c < comments.length && comments[c]!.span.start < end) inGap.push(comments[c++]!);
      this.gaps.push({ start, end, comments: inGap });
      if (i < tokens.length) this.tokenAt.set(tokens[i]!.startOffset, i);
    }
    this.signs = attachedSigns(parsed.spec, text);
  }

  private get tokens(): readonly IToken[] {
    return this.parsed.tokens;
  }

  print(): string {
    const decls = this.parsed.spec.decls;
    const starts = decls.map((d) => this.index(d.span.start));
    this.alignLinks(decls, starts);
    const opensBrace = decls.map((_, k) => this.blockBrace(starts[k]!, starts[k + 1] ?? this.tokens.length) !== undefined);
    decls.forEach((decl, k) => {
      const from = starts[k]!;
      const to = starts[k + 1] ?? this.tokens.length;
      const previousIsBlock = k > 0 && isBlockDecl(decls[k - 1]!, opensBrace[k - 1]!);
      const blanks = k === 0 ? fileStart : previousIsBlock || isBlockDecl(decl, opensBrace[k]!) ? aroundBlocks : betweenItems;
      this.lineGap(from, { indent: 0, commentIndent: 0, blanks });
      this.decl(decl, from, to);
    });
    this.lineGap(this.tokens.length, { indent: 0, commentIndent: 0, blanks: betweenItems });
    const eol = /\r\n|\r|\n/.exec(this.text)?.[0] ?? '\n';
    return this.out.render(eol);
  }

  private index(offset: number): number {
    const i = this.tokenAt.get(offset);
    if (i === undefined) throw new Error(`no token starts at offset ${offset}`);
    return i;
  }

  private decl(decl: Decl, from: number, to: number): void {
    // Every kind has its case: a declaration printed by none would lose its tokens, and the spec would be left unformatted.
    switch (decl.kind) {
      case 'corpus':
      case 'pool':
      case 'logged':
        this.statement(from, to, 0);
        return;
      case 'signal':
      case 'detector':
      case 'edit':
        this.headerAndBody(from, this.find(from, to, T.Equals), to);
        return;
      case 'reward': {
        const brace = this.blockBrace(from, to);
        if (brace === undefined) {
          this.headerAndBody(from, this.find(from, to, T.Equals), to);
        } else {
          const starts = decl.terms.map((t) => this.index(t.name.span.start));
          this.alignTerms(starts);
          this.block(from, brace, to, starts);
        }
        return;
      }
      case 'audit':
      case 'training':
      case 'comparison':
        this.block(from, this.find(from, to, T.LBrace), to, decl.items.map((item) => this.index(item.span.start)));
        return;
    }
  }

  private find(from: number, to: number, type: TokenType): number {
    for (let i = from; i < to; i++) if (this.tokens[i]!.tokenType === type) return i;
    throw new Error(`no ${type.name} in the declaration at offset ${this.tokens[from]?.startOffset}`);
  }

  /** The `{` of a reward block; undefined for a derived reward, whose header ends in `=`. */
  private blockBrace(from: number, to: number): number | undefined {
    if (this.tokens[from]?.tokenType !== T.Reward) return undefined;
    for (let i = from; i < to; i++) {
      const type = this.tokens[i]!.tokenType;
      if (type === T.LBrace) return i;
      if (type === T.Equals) return undefined;
    }
    return undefined;
  }

  /** `signal NAME "doc" = BODY` on one line when it fits, else the body indented on the next. */
  private headerAndBody(from: number, equals: number, to: number): void {
    if (!this.hasComments(from, to) && this.flatWidth(from, to) <= maxWidth) {
      this.range(from, to, 'flat', this.unit);
      return;
    }
    this.statement(from, equals + 1, 0);
    this.lineGap(equals + 1, { indent: this.unit, commentIndent: this.unit, blanks: continuation });
    this.statement(equals + 1, to, this.unit);
  }

  /** `HEADER {`, one item per line, `}`: reward blocks and audits. */
  private block(from: number, brace: number, to: number, itemStarts: readonly number[]): void {
    const close = to - 1;
    this.statement(from, brace + 1, 0);
    if (itemStarts.length === 0) {
      if (this.gaps[close]!.comments.length > 0) this.lineGap(close, { indent: 0, commentIndent: this.unit, blanks: emptyBlock });
    } else {
      itemStarts.forEach((start, k) => {
        this.lineGap(start, { indent: this.unit, commentIndent: this.unit, blanks: k === 0 ? afterOpenBrace : betweenItems });
        this.statement(start, itemStarts[k + 1] ?? close, this.unit);
      });
      this.lineGap(close, { indent: 0, commentIndent: this.unit, blanks: beforeCloseBrace });
    }
    this.out.write(this.tokens[close]!.image);
  }

  /** One logical line: joined when it fits and holds no comment, else broken where the author broke it. */
  private statement(from: number, to: number, indent: number): void {
    const flat = !this.hasComments(from, to) && indent + this.flatWidth(from, to) <= maxWidth;
    this.range(from, to, flat ? 'flat' : 'keep', indent + this.unit);
  }

  /**
   * Writes tokens `from` to `to` (exclusive); the gap before `from` is the caller's. Lines
   * continued inside parentheses line up with the first token after the `(` (or hang one level
   * deeper when the `(` ends its line); other continuation lines start at `continuationIndent`.
   */
  private range(from: number, to: number, mode: Mode, continuationIndent: number): void {
    const openers: Opener[] = [];
    for (let i = from; i < to; i++) {
      const token = this.tokens[i]!;
      const top = openers[openers.length - 1];
      const closes = token.tokenType === T.RParen || token.tokenType === T.RBrace;
      let broke = false;
      if (i > from) {
        const gap = this.gaps[i]!;
        if (gap.comments.length > 0 || (mode === 'keep' && lineBreaks(this.text, gap.start, gap.end) > 0)) {
          const indent = top === undefined ? continuationIndent : closes ? top.lineIndent : top.align ?? top.lineIndent + this.unit;
          this.lineGap(i, { indent, commentIndent: indent, blanks: continuation });
          broke = true;
        } else {
          this.out.write(this.space(i));
        }
      }
      if (top !== undefined && top.align === undefined) top.align = broke ? null : this.out.column;
      if (closes) openers.pop();
      this.out.write(token.image);
      if (token.tokenType === T.LParen || token.tokenType === T.LBrace) openers.push({ lineIndent: this.out.lineIndent, align: undefined });
    }
  }

  private space(i: number): string {
    return this.padding.get(i) ?? flatSpace(this.tokens[i - 1]!, this.tokens[i]!, this.signs);
  }

  private flatWidth(from: number, to: number): number {
    let width = 0;
    for (let i = from; i < to; i++) width += this.tokens[i]!.image.length + (i > from ? this.space(i).length : 0);
    return width;
  }

  /** Whether a comment sits between two tokens of the range (not before or after it). */
  private hasComments(from: number, to: number): boolean {
    for (let i = from + 1; i < to; i++) if (this.gaps[i]!.comments.length > 0) return true;
    return false;
  }

  /**
   * Ends the line before token `i` (or, at the end of the file, after the last token), writing the
   * gap's comments: a comment that followed code on its source line stays there, the others get
   * lines of their own. Blank lines follow the gap's policy.
   */
  private lineGap(i: number, layout: LineGap): void {
    const gap = this.gaps[i]!;
    const atEnd = i === this.tokens.length;
    let position = gap.start;
    let comments = gap.comments;
    const first = comments[0];
    if (first !== undefined && this.out.lineHasCode && lineBreaks(this.text, gap.start, first.span.start) === 0) {
      this.out.trailingComment(trimComment(first.text));
      position = first.span.end;
      comments = comments.slice(1);
    }
    const breaks = comments.length + (atEnd ? 0 : 1);
    const blankBefore = (k: number, end: number): boolean => {
      const policies = [k === 0 ? layout.blanks.first : undefined, k === breaks - 1 ? layout.blanks.last : undefined];
      const applied = policies.some((p) => p !== undefined) ? policies : [layout.blanks.middle];
      if (applied.includes('never')) return false;
      return applied.includes('force') || lineBreaks(this.text, position, end) >= 2;
    };
    comments.forEach((comment, k) => {
      this.out.commentLine(layout.commentIndent, blankBefore(k, comment.span.start), trimComment(comment.text));
      position = comment.span.end;
    });
    if (!atEnd) this.out.newline(layout.indent, blankBefore(breaks - 1, gap.end));
  }

  /** Lines up the `=` of consecutive `corpus` and `pool` lines (a run ends at a blank line). */
  private alignLinks(decls: readonly Decl[], starts: readonly number[]): void {
    let run: number[] = [];
    const flush = (): void => {
      const headWidth = (from: number): number => this.flatWidth(from, from + 2);
      const widest = run.reduce((w, from) => Math.max(w, headWidth(from)), -Infinity);
      for (const from of run) this.padding.set(from + 2, ' '.repeat(widest - headWidth(from) + 1));
      run = [];
    };
    decls.forEach((decl, k) => {
      const from = starts[k]!;
      const link = decl.kind === 'corpus' || decl.kind === 'pool';
      if (run.length > 0 && (!link || this.hasBlankLine(from))) flush();
      if (link) run.push(from);
    });
    if (run.length > 0) flush();
  }

  private hasBlankLine(i: number): boolean {
    const gap = this.gaps[i]!;
    let position = gap.start;
    for (const comment of gap.comments) {
      if (lineBreaks(this.text, position, comment.span.start) >= 2) return true;
      position = comment.span.end;
    }
    return lineBreaks(this.text, position, gap.end) >= 2;
  }

  /**
   * Reward terms in columns: names padded to the longest, a sign column when any weight is signed,
   * weights padded so every `*` lines up (as in samples/paper.reward).
   */
  private alignTerms(starts: readonly number[]): void {
    const isSign = (t: IToken | undefined): boolean => t?.tokenType === T.Minus || t?.tokenType === T.Plus;
    const terms = starts.map((name) => {
      const signed = isSign(this.tokens[name + 1]);
      const weight = signed ? name + 2 : name + 1;
      return { name, signed, weight, star: weight + 1 };
    });
    const length = (i: number): number => this.tokens[i]!.image.length;
    const nameWidth = terms.reduce((w, t) => Math.max(w, length(t.name)), -Infinity);
    const weightWidth = terms.reduce((w, t) => Math.max(w, length(t.weight)), -Infinity);
    const anySigned = terms.some((t) => t.signed);
    for (const t of terms) {
      const afterName = ' '.repeat(nameWidth - length(t.name) + 1);
      if (t.signed) {
        this.padding.set(t.name + 1, afterName);
        this.padding.set(t.weight, '');
      } else {
        this.padding.set(t.weight, afterName + (anySigned ? ' ' : ''));
      }
      this.padding.set(t.star, ' '.repeat(weightWidth - length(t.weight) + 1));
    }
  }
}

/** The layout step alone, for a spec known to parse cleanly: what formatSpec runs after its checks. */
export function layoutSpec(text: string, parsed: ParseResult, options: FormatOptions = {}): string {
  const unit = Math.max(0, Math.floor(options.indent ?? 2));
  return new SpecPrinter(text, parsed, unit).print();
}

function sameTokensAndComments(before: ParseResult, after: string): boolean {
  const lexed = T.rewardLexer.tokenize(after);
  if (lexed.errors.length > 0 || lexed.tokens.length !== before.tokens.length) return false;
  const comments = lexed.groups['comments'] ?? [];
  if (comments.length !== before.spec.comments.length) return false;
  return (
    lexed.tokens.every((t, i) => t.tokenType === before.tokens[i]!.tokenType && t.image === before.tokens[i]!.image) &&
    comments.every((c, i) => c.image === trimComment(before.spec.comments[i]!.text))
  );
}

/**
 * The canonical text of a spec. A spec with lex or parse errors comes back unchanged: formatting
 * a half-written file would move text the author has not finished. The result is checked to hold
 * the same tokens and comments, so a layout bug costs a no-op, never a lost token. Never throws.
 */
export function formatSpec(text: string, options: FormatOptions = {}): string {
  const parsed = parse(text);
  if (parsed.problems.length > 0) return text;
  let formatted: string;
  try {
    formatted = layoutSpec(text, parsed, options);
  } catch {
    // layoutSpec throws only when the AST and the tokens disagree; the text is then left alone.
    return text;
  }
  return sameTokensAndComments(parsed, formatted) ? formatted : text;
}
