// The HTTP client: an injected Transport (node:http by default, a stub
// registry in tests), our own retry policy around it, typed errors, and a
// redacted --debug trace. Bodies are passed through untouched (no schema
// validation: the real service may send fields the sandbox does not).
//
// The key goes to the configured origin only: a request for any other origin
// (an upload URL the service returned) is sent with no Authorization header,
// whatever the caller passed, so every caller is covered.
import { ANSWER_TABLE, type AnswerTable } from '../contract/errors.js';
import { normalizeApiKey } from '../config/key.js';
import { MAX_ANSWER_BYTES } from './answer.js';
import { sendAttempt, type AttemptIO, type Attempted } from './attempt.js';
import { requestHeaders, type Exchange } from './exchange.js';
import { nodeTransport } from './node-transport.js';
import { checkBaseUrl, joinPath, splitAbsolute } from './origin.js';
import { decideProxy, type Env, type ProxyDecision, type ProxyRoute } from './proxy.js';
import { redactUrl, rememberSecret, rememberUrlSecrets } from './redact.js';
import { callOperation, callUnchecked, operationPages, type AnyOperationInput, type CallOptions, type ListOperationId, type RowOf } from './call.js';
import type { OperationInput, OperationOutput } from '../contract/operation-io.js';
import type { OperationId } from '../contract/operations.js';
import type { Page, PaginateOptions } from './paginate.js';
import type { ApiRequest, ApiResponse, QueryValue, Requester } from './request.js';
import type { PutBody, PutOptions, PutResult } from './upload-put.js';
import {
  DEFAULT_RETRY,
  isThrottled,
  realRetryDeps,
  runWithRetry,
  SendBudget,
  type AttemptOutcome,
  type RetryDeps,
  type RetryInfo,
  type RetryPolicy,
} from './retry.js';
import type { Transport } from './transport.js';
import { verdict } from './verdict.js';

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
  /** The answer table the retry policy and the throttle detector read (the contract's when absent; a test passes a changed copy). */
  answers?: AnswerTable;
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
  /** What every attempt is lent: the same for each request of the client (#37: not an object a request). */
  private readonly io: AttemptIO;

  constructor(config: ClientConfig) {
    this.baseUrl = checkBaseUrl(config.baseUrl);
    this.config = config;
    // Last line of defence for callers that built a key themselves.
    this.apiKey = normalizeApiKey(config.apiKey, 'the client configuration');
    rememberSecret(this.apiKey);
    this.retry = config.retry ?? DEFAULT_RETRY;
    this.deps = config.deps ?? realRetryDeps;
    this.transport = config.transport ?? sharedTransport();
    this.io = {
      transport: this.transport,
      now: this.deps.now,
      trace: config.trace,
      connectTimeoutMs: config.connectTimeoutMs ?? 10_000,
      maxAnswerBytes: config.maxAnswerBytes ?? MAX_ANSWER_BYTES,
    };
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
    return new SendBudget(retry ? { ...this.retry, ...retry } : this.retry, this.deps.now);
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
        const throttled = isThrottled(outcome, this.config.answers);
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
    const ex = this.exchange(req);
    const io = this.io;
    const run = await runWithRetry<Attempted<T>>({
      method: ex.method,
      policy: ex.policy,
      deps: this.deps,
      table: ex.table,
      signal: req.signal,
      gate: req.gate,
      sends: req.sends,
      onRetry: (info) => this.announceRetry(ex, info),
      attemptFn: (attempt, remainingMs) => sendAttempt<T>(ex, io, attempt, remainingMs),
    });
    if (run.gaveUp) this.config.trace?.(`   giving up: ${run.gaveUp}`);
    return verdict(run, ex);
  }

  /** The request as every attempt sends it: target, headers, route, policy. */
  private exchange(req: ApiRequest): Exchange {
    const { origin, path, own } = this.target(req);
    rememberUrlSecrets(path);
    const headers = requestHeaders(req, own, this.config.userAgent, this.apiKey);
    // Each origin its own decision (an upload URL may be another host).
    const route = this.proxyDecision(origin);
    return new SentExchange(
      req,
      origin,
      path,
      own,
      headers,
      route,
      // The client's own policy object when the request changes nothing of it (#37: one spread per request of a bulk run).
      req.retry ? { ...this.retry, ...req.retry } : this.retry,
      this.config.answers ?? ANSWER_TABLE,
      req.idleTimeoutMs ?? this.config.requestTimeoutMs ?? 30_000,
    );
  }

  /** A wait before a retry: a --debug line, and the note the context shows the person. */
  private announceRetry(ex: Exchange, { attempt, delayMs, outcome, elapsedMs }: RetryInfo): void {
    const throttled = isThrottled(outcome, ex.table);
    const max = throttled ? (ex.policy.throttle?.maxAttempts ?? 6) : ex.policy.maxAttempts;
    this.config.trace?.(`   retry ${attempt + 1}/${max} in ${delayMs} ms after ${describe(outcome)}`);
    this.config.onRetryWait?.({
      method: ex.method,
      url: ex.shownUrl,
      attempt,
      delayMs,
      elapsedMs,
      reason: describe(outcome),
      throttled,
      ...(ex.lastProvider ? { provider: ex.lastProvider } : {}),
    });
  }
}

/**
 * The Exchange of one request: a class, so its masked URL is a getter of the prototype (#37: an object
 * literal with a getter of its own was made by V8's slow path, once per request of a bulk run).
 */
class SentExchange implements Exchange {
  readonly method: string;
  readonly proxy: ProxyRoute | undefined;
  lastProvider?: string | undefined;
  notJson?: string;
  private shown: string | undefined;

  constructor(
    readonly req: ApiRequest,
    readonly origin: string,
    readonly path: string,
    readonly own: boolean,
    readonly headers: Record<string, string>,
    readonly route: ProxyDecision,
    readonly policy: RetryPolicy,
    readonly table: AnswerTable,
    readonly idleTimeoutMs: number,
  ) {
    this.method = req.method.toUpperCase();
    this.proxy = route.kind === 'proxy' ? route.route : undefined;
  }

  /** Masked when something shows it (a trace, a wait note, an error), not for every request of a bulk run. */
  get shownUrl(): string {
    return (this.shown ??= redactUrl(this.origin + this.path));
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
