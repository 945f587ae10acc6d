// Reading an answer's body, bounded in size and in time. Every answer adops
// reads whole (a JSON body, a page of a list) is capped: the largest page the
// contract allows is 500 rows, a few MiB at most, so MAX_ANSWER_BYTES (64 MiB)
// is far above any real answer and far below what would hurt: past it the
// answer is not the service's (a misrouted base URL, a hostile server), the
// connection is dropped, and memory stays bounded (issue 25: a 400 MB answer
// took 2.6 GB, a 600 MiB one broke the string limit). The deadline is the
// request's retry budget: an answer trickling one byte a second ends there.
import { Readable } from 'node:stream';
import { TransportError, type TransportResponse } from './transport.js';

/** The most an answer read whole may hold. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** The answer is larger than the cap: read no further (not retried: the same server would send it again). */
export class AnswerTooLargeError extends Error {
  override readonly name = 'AnswerTooLargeError';
  constructor(
    readonly limitBytes: number,
    readonly announcedBytes: number | undefined,
  ) {
    super(
      announcedBytes !== undefined
        ? `the answer announced ${announcedBytes} bytes, more than the ${limitBytes} adops reads`
        : `the answer went past the ${limitBytes} bytes adops reads`,
    );
  }
}

/** The body as text, refused past `capBytes` (announced or arriving); the connection is dropped then. */
export async function readCapped(res: TransportResponse, capBytes: number): Promise<string> {
  const announced = Number(String(res.headers['content-length'] ?? ''));
  if (Number.isFinite(announced) && announced > capBytes) {
    const err = new AnswerTooLargeError(capBytes, announced);
    res.body.destroy?.(err);
    throw err;
  }
  if (res.body instanceof Readable) return readStream(res.body, capBytes);
  const chunks: Buffer[] = [];
  let total = 0;
  // Leaving the loop by a throw returns the iterator, which destroys the body (and its connection).
  for await (const chunk of res.body) {
    total += chunk.byteLength;
    if (total > capBytes) throw new AnswerTooLargeError(capBytes, undefined);
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

/**
 * readCapped over a node stream (every answer of the node:http transport): its events, as a bare
 * node:http loop reads, not an async iterator (an iterator, its promises and its end-of-stream
 * watch per answer were ~3% of a bulk run's CPU). The same outcomes: the text at 'end'; the
 * stream's error; a close before the end is a premature close (what the iterator throws); past
 * the cap the body is destroyed.
 */
function readStream(body: Readable, capBytes: number): Promise<string> {
  const premature = () => Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
  // Cut before it was read: no event will come.
  if (body.destroyed) return Promise.reject(body.errored ?? premature());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const settle = (err: Error | undefined) => {
      body.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (err) reject(err);
      else resolve(Buffer.concat(chunks, total).toString('utf8'));
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      total += bytes.byteLength;
      if (total <= capBytes) return void chunks.push(bytes);
      settle(new AnswerTooLargeError(capBytes, undefined));
      body.destroy();
    };
    const onEnd = () => settle(undefined);
    const onError = (err: Error) => settle(err);
    const onClose = () => settle(premature());
    body.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  });
}

/** The longest delay setTimeout keeps (2^31 - 1 ms, about 24.8 days); a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** What an attempt fails with at the request's deadline: a timeout (exit 6); `sent`, so a POST is then in doubt, never resent blindly. */
export const deadlineError = (why: string): TransportError => new TransportError(why, 'timeout', true, 'EDEADLINE');

/**
 * A signal that aborts at the request's deadline (`remainingMs` from now; none when Infinity), or
 * with `outer` (Ctrl-C). Its reason at the deadline is a TransportError the
 * client reports as a timeout (exit 6). `clear` when the attempt is over.
 */
export function attemptDeadline(outer: AbortSignal | undefined, remainingMs: number, why: string): { signal: AbortSignal; clear: () => void } {
  const ac = new AbortController();
  const abort = () => ac.abort(deadlineError(why));
  // No deadline (Infinity, --retry-budget 0), or one past what a timer can hold (Node fires those at once).
  const timer = remainingMs <= MAX_TIMER_MS ? setTimeout(abort, Math.max(0, remainingMs)) : undefined;
  const onOuter = () => ac.abort(outer!.reason);
  if (outer?.aborted) onOuter();
  else outer?.addEventListener('abort', onOuter, { once: true });
  return {
    signal: ac.signal,
    clear: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    },
  };
}
