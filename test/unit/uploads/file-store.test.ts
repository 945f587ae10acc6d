import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readdir, readFile, rm, writeFile, mkdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { createFileStore } from '../../../src/sandbox/models/uploads/file-store.js';
import type { FileStore } from '../../../src/sandbox/models/uploads/file-store.js';
import { tempDir } from '../../helpers/temp.js';

let dir: string;
let store: FileStore;
beforeEach(async () => {
  dir = tempDir('adops-files-');
  store = createFileStore(dir);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function* chunks(n: number, size: number, failAfter?: number) {
  for (let i = 0; i < n; i++) {
    if (failAfter !== undefined && i === failAfter) throw new Error('connection reset');
    yield Buffer.alloc(size, i % 256);
  }
}
/** One chunk of text as the stream a store reads (ByteSource: a stream or an async iterable, not an array). */
async function* bytesOf(text: string) {
  yield Buffer.from(text);
}
const tempFiles = async () => (await readdir(join(dir, '.tmp')).catch(() => [] as string[])).filter((n) => n.endsWith('.part'));
const accept = () => true;

describe('file store', () => {
  it('busy() resolves once a write is in progress, idle() once none is left (events, not time)', async () => {
    await store.idle(); // nothing in progress: at once
    const order: string[] = [];
    const busy = store.busy().then(() => order.push('busy'));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    async function* slow() {
      yield Buffer.alloc(10);
      await held; // the write stays in progress until the test lets it end
      yield Buffer.alloc(10);
    }
    const writing = store.write('upl_busy', slow(), { maxBytes: 100, commit: accept });
    await busy;
    const idle = store.idle().then(() => order.push('idle'));
    await Promise.resolve();
    expect(order).toEqual(['busy']); // still writing
    release();
    expect(await writing).toEqual({ ok: true, sizeBytes: 20 });
    await idle;
    expect(order).toEqual(['busy', 'idle']);
  });

  it('streams chunks into a file that appears only when complete', async () => {
    let seenSize = -1;
    const result = await store.write('upl_a', chunks(10, 1000), {
      maxBytes: 10_000,
      commit: async (size) => {
        seenSize = size;
        expect(await store.size('upl_a')).toBeNull(); // not visible before commit
        return true;
      },
    });
    expect(result).toEqual({ ok: true, sizeBytes: 10_000 });
    expect(seenSize).toBe(10_000);
    expect(await store.size('upl_a')).toBe(10_000);
    expect((await store.readHead('upl_a', 3)).equals(Buffer.from([0, 0, 0]))).toBe(true);
    expect(await tempFiles()).toEqual([]);
  });

  it("knows a written file's SHA-256 from the write; reads the file for one it did not write, or one rewritten under it", async () => {
    const expected = createHash('sha256');
    for await (const c of chunks(10, 1000)) expected.update(c);
    const digest = expected.digest('hex');
    await store.write('upl_h', chunks(10, 1000), { maxBytes: 10_000, commit: accept });
    // A file that is not what was written shows whether the store read it or remembered the write.
    await writeFile(join(dir, 'upl_h'), 'other bytes');
    expect(await store.sha256('upl_h')).toBe(digest);
    // Another store object on the same directory (a restart) hashes what is on disk.
    const other = createFileStore(dir);
    expect(await other.sha256('upl_h')).toBe(createHash('sha256').update('other bytes').digest('hex'));
    // A removed file is forgotten: written again under the same key, it is hashed anew.
    await store.remove('upl_h');
    await store.write('upl_h', chunks(1, 10), { maxBytes: 10_000, commit: accept });
    expect(await store.sha256('upl_h')).toBe(createHash('sha256').update(Buffer.alloc(10, 0)).digest('hex'));
    // A refused commit leaves the earlier digest alone.
    await store.write('upl_h', chunks(2, 10), { maxBytes: 10_000, commit: () => false });
    expect(await store.sha256('upl_h')).toBe(createHash('sha256').update(Buffer.alloc(10, 0)).digest('hex'));
  });

  it('stops at one byte past the limit and keeps nothing', async () => {
    const result = await store.write('upl_b', chunks(10, 1000), { maxBytes: 9_999, commit: accept });
    expect(result).toEqual({ ok: false, reason: 'too_large', sizeBytes: 10_000 });
    expect(await store.size('upl_b')).toBeNull();
    expect(await tempFiles()).toEqual([]);
  });

  it('accepts exactly the limit', async () => {
    expect(await store.write('upl_c', chunks(10, 1000), { maxBytes: 10_000, commit: accept })).toMatchObject({ ok: true });
  });

  it('leaves no file when the source breaks midway', async () => {
    const result = await store.write('upl_d', chunks(10, 1000, 5), { maxBytes: 1e9, commit: accept });
    expect(result).toMatchObject({ ok: false, reason: 'aborted' });
    expect(await store.size('upl_d')).toBeNull();
    expect(await tempFiles()).toEqual([]);
  });

  it('discards the bytes when the commit is refused, keeping an earlier file intact', async () => {
    await store.write('upl_e', bytesOf('first'), { maxBytes: 100, commit: accept });
    const result = await store.write('upl_e', bytesOf('second'), { maxBytes: 100, commit: () => false });
    expect(result).toEqual({ ok: false, reason: 'refused', sizeBytes: 6 });
    expect(await readFile(join(dir, 'upl_e'), 'utf8')).toBe('first');
    expect(await tempFiles()).toEqual([]);
  });

  it('refuses keys that could escape the store', async () => {
    await expect(store.write('../x', bytesOf('x'), { maxBytes: 10, commit: accept })).rejects.toThrow(/invalid file key/);
    await expect(store.size('a/b')).rejects.toThrow(/invalid file key/);
  });

  it('removes files and sweeps temp files left by a crash', async () => {
    await store.write('upl_f', bytesOf('x'), { maxBytes: 10, commit: accept });
    await store.remove('upl_f');
    await store.remove('upl_f'); // idempotent
    expect(await store.size('upl_f')).toBeNull();
    await mkdir(join(dir, '.tmp'), { recursive: true });
    const old = join(dir, '.tmp', 'upl_g.abc.part');
    await writeFile(old, 'half');
    await utimes(old, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    // A temp file written after the store was made belongs to a live upload: kept.
    await writeFile(join(dir, '.tmp', 'upl_h.def.part'), 'in flight');
    await store.sweepTemp();
    expect(await tempFiles()).toEqual(['upl_h.def.part']);
  });
});
