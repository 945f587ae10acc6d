// The key every fuzz run uses, and every form a hostile service could echo it
// back in: none may appear in any output, step summary, journal or cache.
// Its '.', '/', '+' and '=' make its URL-encoded and base64 forms differ from it.
export const FUZZ_KEY = 'acr_fz.S3cr3t/K3y+Q=9';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');

/** The key as is, in other cases, percent-encoded, JSON-escaped, in base64 and base64url (bare and with `Bearer `). */
export const KEY_FORMS: readonly string[] = [
  FUZZ_KEY,
  FUZZ_KEY.toUpperCase(),
  FUZZ_KEY.toLowerCase(),
  encodeURIComponent(FUZZ_KEY),
  encodeURIComponent(FUZZ_KEY).toLowerCase(),
  b64(FUZZ_KEY),
  b64(FUZZ_KEY).replace(/=+$/, ''),
  b64url(FUZZ_KEY),
  b64(`Bearer ${FUZZ_KEY}`),
];

/** The forms of the key in `text`, as found: the key in any case, and each encoded form as is. */
export function keyFormsIn(text: string): string[] {
  const lower = text.toLowerCase();
  const found: string[] = [];
  for (const f of KEY_FORMS) {
    const at = /^acr_/i.test(f) ? lower.indexOf(f.toLowerCase()) : text.indexOf(f);
    if (at !== -1 && !found.includes(text.slice(at, at + f.length))) found.push(text.slice(at, at + f.length));
  }
  return found;
}
