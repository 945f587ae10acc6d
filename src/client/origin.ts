// Where the key may go: only the configured base URL's origin, and never in
// clear text across a network (plain http is allowed to loopback only, so the
// local sandbox works without TLS).

export class InsecureBaseUrlError extends Error {
  override readonly name = 'InsecureBaseUrlError';
}

// Literal loopback addresses and `localhost` itself. Not `*.localhost`: a
// name is only loopback if the resolver says so, and `evil.localhost` may be
// resolved by a DNS server that does not (the key would leave in clear text).
const LOOPBACK_NAMES = new Set(['localhost', '::1', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (LOOPBACK_NAMES.has(host)) return true;
  // URL parsing has already normalised '127.1' or '0x7f.1' to dotted quads.
  const quad = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return quad !== null && quad.slice(1).every((n) => Number(n) <= 255);
}

/** Parse and vet a base URL; throws InsecureBaseUrlError with a sentence a person can act on. */
export function checkBaseUrl(raw: string, what = 'base URL'): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InsecureBaseUrlError(`${what} "${raw}" is not a valid URL (expected e.g. https://api.example.com)`);
  }
  if (url.username || url.password) {
    throw new InsecureBaseUrlError(`${what} must not carry a user name or password`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:') {
    if (isLoopbackHost(url.hostname)) return url;
    throw new InsecureBaseUrlError(
      what === 'base URL'
        ? `refusing to send the API key over plain http to ${url.host}: use https, or a loopback address (127.0.0.1, ::1, localhost) for a local sandbox`
        : `refusing plain http to ${url.host} for the ${what}: use https, or a loopback address`,
    );
  }
  throw new InsecureBaseUrlError(`${what} must use https (or http to a loopback address), not ${url.protocol}`);
}

/** An absolute URL as origin + raw path (never re-encoded or dot-normalised beyond what URL parsing did). */
export function splitAbsolute(raw: string): { origin: string; path: string } {
  const url = checkBaseUrl(raw, 'request URL');
  return { origin: url.origin, path: url.pathname + url.search };
}

/** Join the base URL's path prefix with an API path ('/observe/campaigns'). */
export function joinPath(base: URL, path: string): string {
  if (!path.startsWith('/') || path.startsWith('//')) {
    throw new InsecureBaseUrlError(`request path must start with a single "/": ${path}`);
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  return prefix + path;
}
