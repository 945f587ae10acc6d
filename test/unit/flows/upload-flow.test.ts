// The upload flow against a fake target and a loopback storage: a finalize
// that answers a non-final state is polled until ready, bounded by the wait.
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf } from '../../../src/commands/assets/upload.js';
import { ApiClient } from '../../../src/client/http.js';
import { uploadFile, UploadError, type LocalFile, type UploadEvent } from '../../../src/flows/upload.js';
import { hashFile } from '../../../src/flows/upload-body.js';
import { hashAhead } from '../../../src/flows/sync.js';
import { UploadJournal } from '../../../src/state/upload-journal.js';
import type { Row, UploadTarget } from '../../../src/flows/upload-targets.js';
import { judgeAsset } from '../../../src/contract/media.js';
import { png } from '../uploads/media-samples.js';
import { tempDir } from '../../helpers/temp.js';

let server: Server;
let url = '';
const received: Array<{ headers: Record<string, unknown>; bytes: number }> = [];
/** Called when a PUT's headers arrive, before its body (the client waits for 100 Continue). */
let onPut: (() => void) | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    onPut?.();
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      received.push({ headers: req.headers, bytes });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received: true, sizeBytes: bytes }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/u/token`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** The PUT goes through a real client (its transport and retry policy); the API itself is the fake target. */
const putter = new ApiClient({ baseUrl: 'https://api.adops.test', apiKey: 'acr_k_1234', userAgent: 't', env: {} });

function fakeTarget(states: string[]): UploadTarget {
  let polls = 0;
  const row = (state: string): Row => ({ id: 'ast_1', state, sizeBytes: 65 });
  return {
    key: 'asset',
    noun: 'Asset',
    accepted: 'images',
    listReservedCommand: 'list',
    judge: (head, size) => judgeAsset(head, size),
    reserve: async () => ({ id: 'ast_1', uploadUrl: url, uploadExpiresAt: Date.now() + 900_000 }),
    finalize: async () => row('uploaded'),
    get: async () => row(states[Math.min(polls++, states.length - 1)]!),
    remove: async () => {},
    isReady: (r) => r.state === 'ready',
    deleteCommand: (id) => `delete ${id}`,
  };
}

function setup() {
  const dir = tempDir('adops-flow-');
  const path = join(dir, 'a.png');
  writeFileSync(path, png());
  const st = statSync(path);
  const file: LocalFile = { path, shown: 'a.png', filename: 'a.png', size: st.size, mtimeMs: st.mtimeMs };
  return { file, journal: new UploadJournal(dir, { baseUrl: 'test', keyFp: 'k1' }) };
}

describe('uploadFile and a finalize that is not final yet', () => {
  it('polls until ready, then records ready', async () => {
    const { file, journal } = setup();
    const events: UploadEvent[] = [];
    const out = await uploadFile(file, {
      target: fakeTarget(['uploaded', 'uploaded', 'ready']),
      journal,
      now: Date.now,
      sleep: async () => {},
      waitTimeoutMs: 60_000,
      putter,
      onEvent: (e) => events.push(e),
    });
    expect(out.status, String(out.error)).toBe('uploaded');
    expect(out.row).toMatchObject({ state: 'ready' });
    expect(events.some((e) => e.type === 'note' && /waiting until ready/.test(e.message))).toBe(true);
    expect(journal.peek('asset', file.size, await hashFile(file.path))).toEqual([expect.objectContaining({ state: 'ready', id: 'ast_1', keyFp: 'k1' })]);
    const put = received.at(-1)!;
    expect(put.bytes).toBe(file.size);
    expect(put.headers['content-type']).toBe('image/png');
    expect(put.headers.authorization).toBeUndefined();
  });

  it("polls at `--wait`'s pace (client/poll-pace.ts): 0.25 s after finalize, the gaps doubling to 2 s", async () => {
    const { file, journal } = setup();
    let t = 0;
    const gaps: number[] = [];
    const out = await uploadFile(file, {
      target: fakeTarget(['uploaded', 'uploaded', 'uploaded', 'uploaded', 'uploaded', 'uploaded', 'ready']),
      journal,
      now: () => t,
      sleep: async (ms) => {
        gaps.push(ms);
        t += ms;
      },
      waitTimeoutMs: 60_000,
      putter,
    });
    expect(out.status, String(out.error)).toBe('uploaded');
    // Before: every gap 1 s (its own figure, where `--wait` had moved to this pace).
    expect(gaps).toEqual([250, 500, 1000, 2000, 2000, 2000]);
  });

  it('gives up at the wait bound: exit 8, the journal keeps what was sent', async () => {
    const { file, journal } = setup();
    let t = 0;
    const out = await uploadFile(file, {
      target: fakeTarget(['uploaded']),
      journal,
      now: () => (t += 1000),
      sleep: async () => {},
      waitTimeoutMs: 3000,
      putter,
    });
    expect(out.status).toBe('failed');
    expect(out.error).toBeInstanceOf(UploadError);
    expect((out.error as UploadError).code).toBe('wait_timeout');
    expect(exitOf(out)).toBe(8);
    expect(out.pending).toMatchObject({ id: 'ast_1', state: 'uploaded' });
  });
});

describe('uploadFile journals what a resume needs, no more (#27)', () => {
  it("finalizes with the entry still `sent` and its SHA-256 (no write for the storage's 200), then records ready", async () => {
    const { file, journal } = setup();
    const sha = await hashFile(file.path);
    const atFinalize: unknown[] = [];
    const target = fakeTarget(['ready']);
    const out = await uploadFile(file, {
      target: {
        ...target,
        finalize: async (id, signal) => {
          atFinalize.push(...journal.peek('asset', file.size, sha));
          return target.finalize(id, signal);
        },
      },
      journal,
      now: Date.now,
      sleep: async () => {},
      waitTimeoutMs: 60_000,
      putter,
    });
    expect(out.status, String(out.error)).toBe('uploaded');
    expect(atFinalize).toEqual([expect.objectContaining({ id: 'ast_1', state: 'sent', sentSha256: sha })]);
    expect(journal.peek('asset', file.size, sha)).toEqual([expect.objectContaining({ id: 'ast_1', state: 'ready', sentSha256: sha })]);
  });
});

describe('a small file is reserved and its bytes recorded in one write (#27)', () => {
  it("the journal reads 'sent' with the SHA-256 of the bytes when the PUT starts (written with the reservation)", async () => {
    const { file, journal } = setup();
    const sha = await hashFile(file.path);
    const atPut: unknown[] = [];
    onPut = () => atPut.push(...journal.peek('asset', file.size, sha));
    try {
      const out = await uploadFile(file, { target: fakeTarget(['ready']), journal, now: Date.now, sleep: async () => {}, waitTimeoutMs: 60_000, putter });
      expect(out.status, String(out.error)).toBe('uploaded');
    } finally {
      onPut = undefined;
    }
    expect(atPut).toEqual([expect.objectContaining({ id: 'ast_1', state: 'sent', sentSha256: sha, uploadUrl: url })]);
  });
});

describe('a small file is read once, and hashed once (#37)', () => {
  const options = (journal: UploadJournal) => ({ target: fakeTarget(['ready']), journal, now: Date.now, sleep: async () => {}, waitTimeoutMs: 60_000, putter });

  it("sync's hashing holds the bytes it hashed; the upload judges, keys and sends them without opening the file again", async () => {
    const { file, journal } = setup();
    const bytes = readFileSync(file.path);
    const sha = createHash('sha256').update(bytes).digest('hex');
    await hashAhead([file]).done;
    expect(file.sha256).toBe(sha);
    expect(file.held?.bytes.equals(bytes)).toBe(true);
    // Gone from disk: any second read (the type's sniff, the journal key, the PUT's body) would fail the upload.
    rmSync(file.path);
    const out = await uploadFile(file, options(journal));
    expect(out.status, String(out.error)).toBe('uploaded');
    expect(received.at(-1)!.bytes).toBe(bytes.length);
    expect(received.at(-1)!.headers['content-type']).toBe('image/png');
    expect(journal.peek('asset', file.size, sha)).toEqual([expect.objectContaining({ state: 'ready', sentSha256: sha })]);
    // Not held once its upload is over (a folder's bytes are not all kept to the end).
    expect(file.held).toBeUndefined();
  });

  it('a file changed after its listing is not held: the upload reads it again and refuses it, as before', async () => {
    const { file, journal } = setup();
    writeFileSync(file.path, Buffer.concat([png(), Buffer.alloc(7)])); // grew since it was listed
    await hashAhead([file]).done;
    expect(file.held).toBeUndefined();
    expect(file.sha256).toBeDefined(); // hashed as it is now, as before: findExisting compares that
    const out = await uploadFile(file, options(journal));
    expect(out.status).toBe('failed');
    expect(String(out.error)).toMatch(/grew|changed|size/);
  });
});
