// The HTTP client: one undici keep-alive Pool per origin per process, our own
// retry policy around it, typed errors, and a redacted --debug trace.
// Bodies are passed through untouched (no schema validation: the real service
// may send fields the sandbox does not).
import type { Readable } from 'node:stream';
import type { Pool as PoolClass } from 'undici';
import { ApiError, NetworkError } from './errors.js';
import { checkBaseUrl, joinPath } from './origin.js';
import { redactHeaders, redactUrl } from './redact.js';
import { DEFAULT_RETRY, realRetryDeps, runWithRetry, type AttemptOutcome, type RetryDeps, type RetryPolicy } from './retry.js';

export type QueryValue = string | number | boolean | undefined | null | readonly string[];

export interface ClientConfig {
  baseUrl: string;
  apiKey?: string;
  userAgent: string;
  connectTimeoutMs?: number;
  /** Bound on one attempt (headers and body). */
  requestTimeoutMs?: number;
  retry?: RetryPolicy;
  /** Receives --debug trace lines (already redacted). */
  trace?: (line: string) => void;
  deps?: RetryDeps;
}

export interface ApiRequest {
  method: string;
  /** Path under the base URL, starting with '/'; built with fillPath for user input. */
  path: string;
  query?: Record<string, QueryValue>;
  /** A JSON body. */
  json?: unknown;
  /** A streamed body, re-opened from its source on each attempt. */
  body?: () => Readable | string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  attempts: number;
}

type Pool = PoolClass;

// undici (its Pool only, see undici-pool.ts) loads on the first request, so
// commands that send none do not pay for it.
let poolModule: Promise<typeof import('./undici-pool.js')> | undefined;

const pools = new Map<string, Pool>();

async function poolFor(origin: string, connectTimeoutMs: number): Promise<Pool> {
  let pool = pools.get(origin);
  if (!pool) {
    const { Pool } = await (poolModule ??= import('./undici-pool.js'));
    pool = pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { connect: { timeout: connectTimeoutMs }, keepAliveTimeout: 10_000, connections: 8 });
      pools.set(origin, pool);
    }
  }
  return pool;
}

/** Close every pool of this process (the runner calls it before exiting). */
export async function closeAllPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  // Every request has finished when this runs: destroy, do not wait for idle keep-alive sockets to time out.
  await Promise.allSettled(all.map((p) => p.destroy()));
}

