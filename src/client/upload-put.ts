// The byte PUT of an upload, to the URL the service handed out: one attempt
// on the socket (the client's sendUpload, ./upload-send.ts, retries it under
// the one retry policy). It is the client's because only src/client opens
// sockets (issue 25). Rules it keeps: no API key (the URL is its own
// credential, and a storage host must never see the key), no redirects
// followed (a 3xx is returned as is), the body streamed from disk with
// back-pressure (memory flat for any size), and a Content-Length so the
// storage can refuse an oversized file before reading it. A body over
// EXPECT_CONTINUE_BYTES waits for the storage's go-ahead (`Expect:
// 100-continue`), so such a refusal arrives before a byte is sent and is read,
// not lost to a reset connection mid-body (a write EPIPE, #13); a storage that
// never answers the Expect gets the body after CONTINUE_WAIT_MS anyway. A
// smaller body goes with its headers, as curl sends one under 1 MiB (#27: the
// wait was a round trip per creative of a folder sync, for a refusal that costs
// at most that MiB). Direct, the PUT rides the client's pooled keep-alive
// connections (`pooled`); a storage's early answer drops its connection.
// No deadline on the whole PUT: a long upload whose bytes keep moving is
// bounded by its idle timer only.
import type { Agent, IncomingMessage } from 'node:http';
import { proxyAuthRefused, type Env } from './proxy.js';
import { connectionFor, finalFailure } from './proxy-route.js';
import { abortReason } from './retry.js';
import { codeOf, NOT_SENT_CODES, type TransportFailureKind } from './transport.js';

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
  /** The client transport's keep-alive agent of a scheme, for a direct PUT; a fresh connection when absent. */
  pooled?: (protocol: 'http:' | 'https:') => Promise<Agent>;
}

/**
 * The bytes of one PUT, pulled as the socket takes them. Pulled, not piped:
 * the PUT hands back each chunk once the socket has flushed it, so the source
 * can read the next bytes into the same memory (fresh buffers for every MiB
 * cost a 1 GiB upload more CPU than sending it; docs/performance.md).
 */
export interface PutBody {
  /** The next bytes, or null once all were given; a rejection fails the PUT with that error. */
  next(): Promise<Buffer | null>;
  /** Bytes from next() that the socket no longer needs. */
  release(bytes: Buffer): void;
  /** Stop early (an answer came first, or a failure): frees what it holds. */
  close(): void;
}

/** One write to the socket: each flushed one is progress the idle timer sees, also on a slow link (#13). */
const SLICE_BYTES = 64 * 1024;
/** At most this much written and not yet flushed (two slices): see pump(). */
const MAX_UNFLUSHED_BYTES = 2 * SLICE_BYTES;

/** What an aborted read or PUT fails with: the signal's reason, else an AbortError (what the flow counts as interrupted). */
export const abortError = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : Object.assign(new Error('aborted'), { name: 'AbortError' });

export interface PutResult {
  status: number;
  /** Parsed JSON when the answer is JSON, else its text (first 64 KiB). */
  body: unknown;
  /** The answer's Retry-After, for the retry policy. */
  retryAfter?: string;
}

/** The PUT failed without an answer; `sent` says whether every byte left us, `kind` what failed. */
export class PutNetworkError extends Error {
  override readonly name = 'PutNetworkError';
  readonly kind: TransportFailureKind;
  constructor(
    message: string,
    readonly sent: boolean,
    options?: { cause?: unknown; kind?: TransportFailureKind },
  ) {
    super(message, options);
    const code = codeOf(options?.cause);
    this.kind = options?.kind ?? (code !== undefined && NOT_SENT_CODES.has(code) ? 'connect' : 'lost');
  }
}

const MAX_ANSWER = 64 * 1024;
/** How long to wait for a 100 Continue before sending the body unasked. */
export const CONTINUE_WAIT_MS = 1000;
/** Over this many bytes a PUT asks `Expect: 100-continue` first (curl's threshold). */
export const EXPECT_CONTINUE_BYTES = 1024 * 1024;

const seconds = (ms: number) => `${ms % 1000 === 0 ? ms / 1000 : (ms / 1000).toFixed(1)} s`;

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

