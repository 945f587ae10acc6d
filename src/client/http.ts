// The HTTP client: an injected Transport (node:http by default, a stub
// registry in tests), our own retry policy around it, typed errors, and a
// redacted --debug trace. Bodies are passed through untouched (no schema
// validation: the real service may send fields the sandbox does not).
//
// The key goes to the configured origin only: a request for any other origin
// (an upload URL the service returned) is sent with no Authorization header,
// whatever the caller passed, so every caller is covered.
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { normalizeApiKey } from '../config/key.js';
import { AnswerTooLargeError, attemptDeadline, MAX_ANSWER_BYTES, readCapped } from './answer.js';
import { ApiError, NetworkError } from './errors.js';
import { nodeTransport } from './node-transport.js';
import { checkBaseUrl, joinPath, splitAbsolute } from './origin.js';
import { decideProxy, type Env, type ProxyDecision } from './proxy.js';
import { redactHeaders, redactUrl, rememberSecret, rememberUrlSecrets } from './redact.js';
import { callOperation, callUnchecked, operationPages, type AnyOperationInput, type CallOptions, type ListOperationId, type RowOf } from './call.js';
import type { OperationInput, OperationOutput } from '../contract/operation-io.js';
import type { OperationId } from '../contract/operations.js';
import type { Page, PaginateOptions } from './paginate.js';
import type { ApiRequest, ApiResponse, QueryValue, Requester } from './request.js';
import type { PutBody, PutOptions, PutResult } from './upload-put.js';
import {
  budgetFor,
  DEFAULT_RETRY,
  isThrottleAnswer,
  isThrottled,
  realRetryDeps,
  runWithRetry,
  SendBudget,
  type AttemptOutcome,
  type RetryDeps,
  type RetryPolicy,
} from './retry.js';
import { codeOf, TransportError, type Transport, type TransportResponse } from './transport.js';

export type { ApiRequest, ApiResponse, QueryValue, Requester } from './request.js';

/** What a caller gives the upload PUT; the User-Agent and the proxy variables are the client's. */
export type UploadPutOptions = Omit<PutOptions, 'userAgent' | 'env' | 'pooled'> & {
  /** Shared by every PUT to one upload URL (client.sendBudget()). */
  sends?: SendBudget;
  /** Told before each resend: why the last attempt failed, and which attempt comes (of how many at most). */
  onResend?: (why: string, attempt: number, maxAttempts: number) => void;
};

/** A wait before a retry, for the person (the context prints it on stderr). */
export interface RetryWait {
  method: string;
  /** Redacted. */
  url: string;
  /** The attempt that failed (1-based) and the most that will be made. */
  attempt: number;
  delayMs: number;
  /** Time spent on this request so far, waits included. */
  elapsedMs: number;
  /** '429 rate_limited', '502 provider_error', 'connection failure', ... */
  reason: string;
  /** The answer said "slow down" (429 or a provider's rate-limit error). */
  throttled: boolean;
  /** From the answer's `provider` field, when it names one. */
  provider?: string;
}

export interface ClientConfig {
  baseUrl: string;
  apiKey?: string;
  userAgent: string;
  connectTimeoutMs?: number;
  /** Idle bound on one attempt: fail when no byte moves either way for this long (default 30 s). */
  requestTimeoutMs?: number;
  retry?: RetryPolicy;
  /** Receives --debug trace lines (already redacted). */
  trace?: (line: string) => void;
  /** Told about each wait before a retry (the context shows throttling waits on stderr). */
  onRetryWait?: (wait: RetryWait) => void;
  deps?: RetryDeps;
  /** Where requests go; the process-wide node:http transport when absent. */
  transport?: Transport;
  /** The proxy variables (HTTPS_PROXY, NO_PROXY, ...); process.env when absent. */
  env?: Env;
  /** The most an answer read whole may hold (MAX_ANSWER_BYTES when absent). */
  maxAnswerBytes?: number;
}

