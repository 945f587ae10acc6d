// Buffers for output tests: a sink standing in for stdout, and one run of a
// list through the format a person (TTY) or a script (pipe) gets.
import { PassThrough } from 'node:stream';
import { chooseFormat } from '../../../../src/cli/output/format.js';
import { ListWriter, writeObject, type WriterOptions } from '../../../../src/cli/output/writers.js';

export function sink() {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c) => (text += c));
  return { out, text: () => text };
}

type Row = Record<string, unknown>;
type Extra = Partial<Omit<WriterOptions, 'out' | 'format'>> & { tty: boolean; format?: WriterOptions['format'] };

/** Each page through a ListWriter, as on a terminal (tty: table) or a pipe (json). */
export async function list(pages: Row[][], extra: Extra): Promise<string> {
  const s = sink();
  const { tty, format, ...rest } = extra;
  const w = new ListWriter({
    resource: 'generic',
    color: false,
    timeZone: 'UTC',
    width: 120,
    ...rest,
    format: format ?? chooseFormat({ stdoutIsTTY: tty }),
    out: s.out,
  });
  await w.begin();
  for (const p of pages) await w.page(p);
  await w.end();
  return s.text();
}

export async function object(value: unknown, extra: Extra): Promise<string> {
  const s = sink();
  const { tty, format, ...rest } = extra;
  await writeObject(value, {
    resource: 'generic',
    color: false,
    timeZone: 'UTC',
    width: 120,
    ...rest,
    format: format ?? chooseFormat({ stdoutIsTTY: tty }),
    out: s.out,
  });
  return s.text();
}

// OSC 0 (window title), OSC 52 (clipboard write), CSI clear screen, 8-bit CSI and NEL, RLO and an isolate.
export const EVIL = 'a\u001b]0;owned\u0007b\u001b]52;c;ZXZpbA==\u0007c\u001b[2Jd\u009b31me\u0085f\u202eg\u2066h\u2069i\u202aj';
export const SAFE = 'abcdefghij';
// Anything that can start a sequence or reorder text.
export const DANGER = /[\u001b\u0007\u0080-\u009f\u202a-\u202e\u2066-\u2069]/;
