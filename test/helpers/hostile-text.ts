// Text for fuzzers: any Unicode scalar value (every code point but the surrogates, as fast-check's
// `unit: 'binary'` gives), with the characters that break text handling mixed in often. `unit: 'binary'` builds a
// reverse table of its 1,112,064 code points the first time a process asks for it (~2.1-2.4 s of CPU: fast-check's
// mapToConstant, for shrinking without context), paid in each worker by each fuzzer that used it (#37 session 5);
// this unit is a plain integer mapped to its code point, and hits the hostile ones far more often than 1 in 1.1M.
import fc from 'fast-check';

/**
 * Code points that break text handling: controls, line breaks, bidi, zero-width, combining marks. No lone surrogate:
 * 'binary' never gave one, and the fuzzers' own request building (fillPath's encodeURIComponent) throws on one.
 */
export const HOSTILE_CODE_POINTS: readonly number[] = [
  // C0 controls (ESC starts terminal sequences) and DEL; NEL, CSI, no-break space, soft hyphen
  ...[0x00, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b, 0x7f, 0x85, 0x9b, 0xa0, 0xad],
  // " % & / : = ? # \ , — what paths, queries and `::` workflow commands are made of
  ...[0x22, 0x25, 0x26, 0x2f, 0x3a, 0x3d, 0x3f, 0x23, 0x5c, 0x2c],
  // combining marks; zero-width ones and the byte order mark; line and paragraph separators
  ...[0x0300, 0x0301, 0x034f, 0x20dd, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x2028, 0x2029],
  // bidi marks, embeddings, overrides and isolates
  ...[0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069],
  // the code points either side of the surrogates; private use, replacement, non-characters, astral
  ...[0xd7ff, 0xe000, 0xfffd, 0xfffe, 0xffff, 0x1f600, 0x10ffff],
];

const SURROGATES = 0x800; // U+D800 to U+DFFF

/** One unit of hostile text: a hostile code point half the time, else any scalar value (0 to 0x10FFFF, no surrogate). */
export const hostileUnit: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_CODE_POINTS).map((cp) => String.fromCodePoint(cp)),
  fc.integer({ min: 0, max: 0x10ffff - SURROGATES }).map((n) => String.fromCodePoint(n < 0xd800 ? n : n + SURROGATES)),
);

/** Strings of hostileUnit (each unit is one code point, so `maxLength` counts code points as `unit: 'binary'` did). */
export const hostileString = (constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> =>
  fc.string({ ...constraints, unit: hostileUnit });
