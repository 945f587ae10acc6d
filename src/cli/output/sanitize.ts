// THE boundary for text from outside (a server, a file, the environment, a
// proxy): it is cleaned here, once, where it enters output, by the entry for
// its sink. Every entry masks secrets (redact.ts: the key and every remembered
// credential, any `acr_…` token, user:password@ in a URL even one that does
// not parse) and then:
//   lineText / cellText  a terminal line or table cell: controls stripped, line breaks joined
//   blockText            a message adops composed (notes, warnings, its own errors): controls
//                        stripped, and every line break followed by an indent, so no outside
//                        text can start a line at column 0 and pass for one of adops' own lines
//   csvText              a CSV cell: controls stripped, line breaks kept (quoted, they are data)
//   jsonText/jsonTexts   JSON: every character kept, the dangerous ones as \u escapes
//   completionCandidate  a shell completion candidate: the id alphabet or nothing
// Stripping removes ESC sequences (so "\x1b]0;pwned\x07" or "\x1b[2J" cannot drive
// the terminal) and bidi overrides (so a name cannot reorder what is shown around
// it, "Trojan Source"); every entry also breaks GitHub Actions' workflow commands
// (`::error::…`, `##[add-mask]…`), which the runner reads from a step's log.
import { escapeJsonText } from '../../client/json.js';
import { redactText } from '../../client/redact.js';

// C0 controls, DEL, and C1 controls (0x80-0x9f: 0x9b is CSI, 0x9d is OSC on some terminals).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// CSI and OSC sequences in their 7-bit (ESC [, ESC ]) and 8-bit (0x9b, 0x9d) forms,
// whole, so no parameter text ("31m") is left behind; then any other ESC pair.
// eslint-disable-next-line no-control-regex
const ANSI_SEQUENCE = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)|\u001b[@-Z\\-_]/g;
/** Bidi embeddings/overrides (U+202A-U+202E) and isolates (U+2066-U+2069). */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

/** The line breaks a terminal or a reader honours: CR, LF, VT, FF, and the Unicode line and paragraph separators (NEL is stripped as a C1 control). */
// eslint-disable-next-line no-control-regex
const LINE_BREAKS = /\r\n?|[\n\u000b\u000c\u2028\u2029]/g;

// GitHub Actions' runner reads every line a step prints for workflow commands: `::name props::data` at the start
// of a line (after blanks) and `##[name]data` anywhere in it. Outside text could so add annotations, mask words,
// fold the log or stop command processing for the rest of the step. A word joiner (U+2060: invisible, and not a
// blank the runner trims) breaks each; JSON writes the `[` as \u005b instead (client/json.ts), which is exact.
const WORKFLOW_COMMAND_LINE = /^(\s*):(?=:[^\r\n\u2028\u2029]*::)/gm;
const WORKFLOW_COMMAND_V1 = /##\[/g;

/**
 * Outside text that cannot be read as a workflow command, whichever line of a CI log it starts or sits in. Also for
 * a line composed of parts cleaned one by one: `:` ending one part and `:` starting what follows make `::` only
 * once they are joined (an error's issue `in` of `::error` and its message `::x`), so the composed text is passed here whole.
 */
export function defuseWorkflowCommands(text: string): string {
  return text.replace(WORKFLOW_COMMAND_LINE, '$1:\u2060').replace(WORKFLOW_COMMAND_V1, '##\u2060[');
}

/** Text for a terminal, line breaks kept: secrets masked, controls, ESC sequences and bidi overrides removed, no workflow command. */
export function stripControl(text: string): string {
  // Stripped first: a key split by an escape sequence is whole again, and masked.
  return defuseWorkflowCommands(redactText(text.replace(ANSI_SEQUENCE, '').replace(CONTROL, '').replace(BIDI, '')));
}

/** One terminal line (a message line, a detail): masked, controls stripped, line breaks and tabs joined into one space. */
export function lineText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return stripControl(
    asText(value)
      .replace(LINE_BREAKS, '\n')
      .replace(/[\t\n]+/g, ' '),
  );
}

/** A single table cell: a terminal line. */
export const cellText: (value: unknown) => string = lineText;

/**
 * A message adops composed, which may hold outside text (a note, a warning, its own error): masked, controls
 * stripped; its own line breaks kept, each followed by an indent unless the next line is indented already,
 * so nothing that came from outside starts a line at column 0 (where `error:`, `hint:`, `warning:` start).
 */
export function blockText(text: string): string {
  return stripControl(text.replace(LINE_BREAKS, '\n')).replace(/\n(?![ \t])/g, '\n  ');
}

// A CSV cell keeps tabs and line breaks (quoted, they are data).
// eslint-disable-next-line no-control-regex
const CSV_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** For a CSV cell: like stripControl but line breaks stay (a quoted CSV cell may hold them). */
export function csvText(text: string): string {
  return defuseWorkflowCommands(redactText(text.replace(ANSI_SEQUENCE, '').replace(CSV_CONTROL, '').replace(BIDI, '')));
}

/** JSON.stringify, secrets masked, with C1, DEL and bidi characters written as \uXXXX escapes. */
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

// JSON.stringify escapes C0 only. C1 controls, DEL, bidi controls and the line/paragraph separators are
// escaped too (escapeJsonText), so `cat out.json` is as safe as the table.
function escapeUnsafe(text: string): string {
  return escapeJsonText(redactText(text));
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

/** A completion candidate a shell can take as it is: letters, digits and `_ . ~ -`, not starting with `-` or `~`. */
const ID_ALPHABET = /^[A-Za-z0-9_.][A-Za-z0-9_.~-]*$/;

/** An id from outside (the service, the config file's profile names) as a completion candidate, or undefined: never quoted, never rewritten. */
export function completionCandidate(value: string): string | undefined {
  return ID_ALPHABET.test(value) && redactText(value) === value ? value : undefined;
}

/** At most this many characters of a description beside a completion candidate (a menu line, not a page). */
const DESCRIPTION_MAX = 60;

/**
 * A description beside a completion candidate (a name, shown by zsh and fish): one terminal line (masked,
 * controls and ESC sequences stripped, line breaks and tabs joined), spaces collapsed, cut to 60 characters.
 * The scripts hand it to the shell as data (zsh's _describe, fish's tab-separated description), never as code.
 */
export function completionDescription(value: unknown): string {
  const line = lineText(value).replace(/\s+/g, ' ').trim();
  return line.length > DESCRIPTION_MAX ? `${line.slice(0, DESCRIPTION_MAX - 1)}…` : line;
}
