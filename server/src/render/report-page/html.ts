import { escapeControls } from '../../report/escape-text.js';

// A small HTML/SVG builder for the server-rendered page. Every string from a report goes in as text
// or an attribute value and is escaped here; only markup built by `h` (or constant markup that the
// caller vouches for with `trusted`) is ever inserted as is.

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes text for element content and quoted attribute values; control and bidi characters become
 * visible escapes too, so an id cannot reorder the text around it.
 */
export function escapeHtml(text: string): string {
  return escapeControls(text).replace(/[&<>"']/g, (c) => entities[c]!);
}

declare const markupBrand: unique symbol;
/** Markup that is safe to insert: built by `h`, or constant. */
export interface Html {
  readonly [markupBrand]: true;
  readonly markup: string;
}

export type Child = Html | string | number | null | undefined | false | readonly Child[];
export type Attributes = Readonly<Record<string, string | number | boolean | null | undefined>>;

const voidElements = new Set(['meta', 'link', 'br', 'hr', 'img', 'input', 'col', 'source']);
const namePattern = /^[a-zA-Z][a-zA-Z0-9:-]*$/;

const markup = (text: string): Html => ({ markup: text }) as Html;

/** Constant markup (a stylesheet, a bundled script) that contains no report text. */
export function trusted(text: string): Html {
  return markup(text);
}

function childMarkup(child: Child): string {
  if (child === null || child === undefined || child === false) return '';
  if (typeof child === 'string') return escapeHtml(child);
  if (typeof child === 'number') return escapeHtml(String(child));
  if (Array.isArray(child)) return (child as readonly Child[]).map(childMarkup).join('');
  return (child as Html).markup;
}

/** An element; `true` attributes are written bare, `false`/null/undefined ones left out. */
export function h(tag: string, attributes: Attributes = {}, ...children: Child[]): Html {
  if (!namePattern.test(tag)) throw new Error(`bad element name ${tag}`);
  const attrs = Object.entries(attributes)
    .filter(([, v]) => v !== false && v !== null && v !== undefined)
    .map(([name, value]) => {
      if (!namePattern.test(name)) throw new Error(`bad attribute name ${name}`);
      return value === true ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`;
    })
    .join('');
  if (voidElements.has(tag)) return markup(`<${tag}${attrs}>`);
  return markup(`<${tag}${attrs}>${childMarkup(children)}</${tag}>`);
}

/** Several children as one piece of markup. */
export function fragment(...children: Child[]): Html {
  return markup(childMarkup(children));
}

export function render(child: Child): string {
  return childMarkup(child);
}
