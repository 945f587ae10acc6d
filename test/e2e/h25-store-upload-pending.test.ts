// A large file's run cut short leaves a pending reservation made for ITS name
// (#25 section 2). Another file of the same size deletes that reservation
// before it forgets it; when the DELETE fails (a 503, Ctrl-C during it, a
// dropped connection) the reservation stays pending, never adopted as the other
// file's: the next run must not fill `e.mp4`'s reservation with `f.mp4`'s bytes.
// The built binary; the API behind a small hostile loopback proxy that fails
// DELETE /assets/… on cue; the storage behind the upload proxy (killMidPut).
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, ensureBuilt, ROOT, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { minimalWorld, TEST_FULL_KEY, type TestSandbox } from '../helpers/sandbox.js';
import { mp4 } from '../unit/uploads/media-samples.js';
import { SIZE_FIRST_BYTES } from '../../src/state/upload-journal.js';
import { killMidPut, startProxiedSandbox, type UploadProxy } from './upload-proxy.js';
import { tempDir } from '../helpers/temp.js';

type DeleteFault = 'pass' | '503' | 'reset' | 'stall';
const SIZE = SIZE_FIRST_BYTES + 2048;
let sb: TestSandbox;
let storage: UploadProxy;
let stop: (() => Promise<void>) | undefined;
let api: Server;
let apiUrl = '';
let fault: DeleteFault = 'pass';
const deletes: string[] = [];

/** Forwards everything to the sandbox, except DELETE /assets/… while a fault is set. */
function startApiProxy(upstream: string): Promise<void> {
  api = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'DELETE' && req.url!.startsWith('/assets/')) {
        deletes.push(req.url!);
        if (fault === 'reset') return req.socket.resetAndDestroy();
        if (fault === 'stall') return;
        if (fault === '503') {
          res.writeHead(503, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ error: 'unavailable', message: 'try again later' }));
        }
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<
        string,
        string
      >;
      void fetch(upstream + req.url, { method: req.method!, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) }).then(async (up) => {
        const body = Buffer.from(await up.arrayBuffer());
        res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
        res.end(body);
      });
    });
  });
  return new Promise((r) =>
    api.listen(0, '127.0.0.1', () => {
      apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
      r();
    }),
  );
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
function video(dir: string, name: string): string {
  const p = join(dir, name);
  writeFileSync(p, Buffer.concat([mp4(), randomBytes(SIZE - mp4().length)]));
  return p;
}
async function named(filename: string): Promise<Array<Record<string, any>>> {
  const res = await sb.req('GET', '/assets', { key: TEST_FULL_KEY, query: { limit: 500 } });
  return res.body.data.filter((a: { filename: string }) => a.filename === filename);
}

beforeAll(async () => {
  ensureBuilt();
  ({ sb, proxy: storage, close: stop } = await startProxiedSandbox({ world: minimalWorld() }));
  await startApiProxy(sb.url);
}, 60_000);
afterAll(async () => {
  api?.closeAllConnections();
  await new Promise((r) => api?.close(r));
  await stop?.();
});

/** Run `assets upload` and, for 'stall', press Ctrl-C once its DELETE is held. */
async function uploadWithDeleteFault(env: Record<string, string>, file: string, f: DeleteFault): Promise<number | null> {
  fault = f;
  deletes.length = 0;
  const child = spawn(process.execPath, [BIN, 'assets', 'upload', file, '--retries', '0'], { cwd: ROOT, env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  if (f === 'stall') {
    for (let i = 0; i < 400 && deletes.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(deletes.length).toBeGreaterThan(0);
    child.kill('SIGINT');
  }
  const code = await exited;
  fault = 'pass';
  return code;
}

describe("another file's pending reservation, its DELETE failing", () => {
  it.each<DeleteFault>(['503', 'stall', 'reset'])(
    'DELETE fault %s: that run fails; the next uploads f.mp4 as f.mp4, and no e.mp4 Asset holds its bytes',
    async (f) => {
      const dir = tempDir(`adops-h25-pending-${f}-`);
      const env = { ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: apiUrl, ADOPS_API_KEY: TEST_FULL_KEY };
      const e = video(dir, `e-${f}.mp4`);
      expect(await killMidPut(storage, e, env)).toBeGreaterThan(0);
      const [stale] = await named(`e-${f}.mp4`);
      expect(stale).toMatchObject({ state: 'reserved' });

      const other = video(dir, `f-${f}.mp4`);
      const failed = await uploadWithDeleteFault(env, other, f);
      expect(failed).not.toBe(0);
      expect(deletes).toContain(`/assets/${stale!.id}`);

      const r = await runAdopsInProcess(['assets', 'upload', other, '--output', 'json'], { env, timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(0);
      const [row] = JSON.parse(r.stdout) as Array<Record<string, any>>;
      expect(row).toMatchObject({ filename: `f-${f}.mp4`, state: 'ready', sizeBytes: SIZE });
      expect(row!.id).not.toBe(stale!.id);
      // e.mp4's reservation was deleted now, not filled with f.mp4's bytes.
      expect((await named(`e-${f}.mp4`)).filter((a) => a.state !== 'reserved')).toEqual([]);
      expect((await sb.req('GET', `/assets/${stale!.id}`, { key: TEST_FULL_KEY })).status).toBe(404);
      expect((await sb.req('GET', `/assets/${row!.id}`, { key: TEST_FULL_KEY })).body.sha256).toBe(sha(readFileSync(other)));
    },
    90_000,
  );
});

describe('a reservation is resumed only for the same name and type', () => {
  it('a cut upload of c.mp4, then the same bytes as d.mp4: d.mp4 is not sent into the Asset c.mp4', async () => {
    const dir = tempDir('adops-h25-rename-');
    const env = { ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: apiUrl, ADOPS_API_KEY: TEST_FULL_KEY };
    // Under SIZE_FIRST_BYTES: hashed first, so the entry is the content's own (not a pending one).
    const c = join(dir, 'c.mp4');
    writeFileSync(c, Buffer.concat([mp4(), randomBytes(3 * 1024 * 1024)]));
    expect(await killMidPut(storage, c, env)).toBeGreaterThan(0);
    const [cut] = await named('c.mp4');
    expect(cut).toMatchObject({ state: 'reserved' });

    const d = join(dir, 'd.mp4');
    copyFileSync(c, d);
    const r = await runAdopsInProcess(['assets', 'upload', d, '--output', 'json'], { env, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ filename: 'd.mp4', state: 'ready' });
    expect(r.stderr).toContain(`the reservation ${cut!.id} of an earlier run was made for c.mp4`);
    expect((await named('c.mp4')).filter((a) => a.state !== 'reserved')).toEqual([]);
  }, 60_000);
});
