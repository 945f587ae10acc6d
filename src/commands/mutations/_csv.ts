// The CSV records of `mutations apply FILE`, a slice of bytes at a time, each with the line it starts on
// (#37 session 13; docs/decisions.md "How `mutations apply` reads its file"). It reads what csv-parse read with
// the options it had here (RFC 4180 quotes, strict; CRLF, LF or CR record ends, mixed too; a UTF-8 BOM dropped;
// empty lines skipped; a line starting with # a comment (an undo file's first line names the service it was made
// for: _undo.ts), a # inside a cell text (a name such as "Sale #2"); any number of cells a record),
// and test/unit/flows/csv-records.test.ts holds it to csv-parse's records and refusals on generated text, fed in
// slices of every size. Why not csv-parse itself: its parser is one large state machine that calls a helper per
// character, with its helpers made as closures per parser, so V8's optimizing compiler compiled its `parse` 3
// times in a 2,000-row apply (116 ms) and 8 times in a 20,000-row one (198 ms, each new parser's closures a
// "wrong call target"); this scans with indexOf and charCodeAt in a few small functions made once.
import { StringDecoder } from 'node:string_decoder';

export type CsvRecord = { line: number; cells: string[] };

/** What is wrong with a file's structure, and the line it is on (a record's first line for an unclosed quote or a long record). */
export type CsvProblem = 'quote-not-closed' | 'invalid-closing-quote' | 'invalid-opening-quote' | 'record-too-long';

export class CsvStructureError extends Error {
  constructor(
    readonly problem: CsvProblem,
    readonly line: number,
  ) {
    super(`${problem} at line ${line}`);
  }
}

const QUOTE = 34; // "
const COMMA = 44; // ,
const CR = 13;
const LF = 10;
const HASH = 35; // #
/** Not known yet: the text ends before the record (or the line ending) does. */
const MORE = -1;

/** The character code at `i`, or -1 past the end (charCodeAt's NaN there would make V8 drop code it compiled for whole numbers). */
const codeAt = (s: string, i: number): number => (i < s.length ? s.charCodeAt(i) : -1);

/** Line breaks in `text` (CRLF, LF or CR, each one break). */
function breaksIn(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || (c === CR && codeAt(text, i + 1) !== LF)) n++;
  }
  return n;
}

/** Where the line holding `from` ends (its CR or LF), or -1. */
function lineEnd(s: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === LF || c === CR) return i;
  }
  return -1;
}

/** Past the line ending at `at` (a CR or an LF): MORE when a CR ends the text and an LF may follow. */
function pastLineEnd(s: string, at: number, final: boolean): number {
  if (s.charCodeAt(at) !== CR) return at + 1;
  if (at + 1 === s.length) return final ? at + 1 : MORE;
  return s.charCodeAt(at + 1) === LF ? at + 2 : at + 1;
}

/** Past the empty or comment line at `p`: MORE when the text ends before the line does. */
function skipLine(s: string, p: number, final: boolean): number {
  if (s.charCodeAt(p) !== HASH) return pastLineEnd(s, p, final);
  const end = lineEnd(s, p);
  if (end === -1) return final ? s.length : MORE;
  return pastLineEnd(s, end, final);
}

export class CsvRecords {
  private readonly decoder = new StringDecoder('utf8');
  /** Text after the last whole record (or skipped line), and the line it starts on. */
  private pending = '';
  private line = 1;
  private atStart = true;
  private records: CsvRecord[] = [];

  constructor(private readonly maxRecordChars: number) {}

  /** The records `bytes` completes; undefined is the end of the file (the last record may lack its line ending). */
  feed(bytes: Buffer | undefined): CsvRecord[] {
    const final = bytes === undefined;
    let text = final ? this.decoder.end() : this.decoder.write(bytes);
    if (this.atStart && text !== '') {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      this.atStart = false;
    }
    const s = this.pending === '' ? text : this.pending + text;
    const at = this.scan(s, final);
    this.pending = at === s.length ? '' : s.slice(at);
    if (this.pending.length > this.maxRecordChars) throw new CsvStructureError('record-too-long', this.line);
    const records = this.records;
    this.records = [];
    return records;
  }

  /** Takes every whole record of `s` (and the empty and comment lines between them); where the rest starts. */
  private scan(s: string, final: boolean): number {
    let p = 0;
    while (p < s.length) {
      const c = s.charCodeAt(p);
      // An empty line or a comment is skipped, and counted; anything else starts a record (which counts its own).
      const skipped = c === LF || c === CR || c === HASH;
      const next = skipped ? skipLine(s, p, final) : this.record(s, p, final);
      if (next === MORE) break;
      if (skipped) this.line++;
      p = next;
    }
    return p;
  }

  /** One record from `p`: where the next starts, or MORE. */
  private record(s: string, p: number, final: boolean): number {
    const start = this.line;
    const cells: string[] = [];
    let breaks = 0;
    let q = p;
    for (;;) {
      if (q < s.length && s.charCodeAt(q) === QUOTE) {
        let value = '';
        let from = q + 1;
        for (;;) {
          const close = s.indexOf('"', from);
          if (close === -1 || (close + 1 === s.length && !final)) {
            if (final) throw new CsvStructureError('quote-not-closed', start);
            return MORE;
          }
          if (codeAt(s, close + 1) === QUOTE) {
            value += s.slice(from, close + 1);
            from = close + 2;
            continue;
          }
          value += s.slice(from, close);
          q = close + 1;
          break;
        }
        if (value.includes('\n') || value.includes('\r')) breaks += breaksIn(value);
        cells.push(value);
        const after = codeAt(s, q);
        if (after === COMMA) {
          q++;
          continue;
        }
        if (after !== -1 && after !== CR && after !== LF) throw new CsvStructureError('invalid-closing-quote', start + breaks);
      } else {
        let i = q;
        for (; i < s.length; i++) {
          const c = s.charCodeAt(i);
          if (c === COMMA || c === CR || c === LF) break;
          if (c === QUOTE) throw new CsvStructureError('invalid-opening-quote', start + breaks);
        }
        if (i === s.length && !final) return MORE;
        cells.push(s.slice(q, i));
        q = i;
        if (codeAt(s, q) === COMMA) {
          q++;
          continue;
        }
      }
      break;
    }
    const next = q < s.length ? pastLineEnd(s, q, final) : q;
    if (next === MORE) return MORE;
    if (q - p > this.maxRecordChars) throw new CsvStructureError('record-too-long', start);
    this.records.push({ line: start, cells });
    this.line = start + breaks + 1;
    return next;
  }
}
