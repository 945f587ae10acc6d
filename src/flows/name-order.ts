// The order a walked directory's entries are taken in: `localeCompare`'s, the
// default locale's collation. Its first call builds ICU's collator, and before
// that V8's set of every available locale (~68 M instructions, ~20 ms: a sixth
// of an `assets sync` re-run of 300 files, #37 session 6). For names of
// printable ASCII under an English, C or POSIX locale that order is the root
// collation's, which the table below gives exactly, without ICU: each of those
// characters is one collation element, so names compare by the characters'
// ranks, a shorter name first when it is the other's start, and only then by
// case (lowercase first, at the first letter whose case differs).
// Anything else (another locale, a character outside the table, no ICU in this
// Node) keeps `localeCompare` itself.

/** Printable ASCII in the root collation's order (Intl.Collator('en-US'), pinned by test/unit/flows/name-order.test.ts). */
export const ROOT_ASCII_ORDER = ' _-,;:!?.\'"()[]{}@*/\\&#%`^+<=>|~$0123456789aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpPqQrRsStTuUvVwWxXyYzZ';

/** Each character's primary rank (a letter's two cases share one); -1 outside the table. */
const RANK = new Int16Array(128).fill(-1);
for (let i = 0, rank = 0; i < ROOT_ASCII_ORDER.length; i++) {
  const c = ROOT_ASCII_ORDER.charCodeAt(i);
  const upperOfPrevious = c >= 65 && c <= 90 && ROOT_ASCII_ORDER.charCodeAt(i - 1) === c + 32;
  RANK[c] = upperOfPrevious ? rank - 1 : rank++;
}

const inTable = (name: string): boolean => {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 128 || RANK[c]! < 0) return false;
  }
  return true;
};

/** The root collation of two names of table characters: the sign is localeCompare's under an English locale. */
export function rootAsciiCompare(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let byCase = 0;
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const d = RANK[x]! - RANK[y]!;
    if (d !== 0) return d;
    if (byCase === 0) byCase = x < y ? 1 : -1; // the same letter: its uppercase (the lower code) sorts after
  }
  return a.length - b.length || byCase;
}

// ICU takes the default locale from LC_ALL, LC_MESSAGES, then LANG (LC_COLLATE and LANGUAGE play no part); V8 reads
// its fallback (C, POSIX: en_US_POSIX) as en-US. English has no tailoring of its own. LC_COLLATE is checked too, to
// be safe on a Node whose ICU would read it. A modifier (`@…`) or any other language keeps localeCompare.
const ROOT_LOCALE = /^(?:C|POSIX|en(?:[_-][A-Za-z]{2,3})?)?(?:\.[A-Za-z0-9_-]+)?$/;

/** Whether this process's localeCompare orders table names as the root collation does. */
export function defaultLocaleIsRoot(env: NodeJS.ProcessEnv = process.env, platform: string = process.platform): boolean {
  if (platform === 'win32' || process.versions.icu === undefined) return false; // Windows: the user's locale, not the environment
  return ['LC_ALL', 'LC_MESSAGES', 'LANG', 'LC_COLLATE'].every((k) => ROOT_LOCALE.test(env[k] ?? ''));
}

/** Sort `items` in place by name as `localeCompare` would; without ICU when the names and the locale allow it. */
export function sortByName<T>(items: T[], name: (item: T) => string): T[] {
  if (defaultLocaleIsRoot() && items.every((item) => inTable(name(item)))) return items.sort((a, b) => rootAsciiCompare(name(a), name(b)));
  return items.sort((a, b) => name(a).localeCompare(name(b)));
}
