// FileBody and hashFile: the bytes a PUT sends and the hash the journal keys them by.
import { createHash } from 'node:crypto';
import { appendFileSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileBody, FileChanged, hashFile } from '../../../src/flows/upload-body.js';
import { tempDir } from '../../helpers/temp.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function fileOf(bytes: Buffer) {
  const path = join(tempDir('adops-body-'), 'f.bin');
  writeFileSync(path, bytes);
  const st = statSync(path);
  return { path, size: st.size, mtimeMs: st.mtimeMs };
}

/** 3 MiB and 5 bytes of varied content (made once, filled in place: a 3M-element array per call cost ~0.2 s); a copy each call. */
let made: Buffer | undefined;
const content = (): Buffer => {
  if (!made) {
    made = Buffer.allocUnsafe(3 * 1024 * 1024 + 5);
    for (let i = 0; i < made.length; i++) made[i] = (i * 7) % 251;
  }
  return Buffer.from(made);
};

/** Pull every chunk (copied, then released as the socket would), noting where the digest came. */
async function drain(body: FileBody, onChunk?: (n: number) => void) {
  const parts: Buffer[] = [];
  for (let chunk = await body.next(); chunk; chunk = await body.next()) {
    parts.push(Buffer.from(chunk));
    onChunk?.(parts.length);
    body.release(chunk);
  }
  body.close();
  return Buffer.concat(parts);
}

describe('FileBody', () => {
  it('gives exactly the file, and its hash before the last chunk is handed out', async () => {
    const bytes = content();
    const file = fileOf(bytes);
    let digest: string | undefined;
    let handedBeforeDigest = -1;
    let handed = 0;
    const body = new FileBody(file, (d) => {
      digest = d;
      handedBeforeDigest = handed;
    });
    const sent = await drain(body, (n) => (handed = n));
    expect(sent.equals(bytes)).toBe(true);
    expect(digest).toBe(sha(bytes));
    // Four chunks (3 MiB and 5 bytes, a MiB each); the digest came before the fourth left.
    expect(handed).toBe(4);
    expect(handedBeforeDigest).toBe(3);
  });

  it('reads the next bytes into memory handed back (no fresh buffer per MiB)', async () => {
    const body = new FileBody(fileOf(content()), () => {});
    const first = await body.next();
    body.release(first!);
    // The second MiB was read ahead before the first came back; the third goes into the first's memory.
    const second = await body.next();
    const third = await body.next();
    expect(third!.buffer).toBe(first!.buffer);
    // Not handed back: the fourth read gets other memory.
    const fourth = await body.next();
    expect(fourth!.buffer).not.toBe(second!.buffer);
    expect(fourth!.buffer).not.toBe(third!.buffer);
    body.close();
  });

  it('an empty file: no bytes, the digest of nothing', async () => {
    let digest = '';
    const body = new FileBody(fileOf(Buffer.alloc(0)), (d) => {
      digest = d;
    });
    expect(await body.next()).toBeNull();
    expect(digest).toBe(sha(Buffer.alloc(0)));
  });

  const changes: Array<[string, (path: string) => void, RegExp]> = [
    ['grew', (p) => appendFileSync(p, 'more'), /grew while it was read/],
    ['shrank', (p) => truncateSync(p, 1024 * 1024 + 10), /shrank while it was read/],
    ['was rewritten', (p) => utimesSync(p, new Date(), new Date(Date.now() + 5_000)), /rewritten while it was read/],
  ];
  for (const [what, change, message] of changes) {
    it(`a file that ${what} while read fails before its last chunk, with no digest`, async () => {
      const file = fileOf(content());
      let digest: string | undefined;
      const body = new FileBody(file, (d) => {
        digest = d;
      });
      await body.next();
      change(file.path);
      const err = await drain(body).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FileChanged);
      expect((err as Error).message).toMatch(message);
      expect(digest).toBeUndefined();
      body.close();
    });
  }
});

describe('hashFile', () => {
  it('gives the SHA-256 of the whole file', async () => {
    const bytes = Buffer.concat([content(), content(), content()]);
    expect(await hashFile(fileOf(bytes).path)).toBe(sha(bytes));
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(hashFile(fileOf(content()).path, controller.signal)).rejects.toThrow();
  });
});

describe('FileBody of a small file (#27: one synchronous read)', () => {
  it('gives the whole file as one chunk, its digest recorded before it is handed out', async () => {
    const bytes = Buffer.from('a small creative');
    const file = fileOf(bytes);
    const order: string[] = [];
    const body = new FileBody(file, async (d) => {
      await new Promise((r) => setTimeout(r, 5));
      order.push(`digest ${d === sha(bytes)}`);
    });
    const chunk = await body.next();
    order.push('chunk');
    expect(chunk!.equals(bytes)).toBe(true);
    expect(await body.next()).toBeNull();
    expect(order).toEqual(['digest true', 'chunk']);
    body.close();
  });

  const changes: Array<[string, (path: string) => void, RegExp]> = [
    ['grew', (p) => appendFileSync(p, 'more'), /grew while it was read/],
    ['shrank', (p) => truncateSync(p, 4), /shrank while it was read \(4 of 16 bytes were there\)/],
    ['was rewritten', (p) => utimesSync(p, new Date(), new Date(Date.now() + 5_000)), /rewritten while it was read/],
  ];
  for (const [what, change, message] of changes) {
    it(`one that ${what} since it was listed fails with no digest and no byte handed out`, async () => {
      const file = fileOf(Buffer.from('a small creative'));
      change(file.path);
      let digest: string | undefined;
      const body = new FileBody(file, (d) => {
        digest = d;
      });
      const err = await body.next().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FileChanged);
      expect(String(err)).toMatch(message);
      expect(digest).toBeUndefined();
      body.close();
    });
  }
});