export async function putBytes(url: string, open: () => PutBody, opts: PutOptions): Promise<PutResult> {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`upload URL has an unsupported scheme: ${target.protocol}`);
  // Direct, or behind a proxy (a CONNECT tunnel, or plain forwarding): the storage origin's own decision.
  const via = await connectionFor(target, opts.env ?? process.env, undefined, opts.userAgent, opts.pooled);
  const expectContinue = opts.sizeBytes > EXPECT_CONTINUE_BYTES;
  const send = via.send;
  const idleMs = opts.idleTimeoutMs ?? 60_000;
  return new Promise<PutResult>((resolve, reject) => {
    if (opts.signal?.aborted) return reject(abortReason(opts.signal));
    let sentAll = false;
    let settled = false;
    /** No more bytes go out (an answer came, or the PUT failed). */
    let stopped = false;
    let body: PutBody | undefined;
    const req = send(via.url, {
      ...(via.path ? { path: via.path } : {}),
      method: 'PUT',
      // Only these headers: never Authorization, never a cookie.
      headers: {
        'content-type': opts.contentType,
        'content-length': String(opts.sizeBytes),
        ...(expectContinue ? { expect: '100-continue' } : {}),
        'user-agent': opts.userAgent ?? 'adops',
        ...via.headers,
      },
      // The transport's pool when direct: its idle sockets hold no process open, and close with it.
      agent: via.agent,
    });
    /** Wakes a pump waiting for a flush. */
    let wake: (() => void) | undefined;
    const stop = () => {
      stopped = true;
      body?.close();
      wake?.();
    };
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      cleanup();
      stop();
      req.destroy();
      reject(err);
    };
    // Our own idle timer, reset whenever bytes move either way: node's socket timeout
    // lets a stalled write run about twice the time it is given (#13).
    const idle = setTimeout(() => fail(new PutNetworkError(`no progress for ${seconds(idleMs)}`, sentAll, { kind: 'timeout' })), idleMs);
    const progressed = () => idle.refresh();
    const goAhead = expectContinue ? setTimeout(() => sendBody(), CONTINUE_WAIT_MS) : undefined;
    const onAbort = () => fail(abortError(opts.signal!));
    const cleanup = () => {
      clearTimeout(idle);
      clearTimeout(goAhead);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    // A proxy's 407 or a refused certificate: sending again cannot help.
    req.on('error', (err) => {
      const final = finalFailure(err, target.host);
      if (final) return fail(final);
      // The storage's origin only: the URL's path and query carry its token.
      const broken = new PutNetworkError(err.message, sentAll, { cause: err });
      const what = broken.kind === 'connect' ? `cannot connect to ${target.origin}` : `the connection to ${target.origin} failed`;
      fail(new PutNetworkError(`${what} (${codeOf(err) ?? err.message})`, sentAll, { cause: err }));
    });
    req.on('continue', () => {
      progressed();
      sendBody();
    });
    req.on('response', (res) => {
      clearTimeout(goAhead);
      if (via.forwardedBy && res.statusCode === 407) return fail(proxyAuthRefused(via.forwardedBy));
      // The storage may answer early (413, 409) without reading the body: stop sending (or never start).
      if (!sentAll) stop();
      res.on('data', progressed);
      readAnswer(res).then(
        (answer) => {
          if (settled) return;
          settled = true;
          cleanup();
          stop();
          // Answered before the body ended: drop the half-sent request rather than leave its socket open.
          if (!sentAll) req.destroy();
          const retryAfter = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, body: answer, ...(retryAfter ? { retryAfter } : {}) });
        },
        (err: Error) => fail(new PutNetworkError(err.message, sentAll, { cause: err })),
      );
    });
    function sendBody() {
      clearTimeout(goAhead);
      if (body || settled || stopped) return;
      body = open();
      pump(body).catch((err: Error) => fail(err));
    }
    /** Bytes written but not yet flushed to the socket. */
    let unflushed = 0;
    /** Resolves once some written bytes were flushed, or nothing more is to be sent. */
    const someFlushed = () =>
      new Promise<void>((go) => {
        const done = () => {
          req.off('close', done);
          wake = undefined;
          go();
        };
        wake = done;
        req.on('close', done);
      });
    async function pump(source: PutBody) {
      let sent = 0;
      for (;;) {
        const chunk = await source.next();
        if (stopped) return;
        if (!chunk) {
          sentAll = true;
          req.end();
          return;
        }
        // The chunk goes back to the source once every slice of it has been flushed.
        let left = Math.ceil(chunk.length / SLICE_BYTES);
        for (let at = 0; at < chunk.length; at += SLICE_BYTES) {
          // A bounded few slices out at a time: the socket writes queued slices in one
          // batch and calls back when the batch is out, so each callback (progress for
          // the idle timer) stays a slice or two apart, also on a slow link.
          while (unflushed >= MAX_UNFLUSHED_BYTES && !stopped && !req.destroyed) await someFlushed();
          if (stopped || req.destroyed) return;
          const slice = chunk.subarray(at, Math.min(at + SLICE_BYTES, chunk.length));
          unflushed += slice.length;
          req.write(slice, () => {
            unflushed -= slice.length;
            progressed();
            if (--left === 0) source.release(chunk);
            wake?.();
          });
        }
        sent += chunk.length;
        progressed();
        opts.onProgress?.(sent);
      }
    }
    // The headers go now; a large body waits for the go-ahead, a small one goes with them.
    if (expectContinue) req.flushHeaders();
    else sendBody();
  });
}
