// Uploads from the CLI (issue 8): the built binary against an in-process
// sandbox whose upload URLs point at a loopback proxy (test/e2e/upload-proxy.ts)
// in front of its storage endpoint. Media are tiny real files
// (test/unit/uploads/media-samples.ts) or sparse files behind a real header.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, runAdopsTty, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { minimalWorld, TEST_FULL_KEY, withAdvertiser, type TestSandbox } from '../helpers/sandbox.js';
import { jpeg, mp4, png } from '../unit/uploads/media-samples.js';
import { keyFingerprint, UploadJournal } from '../../src/state/upload-journal.js';
import { serviceScope } from '../../src/state/fingerprint.js';
import type { ContentFile } from '../../src/state/upload-entry.js';
import { contentsOf, storeText } from '../../src/state/upload-store.js';
import { killMidPut, startProxiedSandbox, type UploadProxy } from './upload-proxy.js';
import { tempDir } from '../helpers/temp.js';

let sb: TestSandbox;
let proxy: UploadProxy;
let dir: string;
let cfg: string;
const env = () => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: TEST_FULL_KEY });
const adops = (args: string[], timeoutMs = 30_000) => runAdopsInProcess(args, { env: env(), timeoutMs });

function file(name: string, bytes: Buffer | string, sparseTo?: number): string {
  const p = join(dir, name);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, bytes);
  if (sparseTo) truncateSync(p, sparseTo);
  return p;
}

async function assets(): Promise<Array<Record<string, any>>> {
  const res = await sb.req('GET', '/assets', { key: TEST_FULL_KEY, query: { limit: 500 } });
  return res.body.data;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The one content of the upload journal under the config dir (in its scope's store file), and how to rewrite it. */
function journalContent(): { content: ContentFile; rewrite: (content: ContentFile) => void } {
  const root = join(cfg, 'uploads');
  const found = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json'));
  expect(found).toHaveLength(1);
  const file = join(root, found[0]!);
  const contents = contentsOf(readFileSync(file, 'utf8'))!;
  expect(contents.size).toBe(1);
  const [name, content] = [...contents][0]!;
  return { content, rewrite: (c) => writeFileSync(file, storeText(new Map([[name, c]]))) };
}

/** SHA-256 of every file the sandbox stored. */
function storedHashes(): string[] {
  const filesDir = sb.services.filesDir;
  return readdirSync(filesDir)
    .filter((n) => !n.startsWith('.'))
    .map((n) => sha(readFileSync(join(filesDir, n))));
}

/** What an earlier run left in the journal (scope: base URL + key fingerprint; keyed by the file's SHA-256): `row` recorded 'sent' with `sentSha256`. */
async function journalSent(
  file: Buffer,
  row: { id: string; uploadUrl: string; uploadExpiresAt: number },
  sentSha256: string,
  extra: { filename?: string; contentType?: string } = {},
): Promise<void> {
  const slot = await new UploadJournal(cfg, serviceScope(sb.url, TEST_FULL_KEY)).open('asset', file.length, sha(file));
  await slot.put({
    id: row.id,
    keyFp: keyFingerprint(TEST_FULL_KEY),
    state: 'sent',
    sentSha256,
    uploadUrl: row.uploadUrl,
    uploadExpiresAt: row.uploadExpiresAt,
    ...extra,
    updatedAt: 1,
  });
  slot.release();
}

let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ensureBuilt();
  // Upload URLs point at the proxy, which forwards to the sandbox's storage endpoint.
  ({ sb, proxy, close: stop } = await startProxiedSandbox({ world: withAdvertiser(minimalWorld(), { id: 'acc_up_a', provider: 'provider_a' }) }));
}, 60_000);
afterAll(() => stop?.());

beforeEach(() => {
  dir = tempDir('adops-upload-');
  cfg = tempConfigDir();
  proxy.mode = 'pass';
  proxy.puts.length = 0;
});

