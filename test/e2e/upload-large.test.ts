// Large files (SIZE_FIRST_BYTES and over) whose size the journal has never
// seen are reserved and sent before they are hashed: the PUT's own hash names
// the journal entry (#16). What must hold all the same, with the built binary
// against a sandbox behind the loopback upload proxy: the entry is on disk
// before the bytes, a cut run is resumed (same file) or its reservation
// deleted (another file of that size), and two runs on one config dir never
// double an upload, whether they send the same bytes or other bytes of the
// same size.
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, runAdops, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { minimalWorld, TEST_FULL_KEY, type TestSandbox } from '../helpers/sandbox.js';
import { mp4 } from '../unit/uploads/media-samples.js';
import { SIZE_FIRST_BYTES } from '../../src/state/upload-journal.js';
import { killMidPut, startProxiedSandbox, type UploadProxy } from './upload-proxy.js';
import { tempDir } from '../helpers/temp.js';
import { journalView } from '../helpers/upload-journal-view.js';

const SIZE = SIZE_FIRST_BYTES + 4096;
let sb: TestSandbox;
let proxy: UploadProxy;
let dir: string;
let cfg: string;
const env = () => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: TEST_FULL_KEY });
/** The built binary: the two runs at once are processes started together (and killMidPut kills one with SIGKILL). */
const adops = (args: string[]) => runAdops(args, { env: env(), timeoutMs: 60_000 });
/** A lone run, in this process (helpers/run-in-process.ts): judged on the journal on disk and the sandbox's Assets. */
const adopsHere = (args: string[]) => runAdopsInProcess(args, { env: env(), timeoutMs: 60_000 });
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A real MP4 header, then random bytes up to SIZE: other content every call. */
function video(name: string): string {
  const p = join(dir, name);
  const head = mp4();
  writeFileSync(p, Buffer.concat([head, randomBytes(SIZE - head.length)]));
  return p;
}

/** The journal's content files as a run reads them, store and logs (relative names under its one scope directory). */
const journal = (): string[] => [...journalView(join(cfg, 'uploads')).keys()];
const readJournal = (name: string) => journalView(join(cfg, 'uploads')).get(name);

async function named(filename: string): Promise<Array<Record<string, any>>> {
  const res = await sb.req('GET', '/assets', { key: TEST_FULL_KEY, query: { limit: 500 } });
  return res.body.data.filter((a: { filename: string }) => a.filename === filename);
}

let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ensureBuilt();
  ({ sb, proxy, close: stop } = await startProxiedSandbox({ world: minimalWorld() }));
}, 60_000);
afterAll(() => stop?.());

beforeEach(() => {
  dir = tempDir('adops-upload-large-');
  cfg = tempConfigDir();
  proxy.mode = 'pass';
});

