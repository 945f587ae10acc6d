// Every file handle an upload opens is closed, on every path: a whole body, a
// large one, a PUT stopped while the file was still opening or a read was out,
// a file that changed mid-read, an aborted hash. Counted in /proc/self/fd (the
// handles open on the file), and Node's DEP0137 warning ("Closing a FileHandle
// object on garbage collection") watched for after a forced collection.
import { readdirSync, readlinkSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileBody, FileChanged, hashFile } from '../../../src/flows/upload-body.js';
import { tempDir } from '../../helpers/temp.js';

const MiB = 1024 * 1024;
const dir = tempDir('adops-h25-faith-fd-');
let n = 0;

function fileOf(size: number) {
  const path = join(dir, `f${++n}.bin`);
  writeFileSync(path, Buffer.alloc(size, n));
  const st = statSync(path);
  return { path, size: st.size, mtimeMs: st.mtimeMs };
}

/** Descriptors of this process open on `path`. */
const fdsOn = (path: string) =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  }).length;

/** Waits (up to 2 s) for every descriptor on `path` to close; the count left. */
async function settled(path: string): Promise<number> {
  for (let i = 0; i < 200 && fdsOn(path) > 0; i++) await new Promise((r) => setTimeout(r, 10));
  return fdsOn(path);
}

const warnings: Array<{ name: string; code?: string; message: string }> = [];
const onWarning = (w: Error & { code?: string }) => warnings.push({ name: w.name, message: w.message, ...(w.code ? { code: w.code } : {}) });
beforeAll(() => void process.on('warning', onWarning));
afterAll(() => void process.off('warning', onWarning));

describe('FileBody closes its file on every path', () => {
  it.each([
    ['a small file', 70],
    ['a large file (≥ 16 MiB)', 17 * MiB + 3],
  ])('%s, read to the end', async (_what, size) => {
    const file = fileOf(size);
    const body = new FileBody(file, () => {});
    let total = 0;
    for (let c = await body.next(); c; c = await body.next()) {
      total += c.length;
      body.release(c);
    }
    body.close();
    expect(total).toBe(size);
    expect(await settled(file.path)).toBe(0);
  });

  it('closed while the file is still opening (an answer or an abort before the first read)', async () => {
    const file = fileOf(3 * MiB);
    const body = new FileBody(file, () => {});
    const first = body.next();
    body.close();
    await first;
    expect(await settled(file.path)).toBe(0);
  });

  it('closed while a read ahead is out: the next pull ends quietly and the file is closed', async () => {
    const file = fileOf(5 * MiB);
    const body = new FileBody(file, () => {});
    expect((await body.next())?.length).toBe(MiB);
    body.close();
    await expect(body.next()).resolves.toBeNull();
    expect(await settled(file.path)).toBe(0);
  });

  it('closed while a pull is waiting for its read', async () => {
    const file = fileOf(5 * MiB);
    const body = new FileBody(file, () => {});
    await body.next();
    const pending = body.next();
    body.close();
    await pending.catch(() => undefined);
    expect(await settled(file.path)).toBe(0);
  });

  it('the file shrank mid-read: FileChanged, then closed', async () => {
    const file = fileOf(4 * MiB);
    const body = new FileBody(file, () => {});
    await body.next();
    truncateSync(file.path, MiB);
    let err: unknown;
    try {
      for (let c = await body.next(); c; c = await body.next()) body.release(c);
    } catch (e) {
      err = e;
    }
    body.close();
    expect(err).toBeInstanceOf(FileChanged);
    expect(await settled(file.path)).toBe(0);
  });
});

describe('hashFile closes its file', () => {
  it('whole, aborted mid-way, and a file that is not there', async () => {
    const file = fileOf(20 * MiB);
    expect(await hashFile(file.path)).toMatch(/^[0-9a-f]{64}$/);
    const ac = new AbortController();
    const aborted = hashFile(file.path, ac.signal);
    setImmediate(() => ac.abort());
    await expect(aborted).rejects.toThrow();
    await expect(hashFile(join(dir, 'missing.bin'))).rejects.toThrow(/ENOENT/);
    expect(await settled(file.path)).toBe(0);
  });
});

describe('no DEP0137 after a forced garbage collection', () => {
  it('no FileHandle is left for the collector to close', async () => {
    // What the paths above left behind is garbage now; collect it and let the warnings out.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(warnings.filter((w) => w.code === 'DEP0137' || /on garbage collection/.test(w.message))).toEqual([]);
  });
});
