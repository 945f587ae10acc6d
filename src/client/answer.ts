// Reading an answer's body, bounded in size and in time. Every answer adops
// reads whole (a JSON body, a page of a list) is capped: the largest page the
// contract allows is 500 rows, a few MiB at most, so MAX_ANSWER_BYTES (64 MiB)
// is far above any real answer and far below what would hurt: past it the
// answer is not the service's (a misrouted base URL, a hostile server), the
// connection is dropped, and memory stays bounded (issue 25: a 400 MB answer
// took 2.6 GB, a 600 MiB one broke the string limit). The deadline is the
// request's retry budget: an answer trickling one byte a second ends there.
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
 * A signal that aborts at the request's deadline (`remainingMs` from now), or
 * with `outer` (Ctrl-C). Its reason at the deadline is a TransportError the
 * client reports as a timeout (exit 6). `clear` when the attempt is over.
 */
export function attemptDeadline(outer: AbortSignal | undefined, remainingMs: number, why: string): { signal: AbortSignal; clear: () => void } {
  const ac = new AbortController();
  // `sent`: the request may have reached the server (a POST is then in doubt, never resent blindly).
  const timer = setTimeout(() => ac.abort(new TransportError(why, 'timeout', true, 'EDEADLINE')), Math.max(0, remainingMs));
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
