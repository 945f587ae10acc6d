// The real transport: node:http / node:https with one keep-alive agent per
// scheme per process. Public APIs only, and the cheapest start-up measured for
// a CLI's few requests (docs/decisions.md, "CLI transport and client"):
// node:https (TLS) loads only for an https origin.
import { once } from 'node:events';
import * as http from 'node:http';
import type { Readable } from 'node:stream';
import { forwardedHeaders, proxyAuthRefused, type ProxyRoute } from './proxy.js';
import { finalFailure } from './proxy-route.js';
import { MAX_TIMER_MS } from './answer.js';
import { abortReason } from './retry.js';
import { unwatchAbort, watchAbort, type AbortWatch } from './abort-watchers.js';
import { causeOf, codeOf, NOT_SENT_CODES, TransportError, type Transport, type TransportRequest, type TransportResponse } from './transport.js';

function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = codeOf(e);
    if (code !== undefined) return code;
    e = causeOf(e);
  }
  return undefined;
}

type RequestFn = typeof http.request;

/**
 * Idle sockets close after 4 s, under the 5 s keep-alive of Node servers (and
 * many proxies): a POST after a long wait (throttling) never goes out on a
 * socket the server is closing, where a lost answer could not be retried.
 */
export const IDLE_SOCKET_MS = 4_000;

export function nodeTransport(opts: { idleSocketMs?: number } = {}): Transport {
  const idleSocketMs = opts.idleSocketMs ?? IDLE_SOCKET_MS;
  // Each origin parsed once (#37: a URL per request of a bulk run); a run talks to a handful of them.
  const origins = new Map<string, URL>();
  const urlOf = (origin: string): URL => {
    let url = origins.get(origin);
    if (!url) {
      if (origins.size >= 64) origins.clear();
      origins.set(origin, (url = new URL(origin)));
    }
    return url;
  };

  // Each scheme's module and its keep-alive agent, made once (#37: no await, and no object, per request of a bulk
  // run); emptied by close().
  const ready = new Map<string, { request: RequestFn; agent: http.Agent }>();
  async function moduleFor(protocol: string): Promise<{ request: RequestFn; agent: http.Agent }> {
    const known = ready.get(protocol);
    if (known) return known;
    const mod: { request: RequestFn; Agent: typeof http.Agent } = protocol === 'https:' ? await import('node:https') : http;
    // Made while awaiting import('node:https') by a request sent at the same time: that one, not a second agent.
    const made = ready.get(protocol) ?? { request: mod.request, agent: new mod.Agent({ keepAlive: true, maxSockets: 8, timeout: idleSocketMs }) };
    ready.set(protocol, made);
    return made;
  }

  // Behind a proxy, per proxy and credentials: https agents whose sockets are TLS inside CONNECT tunnels.
  const tunnels = new Map<string, http.Agent>();
  async function tunnelFor(
    route: ProxyRoute,
    connectTimeoutMs: number | undefined,
    userAgent: string | undefined,
  ): Promise<{ request: RequestFn; agent: http.Agent }> {
    const key = `${route.origin} ${route.authorization ?? ''}`;
    const https = await import('node:https');
    let agent = tunnels.get(key);
    if (!agent) {
      const { tunnelAgent } = await import('./proxy-tunnel.js');
      tunnels.set(
        key,
        (agent = tunnelAgent(route, {
          keepAlive: true,
          maxSockets: 8,
          timeout: idleSocketMs,
          ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}),
          ...(userAgent ? { userAgent } : {}),
        })),
      );
    }
    return { request: https.request, agent };
  }

  return {
    keepsDeadlines: true,
    async send(req: TransportRequest): Promise<TransportResponse> {
      req.signal?.throwIfAborted();
      const url = urlOf(req.origin);
      if (req.proxy && url.protocol === 'https:') {
        const { request, agent } = await tunnelFor(req.proxy, req.connectTimeoutMs, req.headers['user-agent']);
        return exchange(request, agent, url, req);
      }
      const protocol = req.proxy ? req.proxy.protocol : url.protocol;
      const { request, agent } = ready.get(protocol) ?? (await moduleFor(protocol));
      return exchange(request, agent, url, req, req.proxy);
    },
    async pooledAgent(protocol) {
      return (await moduleFor(protocol)).agent;
    },
    async close() {
      for (const { agent } of ready.values()) agent.destroy();
      for (const agent of tunnels.values()) agent.destroy();
      ready.clear();
      if (tunnels.size === 0) return;
      tunnels.clear();
      await (await import('./proxy-tunnel.js')).closeTunnels();
    },
  };
}

