// Secrets must never reach a terminal or a log: the API key (Authorization
// header, or anywhere it might be echoed) and upload-URL credentials.

const SECRET_QUERY_PARAMS = ['token', 'signature', 'sig', 'x-amz-signature', 'x-goog-signature', 'key', 'api_key'];
const KEY_PATTERN = /acr_[A-Za-z0-9_-]+/g;

/** `acr_…wxyz`: enough to tell keys apart, never enough to use one. */
export function maskKey(key: string | undefined): string {
  if (!key) return '(none)';
  return `acr_…${key.slice(-4)}`;
}

/** Query credentials replaced by "REDACTED"; the rest of the URL kept for debugging. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://relative.invalid');
  } catch {
    return redactText(url);
  }
  let changed = false;
  for (const name of [...parsed.searchParams.keys()]) {
    if (SECRET_QUERY_PARAMS.includes(name.toLowerCase())) {
      parsed.searchParams.set(name, 'REDACTED');
      changed = true;
    }
  }
  if (parsed.password) {
    parsed.password = 'REDACTED';
    changed = true;
  }
  const out = changed ? (url.startsWith('/') ? parsed.pathname + parsed.search + parsed.hash : parsed.toString()) : url;
  return redactText(out);
}

export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    const lower = name.toLowerCase();
    out[name] =
      lower === 'authorization' ? text.replace(/^(\w+)\s+.*$/, '$1 REDACTED') : lower === 'cookie' || lower === 'set-cookie' ? 'REDACTED' : redactText(text);
  }
  return out;
}

/** Any key-looking token in free text (e.g. an echoed error) is masked. */
export function redactText(text: string): string {
  return text.replace(KEY_PATTERN, (k) => maskKey(k));
}
