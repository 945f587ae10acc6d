// The upload PUT on the client's one transport and retry policy (issue 25,
// section 1): a host that does not resolve is a network failure (exit 6),
// --retries bounds the PUT's sends as it bounds every request's, and a
// storage that keeps failing is not sent the bytes more often than that.
import { truncateSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { minimalWorld, startTestSandbox, TEST_FULL_KEY, type TestSandbox } from '../helpers/sandbox.js';
import { mp4, png } from '../unit/uploads/media-samples.js';
import { tempDir } from '../helpers/temp.js';

let sb: TestSandbox;
let dir: string;
let storage: Server;
let storageUrl: string;
let puts = 0;

beforeAll(async () => {
  ensureBuilt();
  sb = await startTestSandbox({ world: minimalWorld() });
  dir = tempDir('adops-h25-upload-');
  // A storage host answering 503 to every PUT, after reading the body.
  storage = createServer((req, res) => {
    puts++;
    req.resume();
    req.on('end', () => res.writeHead(503, { 'content-type': 'text/plain' }).end('busy'));
  });
  await new Promise<void>((r) => storage.listen(0, '127.0.0.1', r));
  storageUrl = `http://127.0.0.1:${(storage.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  storage?.closeAllConnections();
  await new Promise<void>((r) => storage?.close(() => r()));
  await sb?.close();
});

beforeEach(() => {
  puts = 0;
});

const env = () => ({ ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: TEST_FULL_KEY });

function pngFile(name: string): string {
  const p = join(dir, name);
  writeFileSync(p, png(8, 8));
  return p;
}

describe('the upload PUT on the one transport', () => {
  it('an upload URL whose host does not resolve: a network failure, exit 6, never "a bug in adops"', async () => {
    sb.services.publicUrl = () => 'http://nonexistent.invalid';
    const r = await runAdopsInProcess(['assets', 'upload', pngFile('dns.png'), '--retries', '1'], { env: env(), timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).not.toMatch(/bug in adops/);
    expect(r.stderr).toMatch(/nonexistent\.invalid/);
  }, 70_000);

  it('--retries 2: a storage answering 503 gets the PUT at most 3 times, then exit 6', async () => {
    sb.services.publicUrl = () => storageUrl;
    const r = await runAdopsInProcess(['assets', 'upload', pngFile('busy.png'), '--retries', '2'], { env: env(), timeoutMs: 60_000 });
    expect({ code: r.code, puts }, r.stderr).toEqual({ code: 6, puts: 3 });
  }, 70_000);

  it('--retries 0: one PUT, no resend', async () => {
    sb.services.publicUrl = () => storageUrl;
    const r = await runAdopsInProcess(['assets', 'upload', pngFile('once.png'), '--retries', '0'], { env: env(), timeoutMs: 60_000 });
    expect({ code: r.code, puts }, r.stderr).toEqual({ code: 6, puts: 1 });
  }, 70_000);
});

describe('which bound applies to the PUT', () => {
  it('a PUT whose bytes keep moving for longer than --retry-budget is not cut by it (exit 0)', async () => {
    // A slow link to the storage: each chunk forwarded 150 ms after it arrived.
    const slow = createServer((req, res) => {
      const { expect: _e, ...headers } = req.headers;
      const up = request(sb.url + String(req.url), { method: req.method, headers }, (ur) => {
        res.writeHead(ur.statusCode ?? 502, ur.headers);
        ur.pipe(res);
      });
      up.on('error', () => res.destroy());
      // Each chunk goes on 150 ms after the one before: bytes keep moving, slowly.
      let queue = Promise.resolve();
      req.on('data', (c: Buffer) => {
        // Read no further until this chunk went on: adops' bytes leave it at the relay's pace.
        req.pause();
        queue = queue.then(
          () =>
            new Promise<void>((go) =>
              setTimeout(() => {
                up.write(c);
                req.resume();
                go();
              }, 150),
            ),
        );
      });
      req.on('end', () => void queue.then(() => up.end()));
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    try {
      sb.services.publicUrl = () => `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
      const p = join(dir, 'slow.mp4');
      writeFileSync(p, mp4());
      // 1 MiB: ~16 chunks at 150 ms each, ~2.4 s of moving bytes against a 1 s budget.
      truncateSync(p, 1024 * 1024);
      const r = await runAdopsInProcess(['assets', 'upload', p, '--retry-budget', '1', '-o', 'json'], { env: env(), timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(r.ms).toBeGreaterThan(1500);
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((r) => slow.close(() => r()));
    }
  }, 70_000);
});
