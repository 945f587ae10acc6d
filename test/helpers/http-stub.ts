// An in-process Transport for tests, like gh's httpmock: register stubs, each
// matching ONE request; a request no stub matches fails loudly, and verify()
// (call it in afterEach) fails the test when a stub was never used. Every
// request is recorded with its body read to text.
//
//   const http = new HttpStubs();
//   http.on('GET', '/observe/campaigns', json(200, { data: [] }));
//   const client = new ApiClient({ baseUrl: 'https://api.test', apiKey, userAgent: 'x', transport: http });
//   afterEach(() => http.verify());
import { Readable } from 'node:stream';
import { ApiClient } from '../../src/client/http.js';
import { TransportError, type Transport, type TransportRequest, type TransportResponse } from '../../src/client/transport.js';

export interface SeenRequest {
  method: string;
  origin: string;
  /** Path and query as sent. */
  path: string;
  headers: Record<string, string>;
  body: string;
}

export type Responder = (req: SeenRequest) => TransportResponse | Promise<TransportResponse>;

interface Stub {
  method: string;
  match: (pathname: string, req: SeenRequest) => boolean;
  label: string;
  respond: Responder;
  used: boolean;
}

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Responder {
  return () => ({ status, headers: { 'content-type': 'application/json', ...headers }, body: Readable.from([Buffer.from(JSON.stringify(body))]) });
}

/** The connection fails: before sending (`connect`) or after (`lost`). */
export function fail(kind: 'connect' | 'lost' = 'lost'): Responder {
  return () => {
    throw new TransportError(`stub ${kind} failure`, kind, kind === 'lost', kind === 'lost' ? 'ECONNRESET' : 'ECONNREFUSED');
  };
}

export class HttpStubs implements Transport {
  readonly requests: SeenRequest[] = [];
  private readonly stubs: Stub[] = [];

  /** Match method and path (a string is the exact path without the query; a RegExp is tried on path and query). */
  on(method: string, path: string | RegExp, respond: Responder, opts: { origin?: string } = {}): this {
    const match = (pathname: string, req: SeenRequest) =>
      (opts.origin === undefined || opts.origin === req.origin) && (typeof path === 'string' ? pathname === path : path.test(req.path));
    this.stubs.push({ method: method.toUpperCase(), match, label: `${method} ${String(path)}`, respond, used: false });
    return this;
  }

  async send(req: TransportRequest): Promise<TransportResponse> {
    req.signal?.throwIfAborted();
    const body = await readBody(req.body, req.onProgress);
    const seen: SeenRequest = { method: req.method, origin: req.origin, path: req.path, headers: { ...req.headers }, body };
    this.requests.push(seen);
    const pathname = req.path.split('?')[0]!;
    const stub = this.stubs.find((s) => !s.used && s.method === req.method && s.match(pathname, seen));
    if (!stub) throw new Error(`no stub for ${req.method} ${req.origin}${req.path} (stubs left: ${this.pending().join(', ') || 'none'})`);
    stub.used = true;
    return stub.respond(seen);
  }

  async close(): Promise<void> {}

  pending(): string[] {
    return this.stubs.filter((s) => !s.used).map((s) => s.label);
  }

  /** Throws when a registered stub was not used. */
  verify(): void {
    const left = this.pending();
    if (left.length) throw new Error(`unused HTTP stubs: ${left.join(', ')}`);
  }
}

async function readBody(body: TransportRequest['body'], onProgress?: (n: number) => void): Promise<string> {
  if (body === undefined) return '';
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    onProgress?.(Buffer.byteLength(body));
    return body.toString();
  }
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of body) {
    const buf = Buffer.isBuffer(c) ? c : Buffer.from(c as string);
    chunks.push(buf);
    n += buf.length;
    onProgress?.(n);
  }
  return Buffer.concat(chunks).toString();
}

/** A client of `https://api.adops.test` over these stubs, whose clock never moves and whose sleeps and jitter are instant. */
export function stubClient(http: HttpStubs): ApiClient {
  return new ApiClient({
    baseUrl: 'https://api.adops.test',
    apiKey: 'acr_k_1234',
    userAgent: 't',
    transport: http,
    deps: { now: () => 0, sleep: async () => {}, random: () => 0 },
  });
}
