// One request's way to its origin behind a proxy, in node:http terms, for a
// caller that opens its own request (the upload PUT, ./upload-put.ts):
// an https origin through a CONNECT tunnel (undici loads then), an http origin
// by plain forwarding (the absolute URL sent to the proxy). Direct, it rides
// the transport's pooled keep-alive connections when the caller passes them
// (#27: a connection per file of a folder sync cost a connect and an accept).
import * as http from 'node:http';
import { forwardedHeaders, proxyFor, ProxyRefusedError, type Env, type ProxyRoute } from './proxy.js';
import { certificateError, TlsCertificateError } from './transport.js';

export interface Via {
  send: typeof http.request;
  /** Where to connect (the origin, or the forwarding proxy). */
  url: URL;
  /** The request target when it is not url's path (absolute-form, for forwarding). */
  path?: string;
  headers: Record<string, string>;
  agent: http.Agent | false;
  /** Set when forwarding: an answer 407 is this proxy's, not the origin's. */
  forwardedBy?: ProxyRoute;
}

/**
 * The way to `target`: direct (on `pooled`'s keep-alive connections when given, else a fresh one),
 * or through the proxy its origin's variables name (a fresh connection).
 */
export async function connectionFor(
  target: URL,
  env: Env,
  connectTimeoutMs?: number,
  userAgent?: string,
  pooled?: (protocol: 'http:' | 'https:') => Promise<http.Agent>,
): Promise<Via> {
  const proxy = proxyFor(target, env);
  if (!proxy) {
    const https = target.protocol === 'https:';
    return {
      send: https ? (await import('node:https')).request : http.request,
      url: target,
      headers: {},
      agent: pooled ? await pooled(https ? 'https:' : 'http:') : false,
    };
  }
  if (target.protocol === 'https:') {
    const [{ request }, { tunnelAgent }] = await Promise.all([import('node:https'), import('./proxy-tunnel.js')]);
    return {
      send: request,
      url: target,
      headers: {},
      agent: tunnelAgent(proxy, { keepAlive: false, ...(connectTimeoutMs ? { connectTimeoutMs } : {}), ...(userAgent ? { userAgent } : {}) }),
    };
  }
  const send = proxy.protocol === 'https:' ? (await import('node:https')).request : http.request;
  return {
    send,
    url: new URL(proxy.origin),
    path: target.href,
    headers: forwardedHeaders(proxy, target),
    agent: false,
    forwardedBy: proxy,
  };
}

/** A failure that sending again cannot cure (the proxy's 407, a refused certificate), typed; else undefined. */
export function finalFailure(err: unknown, host: string): Error | undefined {
  if (err instanceof ProxyRefusedError || err instanceof TlsCertificateError) return err;
  return certificateError(err, host);
}
