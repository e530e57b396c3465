// The page's Content-Security-Policy: nothing loads or runs unless it carries the page's nonce or
// comes from the webview's own resource origin (`cspSource`, VS Code only). No remote origin, no
// inline event handlers, no eval; images only as data: URIs.

/** A CSP nonce: base64 or base64url of at least 16 random bytes' worth of characters. */
const noncePattern = /^[A-Za-z0-9+/_-]{22,}={0,2}$/;
/** One source expression as VS Code's `webview.cspSource` writes them: 'self' or scheme://host. */
const sourcePattern = /^(?:'self'|[a-z][a-z0-9+.-]*:(?:\/\/[A-Za-z0-9.*+-]+(?::\d+)?)?)$/;

export interface PolicyOptions {
  readonly nonce: string;
  /** The webview's resource origin(s), space-separated; absent for the standalone page. */
  readonly cspSource?: string | undefined;
}

function checkNonce(nonce: string): string {
  if (!noncePattern.test(nonce)) throw new Error('the report page needs a random nonce of 22+ base64 characters');
  return nonce;
}

function checkSources(cspSource: string | undefined): string[] {
  const sources = (cspSource ?? '').split(/\s+/).filter((s) => s !== '');
  for (const s of sources) if (!sourcePattern.test(s)) throw new Error(`unexpected CSP source ${JSON.stringify(s)}`);
  return sources;
}

export function contentSecurityPolicy(options: PolicyOptions): string {
  const nonce = `'nonce-${checkNonce(options.nonce)}'`;
  const own = checkSources(options.cspSource);
  const directives: [string, ...string[]][] = [
    ['default-src', "'none'"],
    ['img-src', 'data:', ...own],
    ['style-src', ...own, nonce],
    ['script-src', nonce],
    // Neither falls back to default-src.
    ['base-uri', "'none'"],
    ['form-action', "'none'"],
  ];
  return directives.map((d) => d.join(' ')).join('; ');
}
