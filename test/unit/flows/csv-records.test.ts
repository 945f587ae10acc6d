// `mutations apply`'s CSV reader (src/commands/mutations/_csv.ts) against csv-parse, the library it replaced
// (#37 session 13), with the options apply gave it: on generated text from an alphabet of everything that means
// something to either (quotes, commas, each line ending, #, a BOM, multi-byte characters), fed in slices of every
// size, both must find the same records starting on the same lines, or refuse the same text for the same reason
// at the same line.
import { CsvError, parse, type Options } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvRecords, CsvStructureError, type CsvRecord } from '../../../src/commands/mutations/_csv.js';

const MAX = 256 * 1024;
const CSV_PARSE_OPTIONS: Options = {
  bom: true,
  skip_empty_lines: true,
  relax_column_count: true,
  max_record_size: MAX,
  record_delimiter: ['\r\n', '\n', '\r'],
  comment: '#',
  comment_no_infix: true,
  info: true,
};

/** csv-parse's codes for the refusals _csv.ts names. */
const CODES: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'quote-not-closed',
  CSV_INVALID_CLOSING_QUOTE: 'invalid-closing-quote',
  INVALID_OPENING_QUOTE: 'invalid-opening-quote',
};

type Outcome = { records: { cells: string[]; lastLine: number }[] } | { refused: string; line?: number };

/** A record as csv-parse gives it with `info` (its types do not follow the option). */
const isInfoRecord = (x: unknown): x is { record: string[]; info: { lines: number } } => typeof x === 'object' && x !== null && 'record' in x && 'info' in x;

/** csv-parse's reading: each record with the line it ends on (csv-parse counts lines to a record's end). */
function csvParse(text: string): Outcome {
  try {
    const out: unknown[] = parse(text, CSV_PARSE_OPTIONS);
    // A record of another shape would be dropped here and fail the comparison (fewer records), never pass it.
    return { records: out.filter(isInfoRecord).map((r) => ({ cells: r.record, lastLine: r.info.lines })) };
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const refused = CODES[err.code];
    if (!refused) throw err;
    // An unclosed quote: csv-parse names the line the file ends on; _csv.ts the record's first (apply names that one).
    const line = err.lines;
    return refused === 'quote-not-closed' || typeof line !== 'number' ? { refused } : { refused, line };
  }
}

/** _csv.ts's reading of the same bytes, fed `sizes` bytes at a time (cycled). */
function ours(bytes: Buffer, sizes: number[]): Outcome {
  const reader = new CsvRecords(MAX);
  const records: CsvRecord[] = [];
  try {
    for (let at = 0, k = 0; at < bytes.length; k++) {
      const n = sizes[k % sizes.length]!;
      records.push(...reader.feed(bytes.subarray(at, at + n)));
      at += n;
    }
    records.push(...reader.feed(undefined));
  } catch (err) {
    if (!(err instanceof CsvStructureError)) throw err;
    return err.problem === 'quote-not-closed' ? { refused: err.problem } : { refused: err.problem, line: err.line };
  }
  // The line each ends on, as csv-parse counts it: its first line, the line breaks inside its quoted cells, and one
  // more for each CRLF inside a quoted cell so far in the file (csv-parse counts its CR and its LF; _csv.ts counts a
  // line as an editor shows it, so a row after such a cell is named by the line it is on).
  const breaks = (cell: string) => cell.match(/\r\n|\r|\n/g)?.length ?? 0;
  const crlfs = (cell: string) => cell.match(/\r\n/g)?.length ?? 0;
  let ahead = 0;
  return {
    records: records.map((r) => {
      ahead += r.cells.reduce((n, c) => n + crlfs(c), 0);
      return { cells: r.cells, lastLine: r.line + r.cells.reduce((n, c) => n + breaks(c), 0) + ahead };
    }),
  };
}

/** A refusal's line is compared where no CRLF could sit in a quoted cell before it (csv-parse counts those twice). */
const comparable = (outcome: Outcome, text: string): Outcome => ('refused' in outcome && text.includes('\r\n') ? { refused: outcome.refused } : outcome);

