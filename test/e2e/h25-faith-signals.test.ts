// SIGTERM during an upload exits 143 (128 + 15, as docs/exit-codes.md says),
// not Ctrl-C's 130: the BUILT binary against a loopback service whose storage
// takes the bytes and never answers, so the PUT is in flight when the signal
// comes.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, ensureBuilt, ROOT, tempConfigDir } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const KEY = 'acr_test_full_0001';
let base = '';
const reservations: string[] = [];

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const path = (req.url ?? '').split('?')[0]!;
  if (req.method === 'PUT') return void req.resume(); // takes every byte, never answers
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    if (req.method === 'GET' && path === '/assets') return json(res, 200, { data: [] });
    if (req.method === 'POST' && path === '/assets/uploads') {
      const id = `ast_sig${reservations.length + 1}`;
      reservations.push(id);
      const { filename } = JSON.parse(body) as { filename: string };
      return json(res, 201, {
        id,
        filename,
        state: 'reserved',
        revision: 1,
        uploadUrl: `${base}/storage/${id}?token=t`,
        uploadExpiresAt: Date.now() + 3_600_000,
      });
    }
    json(res, 404, { error: 'not_found', message: 'no such thing' });
  });
});
// The go-ahead for the body at once: the PUT is sending when the signal comes.
server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
  res.writeContinue();
  req.resume();
});

const dir = tempDir('adops-h25-faith-sig-');

beforeAll(async () => {
  ensureBuilt();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A PNG header and enough bytes that the PUT is still under way.
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452000000100000001008020000000000000000', 'hex'), Buffer.alloc(64 * 1024 * 1024)]);
  writeFileSync(join(dir, 'slow.png'), png);
}, 60_000);

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** Run adops, send `signal` once stderr shows the PUT started; resolves with its exit code and stderr. */
function interrupted(args: string[], signal: NodeJS.Signals): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: baseEnv({ ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: base, ADOPS_API_KEY: KEY }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (c) => {
      stderr += c;
      if (!sent && /sending .* as image\/png/.test(stderr)) {
        sent = true;
        setTimeout(() => child.kill(signal), 200);
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('a signal during an upload', () => {
  for (const [name, args] of [
    ['assets upload', ['assets', 'upload', join(dir, 'slow.png')]],
    ['assets sync', ['assets', 'sync', dir]],
    ['assets upload --output json', ['assets', 'upload', join(dir, 'slow.png'), '--output', 'json']],
  ] as const) {
    it(`${name}: SIGTERM exits 143`, async () => {
      const r = await interrupted([...args], 'SIGTERM');
      expect(r.code, r.stderr).toBe(143);
    }, 40_000);
  }

  it('assets upload: SIGINT still exits 130', async () => {
    const r = await interrupted(['assets', 'upload', join(dir, 'slow.png')], 'SIGINT');
    expect(r.code, r.stderr).toBe(130);
  }, 40_000);
});
