// Raw HTTP/1.1 over a loopback socket: what fetch will not send (a bad
// Content-Length, oversized headers, a body that stops coming) and a stream of
// bytes the sender stops pushing as soon as the answer arrives.
import { connect } from 'node:net';
import { request as httpRequest } from 'node:http';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox, StartOptions } from '../../src/sandbox/index.js';
import { minimalWorld, request } from '../helpers/sandbox.js';
import type { ReqOptions, TestResponse } from '../helpers/sandbox.js';

export interface WireAnswer {
  status: number;
  headers: string;
  body: any;
  /** ms from the first byte sent to the socket closing. */
  ms: number;
}

export interface LimitedSandbox {
  sandbox: RunningSandbox;
  key: string;
  url: string;
  port: number;
  req(method: string, path: string, opts?: ReqOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

/** A sandbox on a loopback port with the given limits (small ones keep tests fast). */
export async function startLimited(opts: Partial<StartOptions> = {}): Promise<LimitedSandbox> {
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, data: ':memory:', world: minimalWorld(), quiet: true, ...opts });
  return {
    sandbox,
    key: sandbox.keys.find((k) => k.label === 'full')!.key,
    url: sandbox.url,
    port: sandbox.port,
    req: (method, path, o) => request(sandbox.url, method, path, o),
    close: () => sandbox.close(),
  };
}

function parse(raw: string, started: number): WireAnswer {
  const at = raw.indexOf('\r\n\r\n');
  const head = at < 0 ? raw : raw.slice(0, at);
  const text = at < 0 ? '' : raw.slice(at + 4);
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the test's expectation on the shape reports it
  }
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body, ms: Date.now() - started };
}

/**
 * Send `parts` (written in order), keep the socket open, and read the answer until the server
 * closes. With `drip`, one more byte of it is written every `everyMs` after the parts.
 */
export function rawExchange(port: number, parts: Array<string | Buffer>, timeoutMs = 10_000, drip?: { text: string; everyMs: number }): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    let dripper: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      for (const p of parts) socket.write(p);
      let at = 0;
      if (drip) dripper = setInterval(() => at < drip.text.length && socket.writable && socket.write(drip.text[at++]!), drip.everyMs);
    });
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {}); // a reset after the answer is fine; 'close' follows
    socket.on('close', () => {
      clearTimeout(timer);
      clearInterval(dripper);
      resolve(parse(Buffer.concat(chunks).toString('utf8'), started));
    });
  });
}

/**
 * POST up to `total` bytes of `fill` (chunked, no Content-Length), writing as fast as the
 * server reads and stopping when its answer arrives. Answers the status, body and bytes sent.
 */
export function streamBody(
  url: string,
  opts: { total: number; headers?: Record<string, string>; method?: string; first?: string },
): Promise<{ status: number; body: any; sent: number; ms: number }> {
  const chunk = Buffer.alloc(64 * 1024, 0x20); // JSON whitespace: valid wherever it stops
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let sent = 0;
    let answered = false;
    const req = httpRequest(url, { method: opts.method ?? 'POST', headers: { 'content-type': 'application/json', ...opts.headers } }, (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null, sent, ms: Date.now() - started });
      });
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    if (opts.first) {
      req.write(opts.first);
      sent += opts.first.length;
    }
    const pump = () => {
      while (!answered && sent < opts.total) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}
