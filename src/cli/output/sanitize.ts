// Text from the server is shown in a terminal: strip control characters so a
// name like "\x1b]0;pwned\x07" or "\x1b[2J" cannot drive the terminal, and
// bidi overrides so a name cannot reorder what is shown around it
// ("Trojan Source"). Tabs and newlines become spaces in single-line cells.
// Machine formats keep every character but escape the dangerous ones (jsonText).

// C0 controls, DEL, and C1 controls (0x80-0x9f: 0x9b is CSI, 0x9d is OSC on some terminals).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// CSI and OSC sequences in their 7-bit (ESC [, ESC ]) and 8-bit (0x9b, 0x9d) forms,
// whole, so no parameter text ("31m") is left behind; then any other ESC pair.
// eslint-disable-next-line no-control-regex
const ANSI_SEQUENCE = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)|\u001b[@-Z\\-_]/g;
/** Bidi embeddings/overrides (U+202A-U+202E) and isolates (U+2066-U+2069). */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

export function stripControl(text: string): string {
  return text.replace(ANSI_SEQUENCE, '').replace(CONTROL, '').replace(BIDI, '');
}

/** For a single table cell or message line: controls stripped, line breaks flattened. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = asText(value);
  return stripControl(text.replace(/[\t\r\n]+/g, ' '));
}

// A CSV cell keeps tabs and line breaks (quoted, they are data).
// eslint-disable-next-line no-control-regex
const CSV_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** For a CSV cell: like stripControl but line breaks stay (a quoted CSV cell may hold them). */
export function csvText(text: string): string {
  return text.replace(ANSI_SEQUENCE, '').replace(CSV_CONTROL, '').replace(BIDI, '');
}

// JSON.stringify escapes C0 only. C1 controls, DEL, bidi controls and the
// line/paragraph separators are escaped too, so `cat out.json` is as safe as
// the table. They only occur inside strings, so escaping the text is exact.
const JSON_UNSAFE = /[\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON.stringify, with C1, DEL and bidi characters written as \uXXXX escapes. */
export function jsonText(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, null, indent);
  return text === undefined ? 'null' : escapeUnsafe(text);
}

/**
 * JSON texts joined (a page of NDJSON or of a JSON array), each value's JSON.stringify and `sep` before it
 * (`end` after each): what joining their jsonText gives, with one pass of the escaping over the page
 * instead of one a row (it is exact on the joined text too: the separators hold none of those characters).
 */
export function jsonTexts(values: readonly unknown[], sep: (i: number) => string, end = ''): string {
  let text = '';
  for (let i = 0; i < values.length; i++) text += sep(i) + (JSON.stringify(values[i]) ?? 'null') + end;
  return escapeUnsafe(text);
}

function escapeUnsafe(text: string): string {
  return text.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Any value as text: a string as is, an object or array as JSON, never "[object Object]". */
export function asText(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'undefined':
      return String(value);
    case 'symbol':
      return value.toString();
    case 'function':
      return '[function]';
    default:
      return value === null ? 'null' : JSON.stringify(value);
  }
}
