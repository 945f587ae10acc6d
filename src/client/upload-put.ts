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
import type { Agent, ClientRequest, IncomingMessage } from 'node:http';
import { proxyAuthRefused, type Env } from './proxy.js';
import { connectionFor, finalFailure, type Via } from './proxy-route.js';
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
  /**
   * All the bytes at once, when the body already holds them (a small file read whole): handed to
   * the socket with the request's end, without the pull loop. Given, next() gives nothing more.
   */
  allAtOnce?(): Buffer;
}

/** One write to the socket: each flushed one is progress the idle timer sees, also on a slow link (#13). */
const SLICE_BYTES = 64 * 1024;
/** At most this much written and not yet flushed (two slices): see writeChunk(). */
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
  return new Promise<PutResult>((resolve, reject) => {
    if (opts.signal?.aborted) return reject(abortReason(opts.signal));
    const flight = takeOff(via, open, opts, { resolve, reject });
    listen(flight, target, via);
    // The headers go now; a large body waits for the go-ahead, a small one goes with them.
    if (flight.expectContinue) flight.req.flushHeaders();
    else sendBody(flight);
  });
}

/** One PUT in flight: what its listeners, its timers and the pump that writes its body share. */
interface Flight {
  readonly req: ClientRequest;
  readonly open: () => PutBody;
  readonly opts: PutOptions;
  readonly settle: { resolve: (r: PutResult) => void; reject: (err: Error) => void };
  /** The body waits for the storage's go-ahead (`Expect: 100-continue`). */
  readonly expectContinue: boolean;
  /** Our own idle timer, reset whenever bytes move either way (see progressed). */
  readonly idle: NodeJS.Timeout;
  /** Sends the body unasked if no 100 Continue came (only when `Expect: 100-continue` was sent). */
  readonly goAhead: NodeJS.Timeout | undefined;
  readonly onAbort: () => void;
  /** Every byte was handed to the socket. */
  sentAll: boolean;
  /** Resolved or rejected: whatever comes later is ignored. */
  settled: boolean;
  /** No more bytes go out (an answer came, or the PUT failed). */
  stopped: boolean;
  body: PutBody | undefined;
  /** Wakes a pump waiting for a flush. */
  wake: (() => void) | undefined;
  /** Bytes written but not yet flushed to the socket. */
  unflushed: number;
}

