// THE list of output formats: one entry per `--output` word, with the facts
// the rest of the CLI asks about a format, and the file that writes it,
// loaded only when something is written. From this list come the --output
// choices (and so its help, docs/cli.md and shell completion, src/cli/registry.ts),
// `adops config set output`'s check, the default on a terminal and in a pipe
// (format.ts), and docs/cli.md's table of formats (docs.ts). Nothing else
// names a format: a command asks a fact (writesJson, drawsForTerminal).
//
// Adding a format: write ./<name>.ts exporting `writer` (a FormatWriter,
// ./writer.ts), and add its entry here. This module imports nothing at run
// time (the help pages and `--version` load it; quick.cjs stubs the loaders).
import type { FormatWriter } from './writer.js';

interface FormatEntry {
  /** One line for docs/cli.md. */
  summary: string;
  /** Rows are written as each page arrives (memory flat with --all); false: held to the end. */
  streams: boolean;
  /** Chosen when no flag or setting asks: on a terminal's stdout, or anywhere else (a pipe, a file). */
  defaultOn?: 'terminal' | 'pipe';
  /**
   * Drawn for a person at a terminal (aligned columns, local dates, colour): a command with a
   * person's view of its own prints that instead, `--chart` draws under it, and the stored-read
   * bundle (commands/observe/fast-read.ts), which holds no drawing code, leaves it to the whole CLI.
   */
  terminal?: boolean;
  /** JSON a script parses: a failure is one JSON object on stderr too, and a JSON-only document keeps this layout. */
  json?: boolean;
  load(): Promise<{ writer: FormatWriter }>;
}

export const FORMATS = {
  table: {
    summary: 'aligned columns for a person: local times, grouped numbers, money with its currency; cut to fit a terminal',
    streams: false,
    defaultOn: 'terminal',
    terminal: true,
    load: () => import('./table.js'),
  },
  json: {
    summary: 'one JSON document: a list is one array, a single result pretty-printed',
    streams: true,
    defaultOn: 'pipe',
    json: true,
    load: () => import('./json.js'),
  },
  ndjson: { summary: 'one JSON object per line', streams: true, json: true, load: () => import('./ndjson.js') },
  csv: { summary: 'RFC 4180, a header row, raw values (nested ones as JSON), formula-safe', streams: true, load: () => import('./csv.js') },
  markdown: {
    summary: 'a GitHub-flavoured table (step summaries, pull requests), text in code spans; one object as a field/value table',
    streams: true,
    load: () => import('./markdown.js'),
  },
} as const satisfies Record<string, FormatEntry>;

export type OutputFormat = keyof typeof FORMATS;

const BY_NAME: Readonly<Record<string, FormatEntry>> = FORMATS;
const entry = (name: string): FormatEntry | undefined => (Object.hasOwn(BY_NAME, name) ? BY_NAME[name] : undefined);

export const isOutputFormat = (name: string): name is OutputFormat => entry(name) !== undefined;

/** Every --output word, in the order of the list. */
export const OUTPUT_FORMATS: readonly OutputFormat[] = Object.keys(FORMATS).filter(isOutputFormat);

/** The format chosen when nothing asks: on a terminal, or anywhere else. */
export function defaultFormat(on: 'terminal' | 'pipe'): OutputFormat {
  return OUTPUT_FORMATS.find((f) => entry(f)!.defaultOn === on)!;
}

/** Does this format (a word as typed: unknown words are not) write JSON a script parses? */
export const writesJson = (name: string): boolean => entry(name)?.json === true;

/** Is this format drawn for a person at a terminal (see FormatEntry.terminal)? */
export const drawsForTerminal = (name: string): boolean => entry(name)?.terminal === true;

/** This format when it writes JSON, else the first that does (json): for documents that are only JSON (a dry run's request). */
export const jsonLayout = (format: OutputFormat): OutputFormat => (writesJson(format) ? format : OUTPUT_FORMATS.find(writesJson)!);

export const streams = (format: OutputFormat): boolean => entry(format)!.streams;

export const summaryOf = (format: OutputFormat): string => entry(format)!.summary;

/** The writer of a format, its module loaded on first use. */
export async function writerOf(format: OutputFormat): Promise<FormatWriter> {
  return (await entry(format)!.load()).writer;
}
