// Text from the server is shown in a terminal: strip control characters so a
// name like "\x1b]0;pwned\x07" or "\x1b[2J" cannot drive the terminal.
// Tabs and newlines become spaces in single-line cells.

// C0 controls, DEL, and C1 controls (0x80-0x9f, which some terminals treat as ESC-sequences).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const ANSI_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;

export function stripControl(text: string): string {
  return text.replace(ANSI_SEQUENCE, '').replace(CONTROL, '');
}

/** For a single table cell or message line: controls stripped, line breaks flattened. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return stripControl(text.replace(/[\t\r\n]+/g, ' '));
}
