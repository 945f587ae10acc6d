// Issue 9: Ctrl-C was lost while the CLI waited for a full stdout pipe to
// drain. Every wait for 'drain' now ends when the command's signal aborts.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ListWriter, write, writeObject } from '../../../../src/cli/output/writers.js';
import { OUTPUT_FORMATS, streams } from '../../../../src/cli/output/writers/formats.js';

/** A pipe whose reader never reads: the first write fills it, 'drain' never comes. */
function stalledPipe() {
  return new Writable({ highWaterMark: 8, write: () => undefined });
}

const rows = [{ id: '1', name: 'a long enough name to fill the pipe' }];

describe('waiting for a full pipe', () => {
  it('write() ends with the abort reason as soon as the signal aborts', async () => {
    const out = stalledPipe();
    const ctl = new AbortController();
    const pending = write(out, 'x'.repeat(64), ctl.signal);
    const reason = Object.assign(new Error('interrupted'), { name: 'AbortError' });
    setTimeout(() => ctl.abort(reason), 10);
    await expect(pending).rejects.toBe(reason);
  });

  it('an already aborted signal does not wait at all', async () => {
    const ctl = new AbortController();
    ctl.abort();
    await expect(write(stalledPipe(), 'x'.repeat(64), ctl.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });

  // Every format that streams (markdown too): each writes while the list goes on, so each can stall on the pipe.
  const streaming = OUTPUT_FORMATS.filter(streams);
  it("the streaming formats are the registry's, markdown among them", () => {
    expect(streaming).toEqual(['json', 'ndjson', 'csv', 'markdown']);
  });
  for (const format of streaming) {
    it(`a ${format} list stops at once on abort instead of fetching on`, async () => {
      const ctl = new AbortController();
      const w = new ListWriter({ format, out: stalledPipe(), resource: 'generic', color: false, signal: ctl.signal });
      const pending = (async () => {
        await w.page(rows);
        await w.page(rows);
      })();
      setTimeout(() => ctl.abort(), 10);
      const started = Date.now();
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
      expect(Date.now() - started).toBeLessThan(1000);
    });
  }

  it('a single object and a table are abortable too', async () => {
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 10);
    await expect(
      writeObject({ id: '1', body: 'x'.repeat(64) }, { format: 'json', out: stalledPipe(), resource: 'generic', color: false, signal: ctl.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    const ctl2 = new AbortController();
    const w = new ListWriter({ format: 'table', out: stalledPipe(), resource: 'generic', color: false, signal: ctl2.signal });
    await w.page(rows);
    setTimeout(() => ctl2.abort(), 10);
    await expect(w.end()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('without an abort the write resolves when the pipe drains', async () => {
    let release: (() => void) | undefined;
    const out = new Writable({ highWaterMark: 8, write: (_c, _e, cb) => (release = cb) });
    const pending = write(out, 'x'.repeat(64), new AbortController().signal);
    let done = false;
    void pending.then(() => (done = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(done).toBe(false);
    release!();
    await pending;
    expect(done).toBe(true);
  });
});