// One transport per process unless injected: its keep-alive agents are shared.
let defaultTransport: Transport | undefined;
const sharedTransport = (): Transport => (defaultTransport ??= nodeTransport());

/** Close the shared transport's idle connections (the runner calls it before exiting). */
export async function closeAllPools(): Promise<void> {
  const t = defaultTransport;
  defaultTransport = undefined;
  await t?.close();
}

const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

export class ApiClient implements Requester {
  readonly baseUrl: URL;
  private readonly config: ClientConfig;
  private readonly apiKey: string | undefined;
  private readonly retry: RetryPolicy;
  private readonly deps: RetryDeps;
  private readonly transport: Transport;
  /**
   * The proxy decision per origin (#27): reading and parsing the environment cost ~25 µs on every
   * request of a bulk run. A client reads one environment (config.env, else process.env) and a run
   * does not change it under itself. A refused setting (ProxySettingError) is not kept, so
   * every request still fails with it.
   */
  private readonly proxyDecisions = new Map<string, ProxyDecision>();

  constructor(config: ClientConfig) {
    this.baseUrl = checkBaseUrl(config.baseUrl);
    this.config = config;
    // Last line of defence for callers that built a key themselves.
    this.apiKey = normalizeApiKey(config.apiKey, 'the client configuration');
    rememberSecret(this.apiKey);
    this.retry = config.retry ?? DEFAULT_RETRY;
    this.deps = config.deps ?? realRetryDeps;
    this.transport = config.transport ?? sharedTransport();
  }

  /** Where a request goes, and whether it is our origin (the only one that gets the key). */
  private proxyDecision(origin: string): ProxyDecision {
    let d = this.proxyDecisions.get(origin);
    if (!d) {
      d = decideProxy(origin, this.config.env ?? process.env);
      this.proxyDecisions.set(origin, d);
    }
    return d;
  }

  private target(req: ApiRequest): { origin: string; path: string; own: boolean } {
    const absolute = req.url ?? (/^[a-z][a-z0-9+.-]*:/i.test(req.path) ? req.path : undefined);
    if (absolute !== undefined) {
      const { origin, path } = splitAbsolute(absolute);
      return { origin, path: path + queryString(req.query, path.includes('?')), own: origin === this.baseUrl.origin };
    }
    const path = joinPath(this.baseUrl, req.path) + queryString(req.query, req.path.includes('?'));
    return { origin: this.baseUrl.origin, path, own: true };
  }

  /**
   * A budget for a request a flow sends more than once (a change in doubt
   * resent with its Idempotency-Key): pass it with every send, and stop when
   * `left()` is false. The client's own retries draw from it too.
   */
  sendBudget(retry?: Partial<RetryPolicy>): SendBudget {
    return new SendBudget({ ...this.retry, ...retry }, this.deps.now);
  }

  /**
   * PUT an upload's bytes to the URL the service returned (./upload-send.ts):
   * never the key, no redirects followed, through the proxy its origin's
   * variables name, retried under the one policy. The URL's token is never shown.
   */
  async putUpload(url: string, open: () => PutBody, opts: UploadPutOptions): Promise<PutResult> {
    const { sendUpload } = await import('./upload-send.js');
    const shown = `${redactUrl(originOf(url))}/… (upload URL)`;
    const policy: RetryPolicy = this.retry;
    const pooled = this.transport.pooledAgent?.bind(this.transport);
    return sendUpload(url, open, {
      ...opts,
      userAgent: this.config.userAgent,
      env: this.config.env ?? process.env,
      ...(pooled ? { pooled } : {}),
      policy,
      deps: this.deps,
      onRetry: ({ attempt, delayMs, outcome, elapsedMs }) => {
        const throttled = isThrottled(outcome);
        this.config.trace?.(`   retry PUT ${shown} ${attempt + 1} in ${delayMs} ms after ${describe(outcome)}`);
        this.config.onRetryWait?.({ method: 'PUT', url: shown, attempt, delayMs, elapsedMs, reason: describe(outcome), throttled });
      },
    });
  }

