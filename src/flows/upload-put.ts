// The byte PUT of an upload, to the URL the service handed out. Kept in one
// small module on node:http(s) so it can later move onto the shared transport
// in one place. Rules it keeps whatever the transport: no API key (the URL is
// its own credential, and a storage host must never see the key), no
// redirects followed (a 3xx is returned as is), the body streamed from disk
// with back-pressure (memory flat for any size), and a Content-Length so the
// storage can refuse an oversized file before reading it.
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { proxyAuthRefused, type Env } from '../client/proxy.js';
import { connectionFor, finalFailure } from '../client/proxy-route.js';

export interface PutOptions {
  contentType: string;
  sizeBytes: number;
  /** Bytes handed to the socket so far (called often; throttle in the caller). */
  onProgress?: (bytesSent: number) => void;
  /** No byte moving either way for this long fails the PUT (default 60 s). */
  idleTimeoutMs?: number;
  signal?: AbortSignal;
  userAgent?: string;
  /** Proxy variables (the storage origin gets its own NO_PROXY decision); process.env when absent. */
  env?: Env;
}

export interface PutResult {
  status: number;
  /** Parsed JSON when the answer is JSON, else its text (first 64 KiB). */
  body: unknown;
}

/** The PUT failed without an answer; `sent` says whether every byte left us. */
export class PutNetworkError extends Error {
  override readonly name = 'PutNetworkError';
  constructor(message: string, readonly sent: boolean, options?: { cause?: unknown }) {
    super(message, options);
  }
}

const MAX_ANSWER = 64 * 1024;

function readAnswer(res: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => {
      if (text.length < MAX_ANSWER) text += c;
    });
    res.on('end', () => {
      try {
        resolve(/json/i.test(String(res.headers['content-type'] ?? '')) ? JSON.parse(text) : text);
      } catch {
        resolve(text);
      }
    });
    res.on('error', reject);
  });
}

export async function putBytes(url: string, open: () => Readable, opts: PutOptions): Promise<PutResult> {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`upload URL has an unsupported scheme: ${target.protocol}`);
  // Direct, or behind a proxy (a CONNECT tunnel, or plain forwarding): the storage origin's own decision.
  const via = await connectionFor(target, opts.env ?? process.env);
  const send = via.send;
  return new Promise<PutResult>((resolve, reject) => {
    if (opts.signal?.aborted) return reject(opts.signal.reason ?? new Error('aborted'));
    let sentAll = false;
    let settled = false;
    const body = open();
    const req = send(via.url, {
      ...(via.path ? { path: via.path } : {}),
      method: 'PUT',
      // Only these headers: never Authorization, never a cookie.
      headers: { 'content-type': opts.contentType, 'content-length': String(opts.sizeBytes), 'user-agent': opts.userAgent ?? 'adops', ...via.headers },
      // A fresh connection per file: an upload host is not the API origin, and a
      // keep-alive socket left open would delay the process exit.
      agent: via.agent,
    });
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      cleanup();
      body.destroy();
      req.destroy();
      reject(err);
    };
    const onAbort = () => fail(opts.signal?.reason instanceof Error ? opts.signal.reason : Object.assign(new Error('aborted'), { name: 'AbortError' }));
    const cleanup = () => opts.signal?.removeEventListener('abort', onAbort);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    req.setTimeout(opts.idleTimeoutMs ?? 60_000, () => fail(new PutNetworkError(`no progress for ${Math.round((opts.idleTimeoutMs ?? 60_000) / 1000)} s`, sentAll)));
    // A proxy's 407 or a refused certificate: sending again cannot help.
    req.on('error', (err) => fail(finalFailure(err, target.host) ?? new PutNetworkError(err.message, sentAll, { cause: err })));
    req.on('response', (res) => {
      if (via.forwardedBy && res.statusCode === 407) return fail(proxyAuthRefused(via.forwardedBy));
      // The storage may answer early (413, 409) without reading the body: stop sending.
      if (!sentAll) body.unpipe(req);
      readAnswer(res).then(
        (answer) => {
          if (settled) return;
          settled = true;
          cleanup();
          body.destroy();
          // Answered before the body ended: drop the half-sent request rather than leave its socket open.
          if (!sentAll) req.destroy();
          resolve({ status: res.statusCode ?? 0, body: answer });
        },
        (err: Error) => fail(new PutNetworkError(err.message, sentAll, { cause: err })),
      );
    });
    let sent = 0;
    body.on('data', (chunk: Buffer) => {
      sent += chunk.length;
      opts.onProgress?.(sent);
    });
    body.on('error', (err) => fail(err));
    body.on('end', () => {
      sentAll = true;
    });
    body.pipe(req);
  });
}
