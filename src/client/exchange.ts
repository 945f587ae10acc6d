// One request as the client sends it, whatever attempt: where it goes (origin,
// path, whether it is our origin), what it carries (headers), which way (the
// proxy decision) and under which policy. Built once per request; every attempt
// and the final verdict read it.
import type { AnswerTable } from '../contract/errors.js';
import type { ProxyDecision, ProxyRoute } from './proxy.js';
import type { ApiRequest } from './request.js';
import type { RetryPolicy } from './retry.js';

export interface Exchange {
  req: ApiRequest;
  /** Upper-case. */
  method: string;
  origin: string;
  /** Path and query as sent. */
  path: string;
  /** The configured origin: the only one that gets the key. */
  own: boolean;
  /** origin + path, secrets masked: the only form a trace or a message shows. */
  shownUrl: string;
  headers: Record<string, string>;
  route: ProxyDecision;
  /** The route's proxy, when it goes through one. */
  proxy: ProxyRoute | undefined;
  policy: RetryPolicy;
  table: AnswerTable;
  idleTimeoutMs: number;
  /** The latest answer's `provider` field, for the wait note. */
  lastProvider?: string | undefined;
  /** The Content-Type of a 2xx from our origin that was not JSON: not the service's answer. */
  notJson?: string;
}

const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

/** The headers of every attempt. The key goes to our own origin only. */
export function requestHeaders(req: ApiRequest, own: boolean, userAgent: string, apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': userAgent, accept: 'application/json' };
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    // Credentials come from the configuration only, never from a caller (and never leave our origin).
    if (!CREDENTIAL_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
  }
  if (own && apiKey) headers.authorization = `Bearer ${apiKey}`;
  if (req.json !== undefined) headers['content-type'] = 'application/json';
  else if (req.body && req.contentType) headers['content-type'] = req.contentType;
  if (req.body && req.contentLength !== undefined) headers['content-length'] = String(req.contentLength);
  return headers;
}

/** The route's trace line (--debug), if any: only the masked proxy URL is ever shown. */
export function routeTrace(route: ProxyDecision, origin: string): string | undefined {
  if (route.kind === 'proxy') {
    const { shown, variable } = route.route;
    return `  via proxy ${shown} (from ${variable})${origin.startsWith('https:') ? ', CONNECT tunnel' : ', forwarded'}`;
  }
  return route.kind === 'bypass' ? `  direct, not via the proxy: ${route.reason}` : undefined;
}