describe(`a file of ${SIZE} bytes, a size the journal has not seen`, () => {
  it('is reserved before it is read whole: a pending entry while the bytes go, named by their hash before the last of them', async () => {
    const p = video('first.mp4');
    let during: string[] = [];
    let pending: any;
    proxy.mode = {
      holdAfter: 1024 * 1024,
      held: async () => {
        during = journal();
        pending = readJournal(during.find((f) => f.endsWith(`${SIZE}-pending.json`)) ?? during[0]!);
      },
    };
    const r = await adopsHere(['assets', 'upload', p, '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const row = JSON.parse(r.stdout)[0];
    // Mid-PUT: only the size's pending entry, the reservation in it, no hash yet.
    expect(during.map((f) => f.split('/').pop())).toEqual([`${SIZE}-pending.json`]);
    expect(pending).toMatchObject({ size: SIZE, sha256: '', entries: [{ id: row.id, state: 'reserved', filename: 'first.mp4', contentType: 'video/mp4' }] });
    // After: the content file under the bytes' hash, the pending one gone.
    const digest = sha(readFileSync(p));
    expect(journal().map((f) => f.split('/').pop())).toEqual([`${SIZE}-${digest}.json`]);
    expect(readJournal(journal()[0]!)).toMatchObject({ sha256: digest, entries: [{ id: row.id, state: 'ready', sentSha256: digest }] });
    expect(row).toMatchObject({ state: 'ready', sizeBytes: SIZE });

    // A copy elsewhere is found by content (hashed first now: its size is known), nothing sent.
    const copy = join(tempDir('adops-upload-large-copy-'), 'first.mp4');
    copyFileSync(p, copy);
    const puts = proxy.puts.length;
    const again = await adopsHere(['assets', 'upload', copy, '--output', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`already uploaded as ${row.id}`);
    expect(proxy.puts.length).toBe(puts);
  });

  it('killed mid-PUT, the same command again resumes the same reservation: one ready Asset, no pending entry left', async () => {
    const p = video('cut-large.mp4');
    expect(await killMidPut(proxy, p, env())).toBeGreaterThan(0);
    const reserved = await named('cut-large.mp4');
    expect(reserved.map((a) => a.state)).toEqual(['reserved']);
    expect(journal().map((f) => f.split('/').pop())).toEqual([`${SIZE}-pending.json`]);

    const r = await adopsHere(['assets', 'upload', p, '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`resuming ${reserved[0]!.id}`);
    const after = await named('cut-large.mp4');
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: reserved[0]!.id, state: 'ready', sizeBytes: SIZE });
    expect(journal().map((f) => f.split('/').pop())).toEqual([`${SIZE}-${sha(readFileSync(p))}.json`]);
  }, 60_000);

  it("killed mid-PUT, then another file of that size: the cut run's reservation is deleted, not filled with other bytes", async () => {
    const first = video('left.mp4');
    expect(await killMidPut(proxy, first, env())).toBeGreaterThan(0);
    const [stale] = await named('left.mp4');
    expect(stale).toMatchObject({ state: 'reserved' });

    const other = video('other.mp4');
    const r = await adopsHere(['assets', 'upload', other, '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`the reservation ${stale!.id} of an earlier run was made for left.mp4, its bytes never all sent; deleted it`);
    expect((await sb.req('GET', `/assets/${stale!.id}`, { key: TEST_FULL_KEY })).status).toBe(404);
    expect((await named('other.mp4')).map((a) => [a.state, a.sizeBytes])).toEqual([['ready', SIZE]]);

    // The first file's own re-run uploads it anew: one Asset of each name, nothing left reserved.
    const again = await adopsHere(['assets', 'upload', first, '--output', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect((await named('left.mp4')).map((a) => a.state)).toEqual(['ready']);
    expect(journal().filter((f) => f.endsWith('-pending.json'))).toEqual([]);
  }, 60_000);
});

describe('two runs at once on one config dir', () => {
  it('the same large file: one ready Asset, both print its id (3 rounds)', async () => {
    let waited = 0;
    for (let round = 0; round < 3; round++) {
      const p = video(`race-large-${round}.mp4`);
      const [a, b] = await Promise.all([adops(['assets', 'upload', p, '--output', 'json']), adops(['assets', 'upload', p, '--output', 'json'])]);
      expect(a.code, a.stderr).toBe(0);
      expect(b.code, b.stderr).toBe(0);
      const ids = [a, b].map((r) => JSON.parse(r.stdout)[0].id as string);
      expect(ids[0], `round ${round}`).toBe(ids[1]);
      expect((await named(`race-large-${round}.mp4`)).map((r) => [r.id, r.state])).toEqual([[ids[0], 'ready']]);
      if ([a, b].some((r) => /waiting: another run is uploading a file of the same size \(pid \d+/.test(r.stderr))) waited++;
    }
    expect(waited).toBeGreaterThan(0);
  }, 120_000);

  it('two large files of the same size: both uploaded, each Asset holding its own bytes', async () => {
    const [p, q] = [video('twin-a.mp4'), video('twin-b.mp4')];
    const [a, b] = await Promise.all([adops(['assets', 'upload', p, '--output', 'json']), adops(['assets', 'upload', q, '--output', 'json'])]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    for (const name of ['twin-a.mp4', 'twin-b.mp4']) expect((await named(name)).map((r) => [r.state, r.sizeBytes])).toEqual([['ready', SIZE]]);
    // The storage holds both files' bytes (each run sent its own, none the other's).
    const filesDir = sb.services.filesDir;
    const stored = readdirSync(filesDir)
      .filter((n) => !n.startsWith('.'))
      .map((n) => sha(readFileSync(join(filesDir, n))));
    expect(stored).toEqual(expect.arrayContaining([sha(readFileSync(p)), sha(readFileSync(q))]));
    expect(journal().filter((f) => f.endsWith('-pending.json'))).toEqual([]);
  }, 60_000);
});