  /** Call an operation of the table by id: its typed input in, its 2xx body out (ApiError / NetworkError otherwise). */
  call<Id extends OperationId>(id: Id, input: OperationInput<Id>, opts?: CallOptions): Promise<OperationOutput<Id>> {
    return callOperation(this, id, input, opts);
  }

  /**
   * Call an operation with a body as the user wrote it (a file, a CSV row): the
   * service checks it, so it is not typed against the schema here.
   */
  callUnchecked<Id extends OperationId>(id: Id, input: AnyOperationInput, opts?: CallOptions): Promise<OperationOutput<Id>> {
    return callUnchecked(this, id, input, opts);
  }

  /** The pages of a list operation, through the one paginator (repeated-cursor guard, Ctrl-C, max, resume cursor). */
  pages<Id extends ListOperationId>(
    id: Id,
    input: OperationInput<Id>,
    opts: CallOptions & PaginateOptions = {},
  ): AsyncGenerator<Page<RowOf<Id>>, void, undefined> {
    return operationPages(this, id, input, opts);
  }

  /** Send a request; resolve on 2xx, throw ApiError / NetworkError otherwise (after retries). */
  async request<T = unknown>(req: ApiRequest): Promise<ApiResponse<T>> {
    // Ctrl-C already pressed: send nothing.
    req.signal?.throwIfAborted();
    const method = req.method.toUpperCase();
    const { origin, path, own } = this.target(req);
    rememberUrlSecrets(path);
    const shownUrl = redactUrl(origin + path);
    const headers: Record<string, string> = { 'user-agent': this.config.userAgent, accept: 'application/json' };
    for (const [name, value] of Object.entries(req.headers ?? {})) {
      // Credentials come from the configuration only, never from a caller (and never leave our origin).
      if (!CREDENTIAL_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
    }
    if (own && this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    if (req.json !== undefined) headers['content-type'] = 'application/json';
    else if (req.body && req.contentType) headers['content-type'] = req.contentType;
    if (req.body && req.contentLength !== undefined) headers['content-length'] = String(req.contentLength);
    const trace = this.config.trace;
    // Each origin its own decision (an upload URL may be another host); only the masked proxy URL is ever shown.
    const route = this.proxyDecision(origin);
    const proxy = route.kind === 'proxy' ? route.route : undefined;
    const policy: RetryPolicy = { ...this.retry, ...req.retry };
    const idleTimeoutMs = req.idleTimeoutMs ?? this.config.requestTimeoutMs ?? 30_000;
    type Attempt = { response?: ApiResponse<T>; error?: NetworkError };
    let lastProvider: string | undefined;
    let notJson: string | undefined;

    const { result, attempts, gaveUp, elapsedMs } = await runWithRetry<Attempt>({
      method,
      policy,
      deps: this.deps,
      ...(req.signal ? { signal: req.signal } : {}),
      ...(req.gate ? { gate: req.gate } : {}),
      ...(req.sends ? { sends: req.sends } : {}),
      onRetry: ({ attempt, delayMs, outcome, elapsedMs: spent }) => {
        const throttled = isThrottled(outcome);
        const max = throttled ? (policy.throttle?.maxAttempts ?? 6) : policy.maxAttempts;
        trace?.(`   retry ${attempt + 1}/${max} in ${delayMs} ms after ${describe(outcome)}`);
        this.config.onRetryWait?.({
          method,
          url: shownUrl,
          attempt,
          delayMs,
          elapsedMs: spent,
          reason: describe(outcome),
          throttled,
          ...(lastProvider ? { provider: lastProvider } : {}),
        });
      },
      attemptFn: async (attempt, remainingMs) => {
        const started = this.deps.now();
        if (attempt === 1) {
          trace?.(`→ ${method} ${shownUrl}`);
          trace?.(`  ${JSON.stringify(redactHeaders(headers))}`);
          if (proxy) trace?.(`  via proxy ${proxy.shown} (from ${proxy.variable})${origin.startsWith('https:') ? ', CONNECT tunnel' : ', forwarded'}`);
          else if (route.kind === 'bypass') trace?.(`  direct, not via the proxy: ${route.reason}`);
        }
        const json = req.json !== undefined ? JSON.stringify(req.json) : undefined;
        const total = json !== undefined ? Buffer.byteLength(json) : req.contentLength;
        // The whole request, retries included, ends at its budget: the attempt in flight too (a trickling answer).
        const deadline = attemptDeadline(
          req.signal,
          remainingMs,
          `no complete answer from ${origin} within the retry budget (${Math.round(budgetFor(policy, false) / 100) / 10} s, --retry-budget)`,
        );
        try {
          const res = await this.transport.send({
            method,
            origin,
            path,
            headers,
            ...(json !== undefined ? { body: json } : req.body ? { body: req.body() } : {}),
            signal: deadline.signal,
            idleTimeoutMs,
            connectTimeoutMs: this.config.connectTimeoutMs ?? 10_000,
            ...(req.onProgress ? { onProgress: (n: number) => req.onProgress!(n, total) } : {}),
            ...(proxy ? { proxy } : {}),
          });
          const ok = res.status >= 200 && res.status < 300;
          const contentType = String(res.headers['content-type'] ?? '');
          const parsed =
            ok && req.sink
              ? { body: await drainTo(res, req.sink()), json: true }
              : parseBody(await this.readAnswer(res, method, shownUrl, req.path), contentType);
          const body = parsed.body;
          // A 2xx from our origin that is not JSON came from something other than the service (a captive
          // portal, a misrouted base URL). Another origin (an upload URL's store) may answer as it likes.
          if (ok && own && !parsed.json) notJson = contentType;
          trace?.(`← ${res.status} ${method} ${shownUrl} ${this.deps.now() - started} ms (attempt ${attempt})`);
          const response: ApiResponse<T> = { status: res.status, headers: res.headers, body: body as T, attempts: attempt };
          const code = errorField(body, 'error');
          lastProvider = errorField(body, 'provider');
          const retryAfter = res.headers['retry-after'];
          const outcome: AttemptOutcome = {
            kind: 'response',
            status: res.status,
            ...(code !== undefined ? { code } : {}),
            retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
            ...(isThrottleAnswer(res.status, body) ? { throttled: true } : {}),
          };
          return { outcome, result: { response } };
        } catch (caught) {
          if (req.signal?.aborted) throw req.signal.reason ?? caught;
          // Past the deadline, whatever broke first (the socket, the body) is the deadline's doing.
          const err: unknown = deadline.signal.aborted ? deadline.signal.reason : caught;
          // Not a network failure (a body source that cannot be read, a bad header): not retried.
          if (!(err instanceof TransportError) && !isStreamCut(err)) throw err;
          const e =
            err instanceof TransportError
              ? err
              : new TransportError(`connection to ${origin} was cut before the answer ended`, 'lost', true, 'ECONNRESET', { cause: err });
          trace?.(`✗ ${method} ${shownUrl} ${e.message} (attempt ${attempt})`);
          const error = new NetworkError(e.message, e.kind, e.sent, method, req.path, attempt, { cause: err });
          return { outcome: { kind: 'network', sent: e.sent }, result: { error } };
        } finally {
          deadline.clear();
        }
      },
    });

    if (gaveUp) trace?.(`   giving up: ${gaveUp}`);
    if (result.error) {
      const e = result.error;
      throw new NetworkError(e.message + (attempts > 1 ? ` after ${attempts} attempts` : ''), e.kind, e.sent, method, req.path, attempts, { cause: e.cause });
    }
    const response = result.response!;
    if (response.status >= 200 && response.status < 300) {
      if (notJson !== undefined) throw unexpectedAnswer(response.status, notJson, method, shownUrl, req.path);
      return response;
    }
    if (response.status >= 300 && response.status < 400) {
      const location = String(response.headers.location ?? '');
      throw new ApiError({
        status: response.status,
        body: {
          error: 'redirect_refused',
          message: `the service redirected to ${redactUrl(location) || 'another place'}; adops does not follow redirects (the key goes only to the configured base URL)`,
        },
        method,
        path: req.path,
      });
    }
    const throttled = isThrottleAnswer(response.status, response.body);
    throw new ApiError({
      status: response.status,
      body: response.body,
      method,
      path: req.path,
      ...(gaveUp ? { retriedFor: { attempts, elapsedMs, throttled } } : {}),
    });
  }
  /** The body as text, capped (past the cap: unexpected_answer, exit 1, nothing more read). */
  private async readAnswer(res: TransportResponse, method: string, shownUrl: string, path: string): Promise<string> {
    try {
      return await readCapped(res, this.config.maxAnswerBytes ?? MAX_ANSWER_BYTES);
    } catch (err) {
      if (!(err instanceof AnswerTooLargeError)) throw err;
      throw new ApiError({
        status: res.status,
        body: {
          error: 'unexpected_answer',
          message: `unexpected answer to ${method} ${shownUrl}: ${err.message} (${Math.round(err.limitBytes / 1048576)} MiB), so not the service's answer; check the base URL`,
        },
        method,
        path,
      });
    }
  }
}

/** 'https://storage.example' of a URL, or what precedes its path when it does not parse. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#]*).*$/is, '$1');
  }
}

function errorField(body: unknown, name: string): string | undefined {
  const v: unknown = body && typeof body === 'object' ? Object.getOwnPropertyDescriptor(body, name)?.value : undefined;
  return typeof v === 'string' ? v : undefined;
}

function isStreamCut(err: unknown): boolean {
  const code = codeOf(err);
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (err instanceof Error && err.message === 'aborted');
}

async function drainTo(res: TransportResponse, sink: Writable): Promise<undefined> {
  await pipeline(res.body, sink);
  return undefined;
}

function describe(outcome: AttemptOutcome): string {
  return outcome.kind === 'response' ? `${outcome.status}${outcome.code ? ` ${outcome.code}` : ''}` : outcome.sent ? 'lost answer' : 'connection failure';
}

function queryString(query: Record<string, QueryValue> | undefined, hasQuery = false): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = params.toString();
  return text ? (hasQuery ? '&' : '?') + text : '';
}

/** The body as JSON when it is JSON (whatever the Content-Type claims), else the text; empty is undefined. */
function parseBody(text: string, contentType: string): { body: unknown; json: boolean } {
  if (text === '') return { body: undefined, json: true };
  if (contentType.includes('json') || /^[[{]/.test(text.trimStart())) {
    try {
      return { body: JSON.parse(text), json: true };
    } catch {
      return { body: text, json: false };
    }
  }
  return { body: text, json: false };
}

/** Exit 1, never success: a 2xx whose body is not JSON is not the service's answer, so nothing it "confirms" happened. */
function unexpectedAnswer(status: number, contentType: string, method: string, shownUrl: string, path: string): ApiError {
  // The header is server text: keep only what a media type is made of.
  const type =
    contentType
      .split(';')[0]!
      .trim()
      .replace(/[^\w.+/-]/g, '')
      .slice(0, 60) || 'no Content-Type';
  return new ApiError({
    status,
    body: {
      error: 'unexpected_answer',
      message: `unexpected answer (${type}) to ${method} ${shownUrl}: a ${status} whose body is not JSON, so not the service's answer; check the base URL (a captive portal, proxy or another server may be answering)`,
    },
    method,
    path,
  });
}
