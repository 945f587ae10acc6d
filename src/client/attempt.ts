// One attempt of a request: send it through the transport, bounded by the
// request's deadline, and read what came back into an outcome the retry policy
// judges: an answer (its status, code, Retry-After, whether it said "slow
// down") or a network failure (whether the request may have been sent).
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AnswerTooLargeError, attemptDeadline, deadlineError, readCapped } from './answer.js';
import { ApiError, NetworkError } from './errors.js';
import { redactHeaders } from './redact.js';
import { budgetFor, isThrottleAnswer, type AttemptOutcome } from './retry.js';
import { codeOf, TransportError, type Transport, type TransportRequest, type TransportResponse } from './transport.js';
import { routeTrace, type Exchange } from './exchange.js';
import type { ApiResponse } from './request.js';

/** What the client lends an attempt. */
export interface AttemptIO {
  transport: Transport;
  now: () => number;
  trace: ((line: string) => void) | undefined;
  connectTimeoutMs: number;
  maxAnswerBytes: number;
}

/** An attempt's result: the answer, or the network failure. */
export interface Attempted<T> {
  response?: ApiResponse<T>;
  error?: NetworkError;
}

/** Send attempt `attempt` of the exchange; `remainingMs`: time left before the request's deadline. */
export async function sendAttempt<T>(
  ex: Exchange,
  io: AttemptIO,
  attempt: number,
  remainingMs: number,
): Promise<{ outcome: AttemptOutcome; result: Attempted<T> }> {
  const started = io.now();
  if (attempt === 1) traceRequest(ex, io.trace);
  // Kept by the transport's own timer when it can (no AbortController per attempt), else by a signal.
  const kept = io.transport.keepsDeadlines === true;
  const deadline = kept ? undefined : attemptDeadline(ex.req.signal, remainingMs, pastBudget(ex));
  const own = kept ? new KeptDeadline(remainingMs, ex) : undefined;
  try {
    const res = await io.transport.send(transportRequest(ex, io, deadline ? deadline.signal : ex.req.signal, own));
    return await readAttemptAnswer<T>(res, ex, io, attempt, started);
  } catch (caught) {
    return lostAttempt(caught, ex, io, attempt, deadline?.signal);
  } finally {
    deadline?.clear();
  }
}

/** The whole request, retries included, ends at its budget: the attempt in flight too (a trickling answer). */
const pastBudget = (ex: Exchange): string =>
  `no complete answer from ${ex.origin} within the retry budget (${Math.round(budgetFor(ex.policy, false) / 100) / 10} s, --retry-budget)`;

/** The deadline a transport keeps itself: its error made only when it is reached (#37 session 6: not two closures per attempt). */
class KeptDeadline {
  constructor(
    readonly ms: number,
    private readonly ex: Exchange,
  ) {}
  error(): Error {
    return deadlineError(pastBudget(this.ex));
  }
}

function traceRequest(ex: Exchange, trace: AttemptIO['trace']): void {
  if (!trace) return;
  trace(`→ ${ex.method} ${ex.shownUrl}`);
  trace(`  ${JSON.stringify(redactHeaders(ex.headers))}`);
  const via = routeTrace(ex.route, ex.origin);
  if (via !== undefined) trace(via);
}

function transportRequest(ex: Exchange, io: AttemptIO, signal: AbortSignal | undefined, deadline: TransportRequest['deadline']): TransportRequest {
  const { req } = ex;
  // Encoded once (#37): its length is the Content-Length, and the transport writes these very bytes.
  const json = req.json !== undefined ? Buffer.from(JSON.stringify(req.json)) : undefined;
  // Members set one by one, only when present (#37: a conditional spread is an object made and copied, per request).
  const out: TransportRequest = {
    method: ex.method,
    origin: ex.origin,
    path: ex.path,
    headers: ex.headers,
    idleTimeoutMs: ex.idleTimeoutMs,
    connectTimeoutMs: io.connectTimeoutMs,
  };
  if (json !== undefined) out.body = json;
  else if (req.body) out.body = req.body();
  if (signal) out.signal = signal;
  if (deadline) out.deadline = deadline;
  const onProgress = req.onProgress;
  if (onProgress) {
    const total = json !== undefined ? json.length : req.contentLength;
    out.onProgress = (n: number) => onProgress(n, total);
  }
  if (ex.proxy) out.proxy = ex.proxy;
  return out;
}

