// Reading JSON that arrives untyped (an answer's body, a file we wrote before):
// narrowed by checks, never asserted. Writing JSON that holds outside text
// (stdout, adops' own files) so that printing it drives no terminal.

/** A JSON object (not null, not an array), its fields still unknown. */
export const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

// Characters JSON.stringify leaves as they are that a terminal acts on or shows misleadingly: DEL and the C1
// controls (0x9b is CSI, 0x9d OSC), bidi marks, embeddings, overrides and isolates, the line and paragraph
// separators. They only occur inside strings, so writing them as \u escapes is exact: JSON.parse gives every
// character back, and `cat` of the text drives no terminal.
const JSON_UNSAFE = /[\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** Either of them, or `##[`: whether there is anything to escape (no `g`, so `test` keeps no position). */
const JSON_UNSAFE_OR_HASH = /[\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|##\[/;

/**
 * JSON text (JSON.stringify's) with those characters as \u escapes: the same value, safe to print. So is the `[`
 * of `##[`, which GitHub Actions' runner reads as a workflow command anywhere in a line of a step's log (`#` only
 * occurs inside strings).
 */
export function escapeJsonText(text: string): string {
  // One scan for the common case, a line with none of them (a journal line per row of a bulk run): no copies made.
  if (!JSON_UNSAFE_OR_HASH.test(text)) return text;
  return text.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).replace(/##\[/g, '##\\u005b');
}

/** A value as one line of JSON safe to print: what adops' own files hold (journals, the completion cache, plan markers). */
export const printableJson = (value: unknown): string => escapeJsonText(JSON.stringify(value));
