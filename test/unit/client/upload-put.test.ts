// putBytes: only the headers it means to send, redirects returned not followed,
// an early refusal ends the PUT without sending the rest.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, closeAllPools } from '../../../src/client/http.js';
import { CONTINUE_WAIT_MS, EXPECT_CONTINUE_BYTES, PutNetworkError, putBytes, type PutBody } from '../../../src/client/upload-put.js';

/** `http://127.0.0.1:PORT` of a server listening on a TCP port. */
function originOf(listening: Server): string {
  const address = listening.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on a TCP port');
  return `http://127.0.0.1:${address.port}`;
}

let server: Server;
let base = '';
let last: { headers: IncomingHttpHeaders; bytes: number } | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/redirect') return void res.writeHead(307, { location: '/ok' }).end();
    if (req.url === '/early') return void res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end('{"error":"too_large"}');
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      last = { headers: req.headers, bytes };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received: true, sizeBytes: bytes }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = originOf(server);
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A body of `count` chunks of `size` bytes; counts what was released and whether it was closed. */
function chunks(count: number, size: number) {
  const seen = { handed: 0, released: 0, closed: false };
  const open = (): PutBody => ({
    next: () => Promise.resolve(seen.handed < count ? (seen.handed++, Buffer.alloc(size, 1)) : null),
    release: () => void seen.released++,
    close: () => void (seen.closed = true),
  });
  return Object.assign(open, { seen });
}
const bytes = (n: number) => chunks(1, n);