// undici/Node error codes meaning the connection never carried the request.
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_CONNECT', 'ERR_TLS_CERT_ALTNAME_INVALID', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export class ApiClient {
  readonly baseUrl: URL;
  private readonly config: ClientConfig;
  private readonly retry: RetryPolicy;
  private readonly deps: RetryDeps;

  constructor(config: ClientConfig) {
    this.baseUrl = checkBaseUrl(config.baseUrl);
    this.config = config;
    this.retry = config.retry ?? DEFAULT_RETRY;
    this.deps = config.deps ?? realRetryDeps;
  }

  private pool(): Promise<Pool> {
    return poolFor(this.baseUrl.origin, this.config.connectTimeoutMs ?? 10_000);
  }

  /** Send a request; resolve on 2xx, throw ApiError / NetworkError otherwise (after retries). */
  async request<T = unknown>(req: ApiRequest): Promise<ApiResponse<T>> {
    const method = req.method.toUpperCase();
    const target = joinPath(this.baseUrl, req.path) + queryString(req.query, req.path.includes('?'));
    const shownUrl = redactUrl(this.baseUrl.origin + target);
    const headers: Record<string, string> = {
      'user-agent': this.config.userAgent,
      accept: 'application/json',
      ...req.headers,
    };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;
    if (req.json !== undefined) headers['content-type'] = 'application/json';
    else if (req.body && req.contentType) headers['content-type'] = req.contentType;
    const trace = this.config.trace;
    type Attempt = { response?: ApiResponse<T>; error?: Error };

    const { result, attempts, gaveUp } = await runWithRetry<Attempt>({
      method,
      policy: this.retry,
      deps: this.deps,
      signal: req.signal,
      onRetry: ({ attempt, delayMs, outcome }) =>
        trace?.(`   retry ${attempt + 1}/${this.retry.maxAttempts} in ${delayMs} ms after ${describe(outcome)}`),
      attemptFn: async (attempt, remainingMs) => {
        const started = this.deps.now();
        if (attempt === 1) {
          trace?.(`→ ${method} ${shownUrl}`);
          trace?.(`  ${JSON.stringify(redactHeaders(headers))}`);
        }
        const timeoutMs = Math.max(1, Math.min(this.config.requestTimeoutMs ?? 30_000, remainingMs));
        const controller = new AbortController();
        const onAbort = () => controller.abort(req.signal?.reason);
        req.signal?.addEventListener('abort', onAbort, { once: true });
        let timedOut = false;
        const timer = setTimeout(() => {
          timedOut = true;
          controller.abort(new Error('timeout'));
        }, timeoutMs);
        try {
          const res = await (await this.pool()).request({
            method: method as 'GET',
            path: target,
            headers,
            body: req.json !== undefined ? JSON.stringify(req.json) : req.body?.(),
            signal: controller.signal,
          });
          const text = await res.body.text();
          const body = parseBody(text, String(res.headers['content-type'] ?? ''));
          trace?.(`← ${res.statusCode} ${method} ${shownUrl} ${this.deps.now() - started} ms (attempt ${attempt})`);
          const response: ApiResponse<T> = { status: res.statusCode, headers: res.headers, body: body as T, attempts: attempt };
          const code = body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : undefined;
          const retryAfter = res.headers['retry-after'];
          const outcome: AttemptOutcome = {
            kind: 'response',
            status: res.statusCode,
            ...(code !== undefined ? { code } : {}),
            retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
          };
          return { outcome, result: { response } };
        } catch (err) {
          if (req.signal?.aborted) throw req.signal.reason ?? err;
          const code = errorCode(err);
          const sent = !timedOut && code !== undefined ? !NOT_SENT_CODES.has(code) : true;
          const kind = timedOut ? 'timeout' : sent ? 'lost' : 'connect';
          const message = timedOut
            ? `no answer from ${this.baseUrl.origin} within ${timeoutMs} ms`
            : `${kind === 'connect' ? 'cannot connect to' : 'connection to'} ${this.baseUrl.origin}${kind === 'lost' ? ' failed before the answer arrived' : ''} (${code ?? (err as Error).message})`;
          trace?.(`✗ ${method} ${shownUrl} ${message} (attempt ${attempt})`);
          const error = new NetworkError(message, kind, sent, method, req.path, attempt, { cause: err });
          return { outcome: { kind: 'network', sent }, result: { error } };
        } finally {
          clearTimeout(timer);
          req.signal?.removeEventListener('abort', onAbort);
        }
      },
    });

    if (gaveUp) trace?.(`   giving up: ${gaveUp}`);
    if (result.error) {
      const e = result.error as NetworkError;
      throw new NetworkError(e.message + (attempts > 1 ? ` after ${attempts} attempts` : ''), e.kind, e.sent, method, req.path, attempts, { cause: e.cause });
    }
    const response = result.response!;
    if (response.status >= 200 && response.status < 300) return response;
    if (response.status >= 300 && response.status < 400) {
      const location = String(response.headers.location ?? '');
      throw new ApiError({
        status: response.status,
        body: { error: 'redirect_refused', message: `the service redirected to ${redactUrl(location) || 'another place'}; adops does not follow redirects (the key goes only to the configured base URL)` },
        method,
        path: req.path,
      });
    }
    throw new ApiError({ status: response.status, body: response.body, method, path: req.path });
  }
}

function describe(outcome: AttemptOutcome): string {
  return outcome.kind === 'response' ? `${outcome.status}${outcome.code ? ` ${outcome.code}` : ''}` : outcome.sent ? 'lost answer' : 'connection failure';
}

export function queryString(query: Record<string, QueryValue> | undefined, hasQuery = false): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = params.toString();
  return text ? (hasQuery ? '&' : '?') + text : '';
}

function parseBody(text: string, contentType: string): unknown {
  if (text === '') return undefined;
  if (contentType.includes('json') || /^[[{]/.test(text.trimStart())) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