/** One request; `forward`: sent to that proxy as an absolute URL (plain http forwarding). */
function exchange(request: RequestFn, agent: http.Agent, url: URL, req: TransportRequest, forward?: ProxyRoute): Promise<TransportResponse> {
  return new Promise((resolve, reject) => {
    let connected = false;
    let response: http.IncomingMessage | undefined;
    let settled = false;
    const where = url.origin;
    const creq = request({
      protocol: forward ? forward.protocol : url.protocol,
      hostname: forward ? forward.hostname : url.hostname.replace(/^\[|\]$/g, ''),
      port: forward ? forward.port : url.port || undefined,
      method: req.method,
      path: forward ? url.origin + req.path : req.path,
      headers: forward ? { ...req.headers, ...forwardedHeaders(forward, url) } : req.headers,
      agent,
    });

    // One way out for every failure, before or after the answer's head arrived.
    const fail = (err: Error) => {
      clearTimeout(connectTimer);
      clearTimeout(deadlineTimer);
      if (watching) unwatchAbort(watching);
      if (response) response.destroy(err);
      else creq.destroy(err);
      if (!settled) {
        settled = true;
        reject(err);
      }
    };
    const signal = req.signal;
    const watching: AbortWatch | undefined = signal ? watchAbort(signal, () => fail(abortReason(signal))) : undefined;
    const deadlineTimer = deadlineTimerOf(req.deadline, fail);

    // 0 (--connect-timeout 0) is no bound of ours, as --request-timeout 0 is: the system's own, never "at once".
    // None for a request the agent gave a connected keep-alive socket as it was made (`reusedSocket`, set then: #37
    // session 14, a timer made and cleared per request of a bulk run); a new socket, or a wait for one, is bounded.
    const connectMs = req.connectTimeoutMs ?? 10_000;
    const connectTimer =
      connectMs > 0 && !creq.reusedSocket
        ? setTimeout(() => fail(new TransportError(`could not connect to ${where} within ${connectMs} ms`, 'timeout', false, 'ECONNECT_TIMEOUT')), connectMs)
        : undefined;
    creq.on('socket', (socket) => {
      const connectedNow = () => {
        connected = true;
        clearTimeout(connectTimer);
      };
      if (socket.connecting) socket.once('connect', connectedNow);
      else connectedNow();
    });
    if (req.idleTimeoutMs) {
      // Socket inactivity, both ways: a long upload or download that keeps moving never times out.
      creq.setTimeout(req.idleTimeoutMs, () =>
        fail(new TransportError(`no data from ${where} for ${Math.round(req.idleTimeoutMs! / 100) / 10} s`, 'timeout', connected, 'EIDLE_TIMEOUT')),
      );
    }
    creq.on('error', (err) => {
      if (err instanceof TransportError || req.signal?.aborted) return fail(req.signal?.aborted ? abortReason(req.signal) : err);
      // The proxy's 407, a refused certificate: typed, so the client does not retry them.
      const final = finalFailure(err, url.host);
      if (final) return fail(final);
      const code = errorCode(err);
      const sent = connected && !(code !== undefined && NOT_SENT_CODES.has(code));
      const kind = sent ? 'lost' : 'connect';
      const text = sent ? `connection to ${where} failed before the answer arrived` : `cannot connect to ${where}`;
      fail(new TransportError(`${text} (${code ?? err.message})`, kind, sent, code, { cause: err }));
    });
    creq.on('response', (res) => {
      if (forward && res.statusCode === 407) {
        res.resume();
        return fail(proxyAuthRefused(forward));
      }
      response = res;
      clearTimeout(connectTimer);
      res.on('end', () => {
        clearTimeout(deadlineTimer);
        if (watching) unwatchAbort(watching);
      });
      // A body left unread and destroyed (past the answer cap) ends no deadline of ours either.
      res.once('close', () => clearTimeout(deadlineTimer));
      // A connection cut mid-body: iterating the body throws a TransportError, not a bare 'aborted'.
      res.on('aborted', () => fail(new TransportError(`connection to ${where} was cut before the answer ended`, 'lost', true, 'ECONNRESET')));
      settled = true;
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res });
    });

    // A body in hand is written at once (#37: no async function and its promises, per request of a bulk run).
    const body = req.body;
    try {
      if (body === undefined) creq.end();
      else if (typeof body === 'string' || Buffer.isBuffer(body)) endWith(creq, body, req.onProgress);
      else writeStream(creq, body, req.onProgress).catch((err: Error) => fail(err));
    } catch (err) {
      fail(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

/** The request's deadline as a timer failing the exchange; none when there is none, or it is past what a timer holds. */
function deadlineTimerOf(deadline: TransportRequest['deadline'], fail: (err: Error) => void): NodeJS.Timeout | undefined {
  if (!deadline || deadline.ms > MAX_TIMER_MS) return undefined;
  return setTimeout(() => fail(deadline.error()), Math.max(0, deadline.ms));
}

function endWith(creq: http.ClientRequest, body: string | Buffer, onProgress: TransportRequest['onProgress']): void {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  if (!creq.hasHeader('content-length')) creq.setHeader('content-length', buf.length);
  creq.end(buf, onProgress ? () => onProgress(buf.length) : undefined);
}

async function writeStream(creq: http.ClientRequest, body: Readable, onProgress: TransportRequest['onProgress']): Promise<void> {
  let sent = 0;
  for await (const chunk of body) {
    if (creq.destroyed) return;
    const data: unknown = chunk;
    const buf =
      typeof data === 'string'
        ? Buffer.from(data)
        : data instanceof Uint8Array
          ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
          : Buffer.from(String(data));
    if (!creq.write(buf)) await drained(creq);
    sent += buf.length;
    onProgress?.(sent);
  }
  creq.end();
}

/** 'drain', or the request ended some other way (its error is handled by the 'error' listener). */
async function drained(creq: http.ClientRequest): Promise<void> {
  const ac = new AbortController();
  await Promise.race([once(creq, 'drain', { signal: ac.signal }), once(creq, 'close', { signal: ac.signal })]).catch(() => {});
  ac.abort();
}
