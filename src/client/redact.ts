// Secrets must never reach a terminal or a log: the API key (Authorization
// header, or anywhere it might be echoed) and upload-URL credentials, which
// sit in query parameters or in the path itself (`/_storage/uploads/<token>`).
//
// Keys are masked by value, not by shape: every key the process uses is
// remembered (rememberSecret, called by the client) and replaced wherever it
// appears in any form a service could echo it in (secretForms), whatever
// characters it holds. The `acr_` pattern, in any case, is a second net for
// keys this process never held (one echoed by a server).

const SECRET_QUERY_PARAMS =
  /^(token|access_token|signature|sig|x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential|key|api_key|apikey|code|secret|password|auth)$/i;
// Any run after `acr_` (any case: a service may upper-case what it got) up to a delimiter: a key holding '.', '+' or
// '/' is masked whole.
const KEY_PATTERN = /acr_[^\s"'`<>()[\]{},;]+/gi;
// The same net where a match refuses an answer (holdsKey): a key there starts a token, so `acr_` inside a run of
// letters and digits does not count. An upload URL's random base64url token spells `acr_` in some case about once in
// 50,000 URLs (a 300-file sync refused ~1 % of the time, "uploadUrl: holds an API key"); after a letter, digit or
// `-` that is ~30x rarer still (`mut_acr_…`, `?t=ACR_…` and a key at the start are refused as before).
const KEY_TOKEN_PATTERN = /(?<![A-Za-z0-9-])acr_[^\s"'`<>()[\]{},;]+/gi;
const MASKED_KEY = /^acr_…/i;
/** Where KEY_TOKEN_PATTERN could match at all (not global: `test` keeps no state). */
const ANY_KEY_PREFIX = /acr_/i;
// Path segments that carry a credential: after an upload/storage word, a
// signed-token shape (a.b.c, as JWTs and our upload tokens), or a long mixed-case run.
const TOKEN_PARENT = /^(uploads?|storage|signed|tokens?|sig|presigned)$/i;
const DOTTED_TOKEN = /^[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}$/;
const REDACTED = 'REDACTED';

// The user info after a scheme runs to the LAST '@' a URL parser could take for its end (WHATWG URL and curl
// take the last '@' of the authority), never the first:
// - user:password runs to the last '@' before a blank or a quote, so a password holding '/', '?', '#' or '@'
//   (common in base64) is masked whole even where the URL does not parse: "http://ops:pa/ss@WORD5/x@host:port"
//   shows "http://ops:***@host:port", never "WORD5/x". Text after it that held an '@' is masked too: more
//   masked than needed, never less;
// - a lone user (often a token) runs to the last '@' before the path, so a path holding '@'
//   (https://example.com/@name) is left alone.
const USER_INFO = '([^\\s@/:"\'`<>]*:[^\\s"\'`<>]*|[^\\s/"\'`<>]*)@';
const URL_USERINFO = new RegExp(`\\b([a-z][a-z0-9+.-]*:\\/\\/)${USER_INFO}`, 'gi');
const LEADING_USERINFO = new RegExp(`^([a-z][a-z0-9+.-]*:\\/\\/)${USER_INFO}`, 'i');
// The same without a scheme (a proxy variable written as "user:password@host:port"), to the last '@' that a host follows.
const BARE_USERINFO = /(^|[\s"'`(<=])([^\s@:/"'`<>]+:(?!\/\/)[^\s"'`<>]+)@(?=[^\s@"'`<>])/g;

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

/** Every form of every secret (secretForms), keyed lower-cased: the text as written, how it is shown, whether it is a key's. */
const forms = new Map<string, { text: string; shown: string; key: boolean }>();
/**
 * All of them in one case-insensitive pattern, longest first (a secret containing another is masked whole),
 * built on first use after a secret is added: one pass over a page, whatever the number of forms. The keys'
 * forms alone in another (holdsKey).
 */
let formPattern: RegExp | undefined;
let keyPattern: RegExp | undefined;

/** A base64 run shorter than this is not masked: it could be found in text that has nothing to do with the secret. */
const MIN_BASE64_FORM = 8;

/**
 * The part of a base64 (and base64url) text that encodes this secret wherever it sits in the encoded bytes: for
 * each of the three byte alignments, the characters made of the secret's bits alone. So the key is found in
 * base64 of the key, of `Bearer <key>`, of `user:<key>` or of a JSON body holding it, padded or not.
 */
function base64Forms(raw: string): string[] {
  const bytes = Buffer.from(raw, 'utf8');
  const out: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    // Character i holds bits [6i, 6i + 6); the secret's bits are [8 * shift, 8 * (shift + length)).
    const core = encoded.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * (shift + bytes.length)) / 6));
    if (core.length >= MIN_BASE64_FORM) out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/** `f(raw)`, or nothing when it throws (encodeURIComponent on a lone surrogate). */
function tryForm(f: (raw: string) => string, raw: string): string[] {
  try {
    return [f(raw)];
  } catch {
    return [];
  }
}