/** The request sent (headers first), its idle and go-ahead timers and Ctrl-C armed. */
function takeOff(via: Via, open: () => PutBody, opts: PutOptions, settle: Flight['settle']): Flight {
  const expectContinue = opts.sizeBytes > EXPECT_CONTINUE_BYTES;
  const idleMs = opts.idleTimeoutMs ?? 60_000;
  const req = via.send(via.url, {
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
  const flight: Flight = {
    req,
    open,
    opts,
    settle,
    expectContinue,
    // Our own, not node's socket timeout: that lets a stalled write run about twice the time it is given (#13).
    idle: setTimeout(() => fail(flight, new PutNetworkError(`no progress for ${seconds(idleMs)}`, flight.sentAll, { kind: 'timeout' })), idleMs),
    goAhead: expectContinue ? setTimeout(() => sendBody(flight), CONTINUE_WAIT_MS) : undefined,
    onAbort: () => fail(flight, abortError(opts.signal!)),
    sentAll: false,
    settled: false,
    stopped: false,
    body: undefined,
    wake: undefined,
    unflushed: 0,
  };
  opts.signal?.addEventListener('abort', flight.onAbort, { once: true });
  return flight;
}

/** Bytes moved (either way): the idle timer starts again. */
const progressed = (f: Flight) => f.idle.refresh();

/** No more bytes go out: the body is closed and a pump waiting for a flush wakes to see it. */
function stop(f: Flight): void {
  f.stopped = true;
  f.body?.close();
  f.wake?.();
}

/** Timers cleared and Ctrl-C no longer heard: the PUT is over. */
function disarm(f: Flight): void {
  clearTimeout(f.idle);
  clearTimeout(f.goAhead);
  f.opts.signal?.removeEventListener('abort', f.onAbort);
}

/** The PUT fails with `err` (the first failure or answer wins). */
function fail(f: Flight, err: Error): void {
  if (f.settled) return;
  f.settled = true;
  disarm(f);
  stop(f);
  f.req.destroy();
  f.settle.reject(err);
}

/** The storage answered (maybe early, before the body ended): the PUT ends with its answer. */
function answered(f: Flight, res: IncomingMessage, answer: unknown): void {
  if (f.settled) return;
  f.settled = true;
  disarm(f);
  stop(f);
  // Answered before the body ended: drop the half-sent request rather than leave its socket open.
  if (!f.sentAll) f.req.destroy();
  const retryAfter = res.headers['retry-after'];
  f.settle.resolve({ status: res.statusCode ?? 0, body: answer, ...(retryAfter ? { retryAfter } : {}) });
}

/** The request's events: a failure, the storage's go-ahead, its answer. */
function listen(f: Flight, target: URL, via: Via): void {
  // A proxy's 407 or a refused certificate: sending again cannot help.
  f.req.on('error', (err) => {
    const final = finalFailure(err, target.host);
    if (final) return fail(f, final);
    // The storage's origin only: the URL's path and query carry its token.
    const broken = new PutNetworkError(err.message, f.sentAll, { cause: err });
    const what = broken.kind === 'connect' ? `cannot connect to ${target.origin}` : `the connection to ${target.origin} failed`;
    fail(f, new PutNetworkError(`${what} (${codeOf(err) ?? err.message})`, f.sentAll, { cause: err }));
  });
  f.req.on('continue', () => {
    progressed(f);
    sendBody(f);
  });
  f.req.on('response', (res) => {
    clearTimeout(f.goAhead);
    if (via.forwardedBy && res.statusCode === 407) return fail(f, proxyAuthRefused(via.forwardedBy));
    // The storage may answer early (413, 409) without reading the body: stop sending (or never start).
    if (!f.sentAll) stop(f);
    res.on('data', () => progressed(f));
    readAnswer(res).then(
      (answer) => answered(f, res, answer),
      (err: Error) => fail(f, new PutNetworkError(err.message, f.sentAll, { cause: err })),
    );
  });
}

/** Open the body and start writing it (once: at the go-ahead, or at once for a small body). */
function sendBody(f: Flight): void {
  clearTimeout(f.goAhead);
  if (f.body || f.settled || f.stopped) return;
  f.body = f.open();
  const whole = f.body.allAtOnce?.();
  // One slice or less, already in memory (#37): what pump() would write in one write and then end.
  if (whole && whole.length <= SLICE_BYTES) return endWith(f, whole);
  if (whole) f.body = oneChunk(whole);
  pump(f, f.body).catch((err: Error) => fail(f, err));
}

/** The request ended with `bytes` (one slice at most): the idle timer hears when they are flushed, as pump's write does. */
function endWith(f: Flight, bytes: Buffer): void {
  f.sentAll = true;
  if (bytes.length === 0) return void f.req.end();
  f.req.end(bytes, () => progressed(f));
  progressed(f);
  f.opts.onProgress?.(bytes.length);
}

/** Bytes given whole but larger than a slice, as a body pump() writes in slices. */
function oneChunk(bytes: Buffer): PutBody {
  let given = bytes.length === 0;
  return {
    next: () => {
      const chunk = given ? null : bytes;
      given = true;
      return Promise.resolve(chunk);
    },
    release: () => {},
    close: () => void (given = true),
  };
}

/** Resolves once some written bytes were flushed, or nothing more is to be sent. */
function someFlushed(f: Flight): Promise<void> {
  return new Promise<void>((go) => {
    const done = () => {
      f.req.off('close', done);
      f.wake = undefined;
      go();
    };
    f.wake = done;
    f.req.on('close', done);
  });
}

/** The body's chunks to the socket, as it flushes them, until the last (then the request ends). */
async function pump(f: Flight, source: PutBody): Promise<void> {
  let sent = 0;
  for (;;) {
    const chunk = await source.next();
    if (f.stopped) return;
    if (!chunk) {
      f.sentAll = true;
      f.req.end();
      return;
    }
    if (!(await writeChunk(f, source, chunk))) return;
    sent += chunk.length;
    progressed(f);
    f.opts.onProgress?.(sent);
  }
}

/**
 * One chunk, in slices; it goes back to the source once every slice of it has been flushed.
 * False when the PUT stopped meanwhile.
 */
async function writeChunk(f: Flight, source: PutBody, chunk: Buffer): Promise<boolean> {
  let left = Math.ceil(chunk.length / SLICE_BYTES);
  for (let at = 0; at < chunk.length; at += SLICE_BYTES) {
    // A bounded few slices out at a time: the socket writes queued slices in one
    // batch and calls back when the batch is out, so each callback (progress for
    // the idle timer) stays a slice or two apart, also on a slow link.
    while (f.unflushed >= MAX_UNFLUSHED_BYTES && !f.stopped && !f.req.destroyed) await someFlushed(f);
    if (f.stopped || f.req.destroyed) return false;
    const slice = chunk.subarray(at, Math.min(at + SLICE_BYTES, chunk.length));
    f.unflushed += slice.length;
    f.req.write(slice, () => {
      f.unflushed -= slice.length;
      progressed(f);
      if (--left === 0) source.release(chunk);
      f.wake?.();
    });
  }
  return true;
}