/** The answer read (a 2xx into the request's sink when it has one), and the outcome the policy judges. */
async function readAttemptAnswer<T>(
  res: TransportResponse,
  ex: Exchange,
  io: AttemptIO,
  attempt: number,
  started: number,
): Promise<{ outcome: AttemptOutcome; result: Attempted<T> }> {
  const ok = res.status >= 200 && res.status < 300;
  const contentType = String(res.headers['content-type'] ?? '');
  const sink = ok ? ex.req.sink : undefined;
  const parsed = sink ? { body: await drainTo(res, sink()), json: true } : parseBody(await readAnswer(res, ex, io.maxAnswerBytes), contentType);
  const body = parsed.body;
  // A 2xx from our origin that is not JSON came from something other than the service (a captive
  // portal, a misrouted base URL). Another origin (an upload URL's store) may answer as it likes.
  if (ok && ex.own && !parsed.json) ex.notJson = contentType;
  io.trace?.(`← ${res.status} ${ex.method} ${ex.shownUrl} ${io.now() - started} ms (attempt ${attempt})`);
  const response: ApiResponse<T> = { status: res.status, headers: res.headers, body: body as T, attempts: attempt };
  const record = body !== null && typeof body === 'object';
  const code = record ? errorField(body, 'error') : undefined;
  ex.lastProvider = record ? errorField(body, 'provider') : undefined;
  const retryAfter = res.headers['retry-after'];
  const outcome: AttemptOutcome = { kind: 'response', status: res.status, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter };
  if (code !== undefined) outcome.code = code;
  if (isThrottleAnswer(res.status, body, ex.table)) outcome.throttled = true;
  return { outcome, result: { response } };
}

/** A failure while sending or reading: a network outcome, or rethrown (Ctrl-C, a body source that cannot be read). */
function lostAttempt<T>(
  caught: unknown,
  ex: Exchange,
  io: AttemptIO,
  attempt: number,
  deadline: AbortSignal | undefined,
): { outcome: AttemptOutcome; result: Attempted<T> } {
  if (ex.req.signal?.aborted) throw ex.req.signal.reason ?? caught;
  // Past the deadline, whatever broke first (the socket, the body) is the deadline's doing (a
  // transport keeping the deadline itself fails with the deadline's error in the first place).
  const err: unknown = deadline?.aborted ? deadline.reason : caught;
  // Not a network failure (a body source that cannot be read, a bad header): not retried.
  if (!(err instanceof TransportError) && !isStreamCut(err)) throw err;
  const e =
    err instanceof TransportError
      ? err
      : new TransportError(`connection to ${ex.origin} was cut before the answer ended`, 'lost', true, 'ECONNRESET', { cause: err });
  io.trace?.(`✗ ${ex.method} ${ex.shownUrl} ${e.message} (attempt ${attempt})`);
  const error = new NetworkError(e.message, e.kind, e.sent, ex.method, ex.req.path, attempt, { cause: err });
  return { outcome: { kind: 'network', sent: e.sent }, result: { error } };
}

/** The body as text, capped (past the cap: unexpected_answer, exit 1, nothing more read). */
async function readAnswer(res: TransportResponse, ex: Exchange, capBytes: number): Promise<string> {
  try {
    return await readCapped(res, capBytes);
  } catch (err) {
    if (!(err instanceof AnswerTooLargeError)) throw err;
    throw new ApiError({
      status: res.status,
      body: {
        error: 'unexpected_answer',
        message: `unexpected answer to ${ex.method} ${ex.shownUrl}: ${err.message} (${Math.round(err.limitBytes / 1048576)} MiB), so not the service's answer; check the base URL`,
      },
      method: ex.method,
      path: ex.req.path,
    });
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
