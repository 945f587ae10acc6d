// `--retry-budget 0` (issue #34, section 3): the first send always goes. A
// budget of 0 sets no deadline on it (a deadline of 0 cut it before a byte
// left, so the request never arrived) and leaves nothing for a retry or a
// resend: one attempt, bounded by its own --connect-timeout and
// --request-timeout. A loopback server counts what arrives; the upload PUT
// and the flows' resends draw from the same SendBudget.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { DEMO_WORLD, useTestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { png } from '../unit/uploads/media-samples.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let server: Server;
let base = '';
let handler: Handler;
let arrived: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    arrived.push(`${req.method} ${req.url}`);
    req.resume();
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on a TCP port');
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  arrived = [];
});

const env = (config = tempConfigDir()) => ({ ADOPS_CONFIG_DIR: config, ADOPS_BASE_URL: base, ADOPS_API_KEY: DEMO.full });
const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

describe('--retry-budget 0: the request is sent once', () => {
  it('the request arrives and its answer is read, however long it takes within --request-timeout (exit 0)', async () => {
    // An answer a moment later: a deadline of 0 would have cut it, and the request would never have left.
    handler = (_req, res) => void setTimeout(() => json(res, 200, { data: [] }), 300);
    const r = await runAdopsInProcess(['observe', 'campaigns', '--retry-budget', '0', '-o', 'json'], { env: env(), timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(arrived).toEqual([expect.stringMatching(/^GET \/observe\/campaigns/)]);
  });

  it('the same from the setting (`adops config set retry-budget 0`)', async () => {
    const config = tempConfigDir();
    expect((await runAdopsInProcess(['config', 'set', 'retry-budget', '0'], { env: { ADOPS_CONFIG_DIR: config } })).code).toBe(0);
    handler = (_req, res) => json(res, 200, { data: [] });
    const r = await runAdopsInProcess(['observe', 'campaigns', '-o', 'json'], { env: env(config), timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(arrived).toHaveLength(1);
  });

  it('a retryable answer (503) is not retried: one request, exit 6', async () => {
    handler = (_req, res) => json(res, 503, { error: 'service_unavailable', message: 'down for a moment' });
    const r = await runAdopsInProcess(['observe', 'campaigns', '--retry-budget', '0', '-o', 'json'], { env: env(), timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(6);
    expect(arrived).toHaveLength(1);
  });

  it('a throttling answer (429) is not waited out either: one request, exit 6', async () => {
    handler = (_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ error: 'rate_limited', message: 'slow down' }));
    };
    const r = await runAdopsInProcess(['observe', 'campaigns', '--retry-budget', '0', '-o', 'json'], { env: env(), timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(6);
    expect(arrived).toHaveLength(1);
  });

  it('a change whose answer is lost is sent once and never resent: exit 10 with its Idempotency-Key', async () => {
    // The connection drops after the request arrived: in doubt. A resend would need time the budget does not give.
    handler = (req, _res) => req.socket.destroy();
    const args = ['mutations', 'start', '--advertiser', 'acc_x', '--action', 'pause', '-f', 'target.type=campaign', '-f', 'target.id=cmp_x'];
    const r = await runAdopsInProcess([...args, '--retry-budget', '0'], { env: env(), timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(10);
    expect(arrived.filter((a) => a.startsWith('POST /mutations'))).toHaveLength(1);
    expect(r.stderr).toMatch(/--idempotency-key/);
  });
});

describe('--retry-budget 0 on the upload PUT (no deadline there already: the bytes go once)', () => {
  const sb = useTestSandbox({ world: DEMO_WORLD });
  it('assets upload --retry-budget 0: reserved, sent and finalized (exit 0)', async () => {
    const p = join(tempDir('adops-h34-budget-'), 'zero.png');
    writeFileSync(p, png(8, 8));
    const r = await runAdopsInProcess(['assets', 'upload', p, '--retry-budget', '0', '-o', 'json'], {
      env: { ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: DEMO.full },
      timeoutMs: 30_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject([{ id: expect.stringMatching(/^ast_/), state: 'ready' }]);
  });
});