/**
 * Every way a service could hand a secret back (issue #34): as is in any case (upper, lower, mixed: matched
 * case-insensitively), URL-encoded (encodeURI, encodeURIComponent, form encoding with `+` for a space),
 * JSON-escaped (with `\/` too, as some encoders write a slash), and base64 / base64url of each (base64Forms).
 */
export function secretForms(raw: string): string[] {
  const texts = new Set([
    raw,
    ...tryForm(encodeURI, raw),
    ...tryForm(encodeURIComponent, raw),
    ...tryForm((r) => new URLSearchParams([['', r]]).toString().slice(1), raw),
  ]);
  for (const t of [...texts]) {
    const json = JSON.stringify(t).slice(1, -1);
    texts.add(json).add(json.replace(/\//g, '\\/'));
  }
  // Base64 of each: a JSON body holding the key holds its escaped form.
  for (const t of [...texts]) for (const b of base64Forms(t)) texts.add(b);
  return [...texts];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const shownWhole = new Set<string>();

/**
 * A key-shaped value known to be public (the local sandbox's demo keys, which `adops sandbox keys` and
 * `sandbox serve` print on purpose): not masked by its shape. A remembered secret is masked all the same.
 */
export function showWhole(value: string): void {
  shownWhole.add(value);
}

/** Mask this value wherever it later appears in redacted text, in any form (keys, upload tokens, a proxy's password). */
export function rememberSecret(value: string | undefined): void {
  if (!value || value.length < 4 || secrets.has(value)) return;
  secrets.add(value);
  const key = /^acr_/i.test(value);
  const shown = key ? maskKey(value) : REDACTED;
  for (const text of secretForms(value)) if (!forms.has(text.toLowerCase())) forms.set(text.toLowerCase(), { text, shown, key });
  formPattern = keyPattern = undefined;
}

/** One case-insensitive pattern of these forms, longest first; undefined when there are none. */
function patternOf(texts: string[]): RegExp | undefined {
  return texts.length
    ? new RegExp(
        texts
          .sort((a, b) => b.length - a.length)
          .map(escapeRegExp)
          .join('|'),
        'gi',
      )
    : undefined;
}

function secretPattern(): RegExp | undefined {
  formPattern ??= patternOf([...forms.values()].map((f) => f.text));
  return formPattern;
}

/**
 * Whether the text holds a form of an API key this process uses, or an unmasked `acr_` token: an id or a URL that
 * does (a hostile service's) is nothing adops may act on, keep in a journal or show (client/answer-check.ts).
 */
export function holdsKey(text: string): boolean {
  keyPattern ??= patternOf([...forms.values()].filter((f) => f.key).map((f) => f.text));
  if (keyPattern && text.search(keyPattern) !== -1) return true;
  // Most strings hold no `acr_` at all (#37: every string of every answer comes here): no match list made for them.
  if (!ANY_KEY_PREFIX.test(text)) return false;
  for (const [k] of text.matchAll(KEY_TOKEN_PATTERN)) if (!MASKED_KEY.test(k) && !shownWhole.has(k)) return true;
  return false;
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

const lookedAt = new Set<string>();

/**
 * Remember the credentials a URL carries (token path segments, secret query
 * values), so they are masked in any later text too: a service that echoes the
 * path in an error ("No operation answers GET /_storage/uploads/<token>").
 */
export function rememberUrlSecrets(url: string): void {
  // Each URL looked at once (#37): a bulk run sends one path thousands of times, and a secret once remembered stays.
  if (lookedAt.has(url)) return;
  if (lookedAt.size >= 1024) lookedAt.clear();
  lookedAt.add(url);
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
  // user:password@ is a credential too, to its last '@' (USER_INFO): masked before the URL is cut into parts, as
  // a '/', '?' or '#' in a password would otherwise end the origin inside it.
  const bare = url.replace(LEADING_USERINFO, `$1${REDACTED}@`);
  const q = bare.search(/[?#]/);
  const head = q === -1 ? bare : bare.slice(0, q);
  const tail = q === -1 ? '' : bare.slice(q);
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(head)?.[0] ?? '';
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
  return redactText(origin + path + query);
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
 * Remembered secrets in any form (secretForms), any key-looking token and a URL's user:password@ in free text
 * (an echoed error, a row field, JSON, a proxy variable) are masked.
 */
export function redactText(text: string): string {
  const pattern = secretPattern();
  let out = pattern ? text.replace(pattern, (m) => forms.get(m.toLowerCase())?.shown ?? REDACTED) : text;
  if (out.includes('@'))
    out = out
      .replace(URL_USERINFO, (_m, scheme: string, info: string) => scheme + maskUserInfo(info))
      .replace(BARE_USERINFO, (_m, before: string, info: string) => before + maskUserInfo(info));
  return out.replace(KEY_PATTERN, (k) => (MASKED_KEY.test(k) || shownWhole.has(k) ? k : maskKey(k)));
}

/**
 * Forget every remembered secret and public value, as a new process starts: the tests that run the CLI in their
 * vitest worker share one module graph between files (vitest.config.ts), and each file starts as its own process would.
 */
export function forgetSecrets(): void {
  secrets.clear();
  forms.clear();
  shownWhole.clear();
  formPattern = keyPattern = undefined;
}
