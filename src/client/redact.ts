// Secrets must never reach a terminal or a log: the API key (Authorization
// header, or anywhere it might be echoed) and upload-URL credentials, which
// sit in query parameters or in the path itself (`/_storage/uploads/<token>`).
//
// Keys are masked by value, not by shape: every key the process uses is
// remembered (rememberSecret, called by the client) and replaced literally
// wherever it appears, whatever characters it holds. The `acr_` pattern is a
// second net for keys this process never held (one echoed by a server).

const SECRET_QUERY_PARAMS =
  /^(token|access_token|signature|sig|x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential|key|api_key|apikey|code|secret|password|auth)$/i;
// Any run after `acr_` up to a delimiter: a key holding '.', '+' or '/' is masked whole.
const KEY_PATTERN = /acr_[^\s"'`<>()[\]{},;]+/g;
// Path segments that carry a credential: after an upload/storage word, a
// signed-token shape (a.b.c, as JWTs and our upload tokens), or a long mixed-case run.
const TOKEN_PARENT = /^(uploads?|storage|signed|tokens?|sig|presigned)$/i;
const DOTTED_TOKEN = /^[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}$/;
const REDACTED = 'REDACTED';

// The user info after a scheme: a plain one (no '/'), or user:password up to the last @ before a blank or a
// quote, so a password holding '/', '?' or '#' (common in base64) is masked whole even where the URL does not
// parse ("http://ops:pa/ss99Secret@host:port"); a path holding '@' (https://example.com/@name) is left alone.
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s@/"'`<>]*|[^\s@/:"'`<>]*:[^\s@"'`<>]*)@/gi;
// The same without a scheme (a proxy variable written as "user:password@host:port").
const BARE_USERINFO = /(^|[\s"'`(<=])([^\s@:/"'`<>]+:(?!\/\/)[^\s@"'`<>]+)@(?=[^\s@"'`<>]+)/g;

/**
 * user:password@ as `user:***@` (the form the proxy route is shown in), a lone user (often a token) as
 * `REDACTED@`; what is masked already, and the placeholder of adops' own hints (USER:PASSWORD), as it is.
 */
function maskUserInfo(info: string): string {
  const colon = info.indexOf(':');
  if (colon === -1) return `${info === '' || info === REDACTED ? info : REDACTED}@`;
  const password = info.slice(colon + 1);
  return password === '***' || password === 'PASSWORD' ? `${info}@` : `${info.slice(0, colon)}:***@`;
}

const secrets = new Set<string>();
/** The secrets longest first (a secret containing another is masked whole), each with its JSON-escaped form; rebuilt when one is added. */
let ordered: Array<{ raw: string; json: string; shown: string }> = [];

const shownWhole = new Set<string>();

/**
 * A key-shaped value known to be public (the local sandbox's demo keys, which `adops sandbox keys` and
 * `sandbox serve` print on purpose): not masked by its shape. A remembered secret is masked all the same.
 */
export function showWhole(value: string): void {
  shownWhole.add(value);
}

/** Mask this value wherever it later appears in redacted text (keys, upload tokens, a proxy's password). */
export function rememberSecret(value: string | undefined): void {
  if (!value || value.length < 4 || secrets.has(value)) return;
  secrets.add(value);
  ordered = [...secrets]
    .sort((a, b) => b.length - a.length)
    .map((raw) => ({ raw, json: JSON.stringify(raw).slice(1, -1), shown: raw.startsWith('acr_') ? maskKey(raw) : REDACTED }));
}

/** `acr_…wxyz`: enough to tell keys apart, never enough to use one. */
export function maskKey(key: string | undefined): string {
  if (!key) return '(none)';
  return `acr_…${key.slice(-4)}`;
}

function looksLikeToken(segment: string, parent: string | undefined): boolean {
  let s = segment;
  try {
    s = decodeURIComponent(segment);
  } catch {
    // a malformed escape is judged as written
  }
  if (s.length < 8) return false;
  if (parent !== undefined && TOKEN_PARENT.test(parent)) return true;
  if (DOTTED_TOKEN.test(s)) return true;
  return s.length >= 32 && /[a-z]/.test(s) && /[A-Z]/.test(s) && /[0-9]/.test(s);
}

/**
 * Remember the credentials a URL carries (token path segments, secret query
 * values), so they are masked in any later text too: a service that echoes the
 * path in an error ("No operation answers GET /_storage/uploads/<token>").
 */
export function rememberUrlSecrets(url: string): void {
  const q = url.search(/[?#]/);
  const head = q === -1 ? url : url.slice(0, q);
  const path = head.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  const segments = path.split('/');
  segments.forEach((seg, i) => {
    if (i > 0 && looksLikeToken(seg, segments[i - 1])) rememberSecret(seg);
  });
  if (q === -1) return;
  for (const m of url.slice(q).matchAll(/[?&]([^=&#]+)=([^&#]*)/g)) {
    if (SECRET_QUERY_PARAMS.test(m[1]!) && m[2]!.length >= 8) rememberSecret(m[2]);
  }
}

/** The path with credential-looking segments replaced: '/_storage/uploads/REDACTED'. */
function redactPath(path: string): string {
  const segments = path.split('/');
  return segments.map((seg, i) => (i > 0 && looksLikeToken(seg, segments[i - 1]) ? REDACTED : seg)).join('/');
}

/** Credentials in the path and query replaced by "REDACTED"; the rest kept for debugging. */
export function redactUrl(url: string): string {
  const q = url.search(/[?#]/);
  const head = q === -1 ? url : url.slice(0, q);
  const tail = q === -1 ? '' : url.slice(q);
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(head)?.[0] ?? '';
  // user:password@ in an authority is a credential too.
  const shownOrigin = origin.replace(/\/\/[^@/]*@/, `//${REDACTED}@`);
  const path = redactPath(head.slice(origin.length));
  const query = tail.replace(/([?&])([^=&#]+)=([^&#]*)/g, (m, sep: string, name: string) => {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // keep as written
    }
    return SECRET_QUERY_PARAMS.test(decoded) ? `${sep}${name}=${REDACTED}` : m;
  });
  return redactText(shownOrigin + path + query);
}

export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    const lower = name.toLowerCase();
    out[name] =
      lower === 'authorization' || lower === 'proxy-authorization'
        ? text.replace(/^(\S+)(\s+[\s\S]*)?$/, (_m, scheme: string, rest?: string) => (rest ? `${scheme} ${REDACTED}` : REDACTED))
        : lower === 'cookie' || lower === 'set-cookie'
          ? REDACTED
          : lower === 'location' || lower === 'content-location'
            ? redactUrl(text)
            : redactText(text);
  }
  return out;
}

/**
 * Remembered secrets, any key-looking token and a URL's user:password@ in free text (an echoed error, a row
 * field, a proxy variable) are masked. `json`: the text is JSON, where a secret appears in its escaped form.
 */
export function redactText(text: string, opts?: { json?: boolean }): string {
  let out = text;
  for (const s of ordered) {
    if (out.includes(s.raw)) out = out.split(s.raw).join(s.shown);
    if (opts?.json && s.json !== s.raw && out.includes(s.json)) out = out.split(s.json).join(s.shown);
  }
  if (out.includes('@'))
    out = out
      .replace(URL_USERINFO, (_m, scheme: string, info: string) => scheme + maskUserInfo(info))
      .replace(BARE_USERINFO, (_m, before: string, info: string) => before + maskUserInfo(info));
  return out.replace(KEY_PATTERN, (k) => (k.startsWith('acr_…') || shownWhole.has(k) ? k : maskKey(k)));
}
