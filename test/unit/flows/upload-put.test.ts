// putBytes: only the headers it means to send, redirects returned not followed,
// an early refusal ends the PUT without sending the rest.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putBytes } from '../../../src/flows/upload-put.js';

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
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const bytes = (n: number) => () => Readable.from([Buffer.alloc(n, 1)]);

describe('putBytes', () => {
  it('sends the bytes with their type and length and nothing else of ours', async () => {
    const seen: number[] = [];
    const r = await putBytes(`${base}/ok`, bytes(5000), { contentType: 'image/png', sizeBytes: 5000, onProgress: (n) => seen.push(n) });
    expect(r).toEqual({ status: 200, body: { received: true, sizeBytes: 5000 } });
    expect(last?.headers['content-type']).toBe('image/png');
    expect(last?.headers['content-length']).toBe('5000');
    expect(last?.headers.authorization).toBeUndefined();
    expect(last?.headers.cookie).toBeUndefined();
    expect(seen.at(-1)).toBe(5000);
  });

  it('returns a redirect as is (never follows it)', async () => {
    last = undefined;
    const r = await putBytes(`${base}/redirect`, bytes(10), { contentType: 'image/png', sizeBytes: 10 });
    expect(r.status).toBe(307);
    expect(last).toBeUndefined();
  });

  it('an answer before the body ends is returned and the rest not sent', async () => {
    const r = await putBytes(`${base}/early`, () => Readable.from((function* () {
      for (let i = 0; i < 64; i++) yield Buffer.alloc(1024 * 1024);
    })()), { contentType: 'video/mp4', sizeBytes: 64 * 1024 * 1024 });
    expect(r).toEqual({ status: 413, body: { error: 'too_large' } });
  });

  it('refuses a URL that is not http(s)', async () => {
    await expect(putBytes('file:///etc/passwd', bytes(1), { contentType: 'x/y', sizeBytes: 1 })).rejects.toThrow(/unsupported scheme/);
  });
});
