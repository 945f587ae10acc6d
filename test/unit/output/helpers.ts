// Buffers for output tests: a sink standing in for stdout, and one run of a
// list through the format a person (TTY) or a script (pipe) gets.
import { PassThrough } from 'node:stream';
import { chooseFormat } from '../../../src/cli/output/format.js';
import { ListWriter, writeObject, type WriterOptions } from '../../../src/cli/output/writers.js';

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
  const w = new ListWriter({ resource: 'generic', color: false, timeZone: 'UTC', width: 120, ...rest, format: format ?? chooseFormat({ stdoutIsTTY: tty }), out: s.out });
  await w.begin();
  for (const p of pages) await w.page(p);
  await w.end();
  return s.text();
}

export async function object(value: unknown, extra: Extra): Promise<string> {
  const s = sink();
  const { tty, format, ...rest } = extra;
  await writeObject(value, { resource: 'generic', color: false, timeZone: 'UTC', width: 120, ...rest, format: format ?? chooseFormat({ stdoutIsTTY: tty }), out: s.out });
  return s.text();
}
