// The node HTTP server around the app. close() stops accepting, lets requests
// in flight finish (idle keep-alive sockets are closed at once, busy ones when
// their answer is sent), and gives up on stragglers after a grace period.
//
// Requests node refuses before the app sees them (a malformed request, headers
// too large or too slow) and connections that stall mid-request are answered in
// the spec's JSON error shape, never node's empty 400/408/431.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ServiceError } from './models/errors.js';
import { rawErrorResponse, refusalOf } from './http/raw-errors.js';
import { fail } from './http/errors.js';
import { httpLimits } from './http/limits.js';
import type { HttpLimits } from './http/limits.js';

export interface Listening {
  host: string;
  port: number;
  close(): Promise<void>;
}

export interface FetchApp {
  fetch: (request: Request) => Response | Promise<Response>;
}

export interface ListenOptions {
  graceMs?: number;
  limits?: Partial<HttpLimits>;
  /**
   * Paths whose handler gives a client's `Expect: 100-continue` its go-ahead
   * itself, once it means to read the body (the storage endpoint: an upload
   * refused at once is answered before the client sends a byte). Elsewhere the
   * go-ahead is given at once, as node does by default.
   */
  holdsContinue?: (path: string) => boolean;
}

/**
 * Listen on host:port and answer with `app` (@hono/node-server's request listener, as its
 * `serve()` builds it). `app` may be a promise: the socket listens at once, and a request that
 * comes before the app is there waits for it (then answers 500 internal if it never comes).
 * @hono/node-server is loaded with the app: loading it touches the global Response, which loads
 * Node's bundled undici.
 */
export function listen(app: FetchApp | Promise<FetchApp>, host: string, port: number, options: ListenOptions = {}): Promise<Listening> {
  const limits = httpLimits(options.limits);
  type Listener = (req: IncomingMessage, res: ServerResponse) => void;
  let listener: Listener | undefined;
  const loaded: Promise<Listener> = Promise.all([app, import('@hono/node-server')]).then(([{ fetch }, { getRequestListener }]) => {
    const answer = getRequestListener(fetch, { hostname: host });
    listener = (req, res) => void answer(req, res);
    return listener;
  });
  // Handled where it matters: a request that waits answers 500; the caller sees its own promise fail.
  loaded.catch(() => undefined);
  // Node checks header and request deadlines on this interval (default 30 s).
  const server = createServer({ connectionsCheckingInterval: Math.min(1000, limits.headersMs) }, (req, res) => {
    if (listener) return listener(req, res);
    loaded.then(
      (answer) => answer(req, res),
      () => answerRaw(req.socket, fail('internal', 'The sandbox failed unexpectedly; this is a bug in the sandbox.', {}, 500)),
    );
  });
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolve({ host, port: typeof address === 'object' && address ? address.port : port, close: () => closeServer(server, options.graceMs ?? 5000) });
    });
    guard(server, limits);
    const holds = options.holdsContinue;
    if (holds) {
      server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
        if (!holds(req.url ?? '')) res.writeContinue();
        server.emit('request', req, res);
      });
    }
    server.once('error', onError);
  });
}

function guard(server: Server, limits: HttpLimits): void {
  server.headersTimeout = limits.headersMs;
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => answerRaw(socket, refusalOf(err.code)));

  // Socket inactivity with a request in flight (a body that stopped coming, an upload that
  // stalled): answer 408 if nothing was answered yet, and close either way.
  const current = new WeakMap<Socket, ServerResponse>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    current.set(req.socket, res);
    res.once('finish', () => {
      // Pipelined requests: a later one may already be the socket's current.
      if (current.get(req.socket) === res) current.delete(req.socket);
      if (!req.complete) lingerClose(req);
      // Closing: the connection this answer leaves idle is closed now, not at the grace's end
      // (close() closes only the connections idle when it is called).
      if (closing.has(server)) setImmediate(() => server.closeIdleConnections());
    });
  });
  server.timeout = limits.idleMs;
  server.on('timeout', (socket: Socket) => {
    const res = current.get(socket);
    if (res && !res.headersSent) answerRaw(socket, refusalOf('ERR_HTTP_REQUEST_TIMEOUT'));
    else socket.destroy();
  });
}

/** How long a request answered before its body ended may go on sending (read and discarded). */
const LINGER_MS = 2000;

/**
 * Answered before the request's body was all read (413 past a cap, 401 without reading, a storage
 * refusal): the client may still be sending. Closing now, with its bytes unread, resets the
 * connection and the client loses the answer it has not read yet (a write EPIPE instead of the
 * 413). So the connection stays open: Node reads and discards the rest of the body (and the
 * client, having read the answer, usually stops and closes), and a client still sending after
 * LINGER_MS is cut off. Bounded in time, never buffered; a client that stops in time keeps its
 * keep-alive connection.
 */
function lingerClose(req: IncomingMessage): void {
  const socket = req.socket;
  if (socket.destroyed) return;
  // A body read in part (a cap) is paused: flow the rest into nothing, or the client's writes stall.
  req.resume();
  const timer = setTimeout(() => {
    if (!req.complete) socket.destroy();
  }, LINGER_MS);
  timer.unref();
  // Done once the body has ended (the connection lives on, kept alive) or the socket closed. Both
  // listeners go with it: a keep-alive socket answering many bodies early would gather them.
  const done = () => {
    clearTimeout(timer);
    socket.off('close', done);
    req.off('end', done);
  };
  socket.once('close', done);
  req.once('end', done);
}

/** Write a whole JSON error response straight to the socket, then close it. */
function answerRaw(socket: Duplex, refusal: ServiceError | null): void {
  // A peer that reset, or a socket already mid-answer: nothing sensible can be written.
  const message: unknown = '_httpMessage' in socket ? socket._httpMessage : undefined;
  const busy = typeof message === 'object' && message !== null && 'headersSent' in message && message.headersSent === true;
  if (!socket.writable || busy || refusal === null) {
    socket.destroy();
    return;
  }
  socket.end(rawErrorResponse(refusal));
  // A peer that stops reading must not keep the socket open.
  setTimeout(() => socket.destroy(), 1000).unref();
}

/** Servers whose close() has begun: guard() closes each connection as its last answer ends. */
const closing = new WeakSet<Server>();

function closeServer(server: Server, graceMs: number): Promise<void> {
  closing.add(server);
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
