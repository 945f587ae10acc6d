// Reading back what adops writes as GitHub markdown (--output markdown, the
// step summary), as GitHub's parser (cmark-gfm) would: a table row split into
// cells on the pipes that are not escaped, `\|` unescaped in each cell, and
// the cell's inline text cut into code spans (CommonMark's rule: a run of n
// backticks opens and the next run of exactly n closes) and plain text.

/** The cells of a table line `| a | b |`, each unescaped (`\|` → `|`) and trimmed, as cmark-gfm splits them. */
export function tableCells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    // An escaped character (a backslash and the next one) never ends a cell.
    if (c === '\\' && i + 1 < inner.length) {
      cell += c + inner[++i];
      continue;
    }
    if (c === '|') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells.map((x) => x.replace(/\\\|/g, '|').trim());
}

export interface Span {
  code: boolean;
  /** A code span's content as shown; plain text as written. */
  text: string;
}

/** Inline text cut into code spans and the plain text between them. */
export function spans(text: string): Span[] {
  const out: Span[] = [];
  let plain = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '`') {
      plain += text[i++];
      continue;
    }
    const open = /^`+/.exec(text.slice(i))![0];
    // The closing run: exactly as long, not part of a longer run.
    const close = new RegExp(`(?<!\`)${open}(?!\`)`, 'g');
    close.lastIndex = i + open.length;
    const m = close.exec(text);
    if (!m) {
      plain += open;
      i += open.length;
      continue;
    }
    if (plain) out.push({ code: false, text: plain });
    plain = '';
    let content = text.slice(i + open.length, m.index).replace(/\n/g, ' ');
    if (/^ [\s\S]* $/.test(content) && content.trim() !== '') content = content.slice(1, -1);
    out.push({ code: true, text: content });
    i = m.index + open.length;
  }
  if (plain) out.push({ code: false, text: plain });
  return out;
}

/** The text a reader sees in a cell (code spans' content, `<br>` as a line break). */
export const shownText = (cell: string): string =>
  spans(cell)
    .map((s) => (s.code ? s.text : s.text.replace(/<br>/g, '\n')))
    .join('');

/** The rows of the first table in `md` (header and separator left out), each a list of the cells' shown text. */
export function tableRows(md: string): string[][] {
  return md
    .split('\n')
    .filter((l) => l.startsWith('| '))
    .slice(2)
    .map((l) => tableCells(l).map(shownText));
}

/** Plain text GitHub renders nothing in: words (letters and digits joined by `.` or `_`), not a SHA's shape nor www. */
const INERT_WORD = /^(?:[A-Za-z0-9]+(?:[._][A-Za-z0-9]+)*)?$/;

/** Whether every plain (not code) part of a cell or line is inert: words, `<br>`, a `|` between spans, a cut note. */
export const plainIsInert = (markdown: string): boolean =>
  spans(markdown).every(
    (s) =>
      s.code ||
      s.text
        .replace(/ \(cut: \d+ more characters\)$/, '')
        .split(/<br>|\|/)
        .every((w) => INERT_WORD.test(w) && !/^[0-9a-f]{7,40}$|www\./i.test(w)),
  );
