// A hostile service on loopback (issue 25, section 1): an answer that trickles,
// an answer larger than any page, and a gateway answering 503 to every change.
// The built binary against it: each ends promptly, with the documented exit
// code, memory bounded, and no request sent more often than the one retry
// policy allows.
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, DEMO, ensureBuilt, ROOT, baseEnv, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { virtualClock } from '../helpers/virtual-clock.js';
import { MAX_ANSWER_BYTES } from '../../src/client/answer.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let server: Server;
let base: string;
let handler: Handler;
const sockets = new Set<Socket>();
/** Bytes the server got out to the client, per answer (socket.bytesWritten at close). */
let sentBytes = 0;
let requests: string[] = [];

beforeAll(async () => {
  ensureBuilt();
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    handler(req, res);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => {
      sentBytes += s.bytesWritten;
      sockets.delete(s);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});

beforeEach(() => {
  sentBytes = 0;
  requests = [];
});

const env = () => ({ ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: base, ADOPS_API_KEY: DEMO.full });

describe('a deadline on the whole answer', () => {
  it('an answer trickling a byte every 400 ms ends at --retry-budget (exit 6), not when the server stops', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
      let n = 0;
      const t = setInterval(() => {
        if (res.destroyed || ++n > 25) {
          clearInterval(t);
          if (!res.destroyed) res.end(']}');
          return;
        }
        res.write(' ');
      }, 400);
      res.on('close', () => clearInterval(t));
    };
    // Each byte comes well within --request-timeout (no idle cut), the whole answer would take 10 s: the budget ends it.
    const r = await runAdopsInProcess(['observe', 'campaigns', '--request-timeout', '1.2', '--retry-budget', '2', '-o', 'json'], {
      env: env(),
      timeoutMs: 40_000,
    });
    expect({ code: r.code, fast: r.ms < 6_000 }, `${r.ms} ms; ${r.stderr}`).toEqual({ code: 6, fast: true });
    expect(r.stderr).toMatch(/retry budget/);
  }, 45_000);
});

describe('a cap on what an answer may hold', () => {
  it(`an answer past ${MAX_ANSWER_BYTES / 1048576} MiB: unexpected_answer, exit 1, read no further, memory bounded`, async () => {
    const total = 160 * 1024 * 1024;
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[],"pad":"');
      let written = 0;
      const pump = () => {
        while (written < total && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end('"}');
      };
      res.on('error', () => {});
      pump();
    };
    const r = await timedRun(['observe', 'campaigns', '-o', 'json'], env());
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/unexpected answer/);
    // What the server got out before the client dropped it: the cap and the socket buffers, not the whole answer.
    expect(sentBytes).toBeLessThan(MAX_ANSWER_BYTES + 24 * 1024 * 1024);
    // Node itself takes ~50 MiB; the old client held the whole answer several times over.
    expect(r.maxRssKiB).toBeLessThan(400 * 1024);
  }, 60_000);

  it('an answer announcing more than the cap is refused before its body is read', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(MAX_ANSWER_BYTES + 1) });
      res.write('{"data":[');
    };
    const r = await runAdopsInProcess(['observe', 'campaigns', '-o', 'json'], { env: env(), timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/unexpected answer.*announced/);
  });

  it('a 503 past the cap is not the service speaking: exit 1, retryable false in the JSON error, sent once', async () => {
    handler = (_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'content-length': String(MAX_ANSWER_BYTES + 1) });
      res.write('{"error":"');
    };
    requests.splice(0);
    const r = await runAdopsInProcess(['observe', 'campaigns', '-o', 'json'], { env: env(), timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stderr) as { error: { code: string; retryable: boolean } }).toMatchObject({ error: { code: 'unexpected_answer', retryable: false } });
    expect(requests.filter((q) => q.startsWith('GET /observe/campaigns'))).toHaveLength(1);
  });
});

describe('at most N sends of one request', () => {
  const gateway503: Handler = (req, res) => {
    if (req.method === 'POST' && req.url?.startsWith('/mutations')) return void res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found","message":"no"}');
  };
  const pause = ['mutations', 'pause', 'acc_acme_a_001', '--campaign', 'cmp_1', '-o', 'json'];

  it('a gateway 503 to POST /mutations is sent at most 6 times by default (client retries and resends together)', async () => {
    handler = gateway503;
    // On a virtual clock: the client's back-off and the resends' (~2.5 s of real waiting) cost nothing, and the time
    // budget never ends the run early, so the count of sends alone bounds it.
    const r = await runAdopsInProcess(pause, { env: env(), timeoutMs: 90_000, clock: virtualClock(Date.now()) });
    const posts = requests.filter((q) => q.startsWith('POST /mutations')).length;
    expect({ posts: posts <= 6 && posts >= 4, code: r.code }, `${posts} POSTs; ${r.stderr}`).toEqual({ posts: true, code: 10 });
  }, 100_000);

  it('--retries 1: at most 2 sends', async () => {
    handler = gateway503;
    const r = await runAdopsInProcess([...pause, '--retries', '1'], { env: env(), timeoutMs: 90_000 });
    const posts = requests.filter((q) => q.startsWith('POST /mutations')).length;
    expect({ posts, code: r.code }, r.stderr).toEqual({ posts: 2, code: 10 });
  }, 100_000);
});

/** Run the built binary under /usr/bin/time for its peak RSS. */
function timedRun(args: string[], e: Record<string, string>): Promise<{ code: number | null; stderr: string; maxRssKiB: number }> {
  return new Promise((resolve) => {
    const child = spawn('/usr/bin/time', ['-f', 'MAXRSS %M', process.execPath, BIN, ...args], {
      cwd: ROOT,
      env: baseEnv(e),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const rss = Number(/MAXRSS (\d+)/.exec(stderr)?.[1] ?? NaN);
      resolve({ code, stderr, maxRssKiB: rss });
    });
  });
}
