// Lines for a person on a terminal of known width, wrapped at words (as gh and
// aws wrap their hints): a hint of 140 characters on an 80-column terminal
// otherwise breaks wherever the terminal cuts it, mid-word. A word longer than
// the width (a cursor, a URL, a path) keeps its own line whole: cut, it could
// not be copied. Continuation lines are indented (as blockText indents the
// lines of a message), so they read as part of the line above. Text only: it is
// applied after the boundary (sanitize.ts) and adds nothing but line breaks and spaces.

const INDENT = '  ';

/** `text` with every line longer than `width` broken at spaces; undefined or 0 width (a pipe, a 0-column pty): unchanged. */
export function wrapWords(text: string, width: number | undefined): string {
  if (width === undefined || width <= INDENT.length + 10) return text;
  return text
    .split('\n')
    .map((line) => wrapLine(line, width))
    .join('\n');
}

const length = (s: string) => [...s].length;

function wrapLine(line: string, width: number): string {
  if (length(line) <= width) return line;
  // A line that is itself a continuation keeps its indent, and its own continuations take one more.
  const lead = /^[ \t]*/.exec(line)![0];
  const words = line.slice(lead.length).split(/ +/);
  const out: string[] = [];
  let current = lead;
  for (const word of words) {
    if (current.trim() === '') current = lead + word;
    else if (length(current) + 1 + length(word) <= width) current += ' ' + word;
    else {
      out.push(current);
      current = lead + INDENT + word;
    }
  }
  out.push(current);
  return out.join('\n');
}
