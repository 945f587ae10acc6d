// --output json: one document. A list is one array streamed page by page
// (`[`, each row, `]`: valid JSON, nothing accumulated, memory flat with --all);
// a single value pretty-printed. Every character kept, the dangerous ones as \u escapes (jsonText).
import { pick } from '../fields.js';
import { jsonText, jsonTexts } from '../sanitize.js';
import { write, type FormatWriter, type Row } from './writer.js';

export const writer: FormatWriter = {
  list(opts) {
    const { out, fields, signal } = opts;
    let written = 0;
    return {
      start: () => write(out, '[', signal),
      async page(rows: readonly Row[]) {
        const first = written === 0;
        written += rows.length;
        const shown = fields ? rows.map((r) => pick(r, fields)) : rows;
        await write(
          out,
          jsonTexts(shown, (i) => (i === 0 && first ? '\n' : ',\n')),
          signal,
        );
      },
      end: (rows) => write(out, rows === 0 ? ']\n' : '\n]\n', signal),
    };
  },
  object: (value, { out, signal }) => write(out, jsonText(value, 2) + '\n', signal),
  result: (value, { out, signal }) => write(out, jsonText(value ?? null, 2) + '\n', signal),
};