const PIECES = ['a', 'b', ' ', ',', '"', '""', '\r', '\n', '\r\n', '#', 'é', '€', '😀', '\uFEFF', 'x,y', '"q"', '\t'];
const csvText = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((p) => p.join('')),
  // Rows that mostly read: cells quoted or not, any line ending, comment and empty lines between.
  fc
    .array(
      fc.oneof(
        fc
          .array(
            fc.oneof(
              fc.constantFrom('', 'a', 'Sale #2', ' x '),
              fc.string({ maxLength: 6 }).map((c) => `"${c.replace(/"/g, '""')}"`),
            ),
            {
              minLength: 1,
              maxLength: 5,
            },
          )
          .map((cells) => cells.join(',')),
        fc.constantFrom('', '# a note', '#'),
      ),
      { maxLength: 8 },
    )
    .chain((rows) => fc.constantFrom('\n', '\r\n', '\r').map((end) => rows.join(end))),
);
const bom = fc.boolean();
const sizes = fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 });

describe('the CSV records of mutations apply', () => {
  it('reads what csv-parse reads (records, their lines, and refusals), fed a few bytes at a time or whole', () => {
    fc.assert(
      fc.property(csvText, bom, sizes, (text, withBom, cut) => {
        // csv-parse takes a # right after a closing quote into the cell (`"Sale"#2` is `Sale#2`), and at times drops
        // what follows it (`""#a"q"` is the record [""]); _csv.ts refuses it as any other text after a closing quote.
        fc.pre(!text.includes('"#'));
        const bytes = Buffer.from((withBom ? '\uFEFF' : '') + text, 'utf8');
        const expected = comparable(csvParse((withBom ? '\uFEFF' : '') + text), text);
        expect(comparable(ours(bytes, cut), text)).toEqual(expected);
        expect(comparable(ours(bytes, [bytes.length || 1]), text)).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('the cases that matter to a sheet, by name', () => {
    const read = (text: string) => ours(Buffer.from(text), [3]);
    // A record across lines keeps its first line; empty and comment lines count; a # inside a cell is text.
    const starts = (text: string) => {
      const reader = new CsvRecords(MAX);
      return [...reader.feed(Buffer.from(text)), ...reader.feed(undefined)];
    };
    expect(starts('# note\r\na,"x\r\ny"\n\n#\nb,Sale #2')).toEqual([
      { line: 2, cells: ['a', 'x\r\ny'] },
      { line: 6, cells: ['b', 'Sale #2'] },
    ]);
    expect(read('a,"b\n')).toEqual({ refused: 'quote-not-closed' });
    expect(read('a\n"b"c\n')).toEqual({ refused: 'invalid-closing-quote', line: 2 });
    expect(read('a\nab"c\n')).toEqual({ refused: 'invalid-opening-quote', line: 2 });
    // Where csv-parse reads text after a closing quote when it is a #, or drops it, a refusal.
    expect(read('a\n"Sale"#2,b\n')).toEqual({ refused: 'invalid-closing-quote', line: 2 });
    expect(csvParse('""#a"q"')).toEqual({ records: [{ cells: [''], lastLine: 1 }] });
    // A CRLF inside a quoted cell is one line: the row after it is named by the line it is on.
    expect(starts('a,"x\r\ny"\r\nb\r\n').map((r) => r.line)).toEqual([1, 3]);
  });

  it('a record past the bound is refused at its first line before it is all read', () => {
    const reader = new CsvRecords(100);
    expect(reader.feed(Buffer.from('a,b\nc,"'))).toEqual([{ line: 1, cells: ['a', 'b'] }]);
    expect(() => {
      for (let i = 0; i < 10; i++) reader.feed(Buffer.from('x'.repeat(20)));
    }).toThrow(expect.objectContaining({ problem: 'record-too-long', line: 2 }));
    // A whole record past it, in one slice.
    expect(() => new CsvRecords(10).feed(Buffer.from('a\nbbbbbbbbbbbb\n'))).toThrow(expect.objectContaining({ problem: 'record-too-long', line: 2 }));
  });
});