describe('adops assets upload', () => {
  it('uploads PNG, JPEG and MP4 with --register: one ready row each, the key never sent with the bytes', async () => {
    file('m/a.png', png());
    file('m/b.jpg', jpeg());
    file('m/c.mp4', mp4());
    const r = await adops(['assets', 'upload', join(dir, 'm'), '--register', 'acc_up_a', '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<Record<string, any>>;
    expect(rows.map((x) => [x.filename, x.state, x.mimeType])).toEqual([
      ['a.png', 'ready', 'image/png'],
      ['b.jpg', 'ready', 'image/jpeg'],
      ['c.mp4', 'ready', 'video/mp4'],
    ]);
    for (const row of rows) expect(row.registrations.map((g: any) => g.advertiserId)).toEqual(['acc_up_a']);
    expect(proxy.puts).toHaveLength(3);
    for (const put of proxy.puts) {
      expect(put.headers.authorization).toBeUndefined();
      expect(JSON.stringify(put.headers)).not.toContain(TEST_FULL_KEY);
    }
    expect(r.stderr).not.toContain(TEST_FULL_KEY);
  });

  it('--debug traces the PUT without the key or the upload token', async () => {
    const r = await adops(['assets', 'upload', file('dbg.png', png(5, 5)), '--debug']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`→ PUT ${proxy.url}/… (upload URL, token not shown) content-type: image/png`);
    expect(r.stderr).not.toContain(TEST_FULL_KEY);
    expect(r.stderr).not.toMatch(/_storage\/uploads\/v1\./);
  });

  it('on a terminal: a redrawn bar per file instead of plain lines', async () => {
    const p = file('tty.mp4', mp4(), 4 * 1024 * 1024);
    const r = await runAdopsTty(['assets', 'upload', p], { env: env() });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/tty\.mp4 +\[[#-]+\] +\d+% /); // the bar
    expect(r.stdout).toContain('\x1b[1A\x1b[2K'); // redrawn in place
    expect(r.stdout).not.toMatch(/tty\.mp4: \d+% \(/); // no plain progress lines
    expect(r.stdout).toMatch(/tty\.mp4: sent 4\.00 MiB in /);
  });

  it('sends the type the bytes are, not the one the name claims', async () => {
    const p = file('liar.png', jpeg());
    const r = await adops(['assets', 'upload', p, '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ filename: 'liar.png', mimeType: 'image/jpeg', state: 'ready' });
    expect(proxy.puts[0]!.headers['content-type']).toBe('image/jpeg');
    expect(r.stderr).toContain('named like image/png, but the bytes are image/jpeg');
  });

  it('refuses bytes of no accepted type before reserving anything (exit 7)', async () => {
    const before = (await assets()).length;
    const p = file('notes.png', 'just some text, not an image\n');
    const r = await adops(['assets', 'upload', p]);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/notes\.png: the bytes are text, not a type an Asset accepts/);
    expect(r.stderr).toContain('nothing was reserved');
    expect((await assets()).length).toBe(before);
  });

  it('--name with several files is a usage error before any request', async () => {
    const r = await adops(['assets', 'upload', file('x.png', png()), file('y.png', png()), '--name', 'z.png']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--name names one file');
  });

  it('explains an oversized Asset by its size and the limit, nothing left reserved', async () => {
    sb.services.settings.assetLimits = { 'image/png': 40 };
    try {
      const before = (await assets()).length;
      const r = await adops(['assets', 'upload', file('big.png', png())]);
      expect(r.code).toBe(7);
      expect(r.stderr).toMatch(/big\.png: too large: the file is 65 B/);
      expect((await assets()).length).toBe(before);
    } finally {
      delete sb.services.settings.assetLimits;
    }
  });

  it('a PUT whose answer is lost is not sent twice: 409 already received → same hash → finalized', async () => {
    proxy.mode = 'lose-answer-once';
    const bytes = png(64, 64);
    const r = await adops(['assets', 'upload', file('lost.png', bytes), '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(proxy.puts.map((p) => p.status)).toEqual([200, 409]);
    expect(r.stderr).toContain('already holds these bytes');
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ state: 'ready', sizeBytes: bytes.length });
  });

  it('killed mid-PUT, the same command again finishes it: one ready Asset, the very bytes', async () => {
    const size = 8 * 1024 * 1024;
    const p = file('cut.mp4', mp4(), size);
    expect(await killMidPut(proxy, p, env())).toBeGreaterThan(0);
    const reserved = (await assets()).filter((a) => a.filename === 'cut.mp4');
    expect(reserved.map((a) => a.state)).toEqual(['reserved']);

    const r = await adops(['assets', 'upload', p, '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`resuming ${reserved[0]!.id}`);
    expect(r.stderr).not.toContain('\r');
    expect(r.stderr).toMatch(/cut\.mp4: [1-9]0% \(/); // plain progress lines off a TTY
    const after = (await assets()).filter((a) => a.filename === 'cut.mp4');
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: reserved[0]!.id, state: 'ready', sizeBytes: size });
    expect(storedHashes()).toContain(sha(readFileSync(p)));
    const journal = journalContent().content;
    expect(journal).toMatchObject({ sha256: sha(readFileSync(p)), entries: [{ state: 'ready', id: reserved[0]!.id, sentSha256: sha(readFileSync(p)) }] });
    expect(journal.entries[0]?.uploadUrl).toBeUndefined(); // the used URL (a credential) is not kept

    // A third run proves by hash that it is there and sends nothing.
    const puts = proxy.puts.length;
    const again = await adops(['assets', 'upload', p, '--output', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('already uploaded');
    expect(proxy.puts.length).toBe(puts);
  }, 60_000);

  it('a reservation whose URL expired is deleted and the upload reserved anew, and the user is told', async () => {
    const p = file('stale.png', png(10, 10));
    const first = await adops(['assets', 'upload', p]);
    expect(first.code).toBe(0);
    // Make the journal say the bytes never left and the URL is long expired.
    const { content, rewrite } = journalContent();
    const { body: reservedRow } = await sb.req('POST', '/assets/uploads', { key: TEST_FULL_KEY, body: { filename: 'stale.png' } });
    rewrite({
      ...content,
      entries: [{ ...content.entries[0]!, id: reservedRow.id, state: 'reserved', uploadUrl: reservedRow.uploadUrl, uploadExpiresAt: 1 }],
    });
    const r = await adops(['assets', 'upload', p, '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`the reservation ${reservedRow.id} expired before its bytes were sent; deleted it`);
    expect((await sb.req('GET', `/assets/${reservedRow.id}`, { key: TEST_FULL_KEY })).status).toBe(404);
  });

  it('never adopts bytes it cannot prove are this file: landed bytes of other content are deleted, the file uploaded anew', async () => {
    const theirs = png(7, 7);
    const ours = png(8, 8); // same length, other bytes
    expect(ours.length).toBe(theirs.length);
    const p = file('swap.png', ours);
    // An earlier run reserved and sent `theirs` (journal: sent, with their hash), then the file was replaced.
    const { body: row } = await sb.req('POST', '/assets/uploads', { key: TEST_FULL_KEY, body: { filename: 'swap.png' } });
    const put = await fetch(row.uploadUrl, { method: 'PUT', body: theirs, headers: { 'content-type': 'image/png' } });
    expect(put.status).toBe(200);
    // The journal's scope is base URL + key fingerprint; entries are found by the file's SHA-256.
    await journalSent(ours, row, sha(theirs));
    const r = await adops(['assets', 'upload', p, '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${row.id} holds bytes that cannot be proven to be this file's; deleted it`);
    expect((await sb.req('GET', `/assets/${row.id}`, { key: TEST_FULL_KEY })).status).toBe(404);
    const done = JSON.parse(r.stdout)[0];
    expect(done.id).not.toBe(row.id);
    expect(done).toMatchObject({ state: 'ready', width: 8, height: 8 });
  });

  it("resumes a small file's reservation recorded 'sent' before its PUT went out (a crash there, #27): same Asset, bytes sent once", async () => {
    const ours = png(9, 9);
    const p = file('cut-before-put.png', ours);
    const { body: row } = await sb.req('POST', '/assets/uploads', {
      key: TEST_FULL_KEY,
      body: { filename: 'cut-before-put.png', contentType: 'image/png', sizeBytes: ours.length },
    });
    await journalSent(ours, row, sha(ours), { filename: 'cut-before-put.png', contentType: 'image/png' });
    const puts = proxy.puts.length;
    const r = await adops(['assets', 'upload', p, '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ id: row.id, state: 'ready', width: 9, height: 9 });
    expect(proxy.puts.length).toBe(puts + 1);
  });
});

describe('adops assets sync', () => {
  it('a second run uploads nothing; a changed file is uploaded again', async () => {
    file('s/one.png', png(1, 1));
    file('s/two.jpg', jpeg(2, 2));
    const first = await adops(['assets', 'sync', join(dir, 's'), '--output', 'json']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).map((r: any) => r.result)).toEqual(['uploaded', 'uploaded']);
    const puts = proxy.puts.length;

    const second = await adops(['assets', 'sync', join(dir, 's'), '--output', 'json']);
    expect(second.code, second.stderr).toBe(0);
    const rows = JSON.parse(second.stdout);
    expect(rows.map((r: any) => [r.result, r.matchedBy])).toEqual([
      ['already there', 'sha256 (journal)'],
      ['already there', 'sha256 (journal)'],
    ]);
    expect(proxy.puts.length).toBe(puts);

    // Same name and size, other bytes: the journal knows, so it is uploaded.
    const changed = png(1, 1);
    changed.writeUInt8(changed.readUInt8(changed.length - 5) ^ 0xff, changed.length - 5); // inside IEND's CRC: still a PNG header, other bytes
    file('s/one.png', changed);
    const third = await adops(['assets', 'sync', join(dir, 's'), '--output', 'json']);
    expect(JSON.parse(third.stdout).map((r: any) => r.result)).toEqual(['uploaded', 'already there']);
  });

  it('on a machine without the journal, the checksum the sandbox shows proves the same bytes; other bytes of the same size are uploaded', async () => {
    const first = png(3, 3);
    file('f/fresh.png', first);
    expect((await adops(['assets', 'sync', join(dir, 'f')])).code).toBe(0);
    expect((await assets()).find((a) => a.filename === 'fresh.png')).toMatchObject({ state: 'ready', sha256: sha(first) });
    cfg = tempConfigDir(); // a fresh CI runner
    const r = await adops(['assets', 'sync', join(dir, 'f'), '--output', 'json']);
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ result: 'already there', matchedBy: 'sha256 (service)' });

    // The creative changed at the same size on another machine: a fresh runner must upload it.
    const changed = Buffer.from(first);
    changed.writeUInt8(changed.readUInt8(changed.length - 5) ^ 0xff, changed.length - 5);
    file('f/fresh.png', changed);
    cfg = tempConfigDir();
    const again = await adops(['assets', 'sync', join(dir, 'f'), '--output', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)[0]).toMatchObject({ result: 'uploaded', sizeBytes: first.length });
    expect(
      (await assets())
        .filter((a) => a.filename === 'fresh.png')
        .map((a) => a.sha256)
        .sort(),
    ).toEqual([sha(first), sha(changed)].sort());
  });
});

describe('adops brands documents upload', () => {
  beforeAll(async () => {
    await sb.req('POST', '/context/brands', { key: TEST_FULL_KEY, body: { slug: 'upb', name: 'Upload brand' } });
  });

  it('uploads a PDF and a Markdown file with the types their bytes show', async () => {
    const r = await adops(['brands', 'documents', 'upload', 'upb', file('d/book.pdf', '%PDF-1.7\n%…\n'), file('d/voice.md', '# Voice\n'), '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((d: any) => [d.filename, d.contentType, d.state])).toEqual([
      ['book.pdf', 'application/pdf', 'ready'],
      ['voice.md', 'text/markdown', 'ready'],
    ]);
  });

  it('explains an oversized Document by its size next to the limit (413), nothing left', async () => {
    sb.services.settings.documentLimits = { 'text/plain': 100 };
    try {
      const r = await adops(['brands', 'documents', 'upload', 'upb', file('long.txt', 'x'.repeat(2000))]);
      expect(r.code).toBe(7);
      expect(r.stderr).toMatch(/long\.txt: too large: the file is 1\.95 KiB \(2000 bytes\), over the limit of 100 B \(100 bytes\)/);
      const docs = await sb.req('GET', '/context/brands/upb/documents', { key: TEST_FULL_KEY });
      expect(docs.body.data.filter((d: any) => d.filename === 'long.txt')).toEqual([]);
    } finally {
      delete sb.services.settings.documentLimits;
    }
  });

  it('an unknown Brand fails once with exit 4', async () => {
    const r = await adops(['brands', 'documents', 'upload', 'no-such-brand', file('n.txt', 'hi\n')]);
    expect(r.code).toBe(4);
  });
});
