// --output ndjson: one JSON value per line; a list streams a line per row as the pages arrive.
import { pick } from '../fields.js';
import { jsonText, jsonTexts } from '../sanitize.js';
import { write, type FormatWriter, type Row } from './writer.js';

export const writer: FormatWriter = {
  list(opts) {
    const { out, fields, signal } = opts;
    return {
      start: () => Promise.resolve(),
      page: (rows: readonly Row[]) =>
        write(
          out,
          jsonTexts(fields ? rows.map((r) => pick(r, fields)) : rows, () => '', '\n'),
          signal,
        ),
      end: () => Promise.resolve(),
    };
  },
  object: (value, { out, signal }) => write(out, jsonText(value) + '\n', signal),
  // A list a query gave: a line per value, as a list's rows.
  result: (value, { out, signal }) => write(out, Array.isArray(value) ? value.map((v) => jsonText(v) + '\n').join('') : jsonText(value ?? null) + '\n', signal),
};
