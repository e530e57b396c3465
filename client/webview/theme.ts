// The page's colours as the charts need them: read from the stylesheet's custom properties, so the
// charts follow the light/dark palette (and, in VS Code, the editor theme) like the rest of the page.

export interface Theme {
  readonly fg: string;
  readonly muted: string;
  readonly line: string;
  readonly good: string;
  readonly bad: string;
  readonly warn: string;
  readonly accent: string;
  readonly audited: string;
  readonly repair: string;
  /** For compared rewards and for attacks, in order. */
  readonly series: readonly string[];
  readonly font: string;
}

export function readTheme(element: Element): Theme {
  const style = getComputedStyle(element);
  const get = (name: string, fallback: string): string => style.getPropertyValue(`--${name}`).trim() || fallback;
  return {
    fg: get('fg', '#1b1f24'),
    muted: get('muted', '#57606a'),
    line: get('line', '#d0d7de'),
    good: get('good', '#1a7f37'),
    bad: get('bad', '#cf222e'),
    warn: get('warn', '#9a6700'),
    accent: get('accent', '#0550ae'),
    audited: get('series-audited', '#cf222e'),
    repair: get('series-repair', '#1a7f37'),
    series: [1, 2, 3, 4, 5, 6].map((i) => get(`series-${i}`, '#6e7781')),
    font: style.fontFamily || 'system-ui, sans-serif',
  };
}

/** `#rrggbb` with an alpha; other colour syntaxes are returned unchanged. */
export function withAlpha(color: string, alpha: number): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (m === null) return color;
  const [r, g, b] = [m[1]!, m[2]!, m[3]!].map((x) => parseInt(x, 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}
