// Where the key may go: only the configured base URL's origin, and never in
// clear text across a network (plain http is allowed to loopback only, so the
// local sandbox works without TLS).

export class InsecureBaseUrlError extends Error {
  override readonly name = 'InsecureBaseUrlError';
}

const LOOPBACK_NAMES = new Set(['localhost', '::1', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (LOOPBACK_NAMES.has(host) || host.endsWith('.localhost')) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Parse and vet a base URL; throws InsecureBaseUrlError with a sentence a person can act on. */
export function checkBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InsecureBaseUrlError(`base URL "${raw}" is not a valid URL (expected e.g. https://api.example.com)`);
  }
  if (url.username || url.password) {
    throw new InsecureBaseUrlError('base URL must not carry a user name or password');
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:') {
    if (isLoopbackHost(url.hostname)) return url;
    throw new InsecureBaseUrlError(
      `refusing to send the API key over plain http to ${url.host}: use https, or a loopback address for a local sandbox`,
    );
  }
  throw new InsecureBaseUrlError(`base URL must use https (or http to a loopback address), not ${url.protocol}`);
}

/** Join the base URL's path prefix with an API path ('/observe/campaigns'). */
export function joinPath(base: URL, path: string): string {
  if (!path.startsWith('/') || path.startsWith('//')) {
    throw new InsecureBaseUrlError(`request path must start with a single "/": ${path}`);
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  return prefix + path;
}
