// The `<tag>…</tag>` blocks of a text as the frameworks' lazy regular expressions pair them
// (`re.finditer(r"<answer>(.*?)</answer>", text, re.DOTALL)`: each open with the first close after
// it), found with indexOf in one pass. The regular expression itself rescans the rest of the text
// from every unclosed open: 200,000 unclosed `<think>` in 1.5 MB took minutes.

export interface TagBlock {
  /** Where the open tag starts. */
  readonly start: number;
  /** The text between the tags, as written. */
  readonly inside: string;
  /** Just past the close tag. */
  readonly end: number;
}

/** Every closed block, in order; an open with no close after it ends the search. */
export function tagBlocks(text: string, open: string, close: string): TagBlock[] {
  const blocks: TagBlock[] = [];
  for (let pos = 0; ;) {
    const start = text.indexOf(open, pos);
    const closeAt = start === -1 ? -1 : text.indexOf(close, start + open.length);
    if (closeAt === -1) return blocks;
    blocks.push({ start, inside: text.slice(start + open.length, closeAt), end: closeAt + close.length });
    pos = closeAt + close.length;
  }
}

/** The inside of the last closed block that `keep` accepts (every one by default), or undefined when there is none. */
export function lastTagBlock(text: string, open: string, close: string, keep: (block: TagBlock) => boolean = () => true): string | undefined {
  const blocks = tagBlocks(text, open, close);
  for (let i = blocks.length - 1; i >= 0; i--) if (keep(blocks[i]!)) return blocks[i]!.inside;
  return undefined;
}