describe('putBytes', () => {
  it('sends the bytes with their type and length and nothing else of ours', async () => {
    const seen: number[] = [];
    const body = chunks(3, 5000);
    const r = await putBytes(`${base}/ok`, body, { contentType: 'image/png', sizeBytes: 15000, onProgress: (n) => seen.push(n) });
    // Every chunk went back to the body once flushed (its memory reused), and the body was closed.
    expect(body.seen).toEqual({ handed: 3, released: 3, closed: true });
    expect(r).toEqual({ status: 200, body: { received: true, sizeBytes: 15000 } });
    expect(last?.headers['content-type']).toBe('image/png');
    expect(last?.headers['content-length']).toBe('15000');
    expect(last?.headers.authorization).toBeUndefined();
    expect(last?.headers.cookie).toBeUndefined();
    expect(seen).toEqual([5000, 10000, 15000]);
  });

  it('sends bytes held whole (allAtOnce) with the request: all of them, progress once, no pull', async () => {
    for (const size of [45, 64 * 1024, 64 * 1024 + 1, 0]) {
      const seen: number[] = [];
      let pulled = 0;
      const open = (): PutBody => ({
        next: () => (pulled++, Promise.resolve(null)),
        release: () => {},
        close: () => {},
        allAtOnce: () => Buffer.alloc(size, 7),
      });
      const r = await putBytes(`${base}/ok`, open, { contentType: 'image/png', sizeBytes: size, onProgress: (n) => seen.push(n) });
      expect(r).toEqual({ status: 200, body: { received: true, sizeBytes: size } });
      expect(last?.headers['content-length']).toBe(String(size));
      // Up to one slice: ended with the bytes; over it, written in slices as any chunk; never pulled from next().
      expect(seen).toEqual(size === 0 ? [] : [size]);
      expect(pulled).toBe(0);
    }
  });

  it('returns a redirect as is (never follows it)', async () => {
    last = undefined;
    const r = await putBytes(`${base}/redirect`, bytes(10), { contentType: 'image/png', sizeBytes: 10 });
    expect(r.status).toBe(307);
    expect(last).toBeUndefined();
  });

  it('an answer before the body ends is returned and the rest not sent', async () => {
    const r = await putBytes(`${base}/early`, chunks(64, 1024 * 1024), { contentType: 'video/mp4', sizeBytes: 64 * 1024 * 1024 });
    expect(r).toEqual({ status: 413, body: { error: 'too_large' } });
  });

  it('fails after the idle time it was given without progress, not twice that (#13 item 14)', async () => {
    const stall = createServer((req) => {
      let n = 0;
      req.on('data', (c: Buffer) => {
        n += c.length;
        if (n > 100_000) req.pause(); // reads a little, then never again
      });
    });
    await new Promise<void>((r) => stall.listen(0, '127.0.0.1', r));
    try {
      const started = Date.now();
      const err = await putBytes(`${originOf(stall)}/`, chunks(256, 256 * 1024), {
        contentType: 'video/mp4',
        sizeBytes: 64 * 1024 * 1024,
        idleTimeoutMs: 1000,
      }).catch((e: unknown) => e);
      const took = Date.now() - started;
      expect(err).toBeInstanceOf(PutNetworkError);
      expect((err as Error).message).toBe('no progress for 1 s');
      // node's own socket timeout fired at about 2,000 ms here.
      expect(took).toBeGreaterThanOrEqual(950);
      expect(took).toBeLessThan(1_600);
    } finally {
      stall.closeAllConnections();
      stall.close();
    }
  });

  it('sends Expect: 100-continue and no body byte before the go-ahead: a refusal in its place is read (#13 item 22)', async () => {
    let bodyBytes = 0;
    const refuser = createServer();
    refuser.on('checkContinue', (req, res) => {
      req.on('data', (c: Buffer) => (bodyBytes += c.length));
      res.writeHead(413, { 'content-type': 'application/json' }).end('{"error":"too_large"}');
    });
    await new Promise<void>((r) => refuser.listen(0, '127.0.0.1', r));
    try {
      const r = await putBytes(`${originOf(refuser)}/`, bytes(8 * 1024 * 1024), {
        contentType: 'text/markdown',
        sizeBytes: 8 * 1024 * 1024,
      });
      expect(r).toEqual({ status: 413, body: { error: 'too_large' } });
      expect(bodyBytes).toBe(0);
    } finally {
      refuser.closeAllConnections();
      refuser.close();
    }
  });

  it('a storage that never answers the Expect gets the body after CONTINUE_WAIT_MS', async () => {
    const silent = createServer();
    silent.on('checkContinue', (req, res) => {
      let n = 0;
      req.on('data', (c: Buffer) => (n += c.length));
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ sizeBytes: n })));
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const started = Date.now();
      const size = EXPECT_CONTINUE_BYTES + 1;
      const r = await putBytes(`${originOf(silent)}/`, bytes(size), { contentType: 'image/png', sizeBytes: size });
      expect(r).toEqual({ status: 200, body: { sizeBytes: size } });
      expect(Date.now() - started).toBeGreaterThanOrEqual(CONTINUE_WAIT_MS - 50);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('a body of EXPECT_CONTINUE_BYTES or less goes with its headers: no Expect, no wait for a go-ahead (#27)', async () => {
    // A storage that sends no 100 Continue of its own: a client that asked for one would wait CONTINUE_WAIT_MS.
    const plain = createServer();
    const heard: Array<string | undefined> = [];
    plain.on('checkContinue', (req) => heard.push(req.headers.expect));
    plain.on('request', (req, res) => {
      heard.push(req.headers.expect);
      let n = 0;
      req.on('data', (c: Buffer) => (n += c.length));
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ sizeBytes: n })));
    });
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
    try {
      const started = Date.now();
      const r = await putBytes(`${originOf(plain)}/`, bytes(EXPECT_CONTINUE_BYTES), {
        contentType: 'image/png',
        sizeBytes: EXPECT_CONTINUE_BYTES,
      });
      expect(r).toEqual({ status: 200, body: { sizeBytes: EXPECT_CONTINUE_BYTES } });
      expect(heard).toEqual([undefined]);
      expect(Date.now() - started).toBeLessThan(CONTINUE_WAIT_MS);
    } finally {
      plain.closeAllConnections();
      plain.close();
    }
  });

  it("a client's PUTs to one storage share its keep-alive connections, and close with it (#27)", async () => {
    let connections = 0;
    let closed = 0;
    const storage = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}'));
    });
    storage.on('connection', (socket) => {
      connections++;
      socket.on('close', () => closed++);
    });
    await new Promise<void>((r) => storage.listen(0, '127.0.0.1', r));
    const client = new ApiClient({ baseUrl: 'https://api.adops.test', apiKey: 'acr_k_1234', userAgent: 't', env: {} });
    try {
      const url = `${originOf(storage)}/u/token`;
      for (let i = 0; i < 3; i++) {
        const r = await client.putUpload(url, bytes(100), { contentType: 'image/png', sizeBytes: 100 });
        expect(r.status).toBe(200);
      }
      expect(connections).toBe(1);
      expect(closed).toBe(0);
      // The runner closes the shared transport before it exits: the PUTs' connection goes with it.
      await closeAllPools();
      await expect.poll(() => closed).toBe(1);
    } finally {
      storage.closeAllConnections();
      storage.close();
    }
  });

  it('refuses a URL that is not http(s)', async () => {
    await expect(putBytes('file:///etc/passwd', bytes(1), { contentType: 'x/y', sizeBytes: 1 })).rejects.toThrow(/unsupported scheme/);
  });
});
