// The end of a request, once the retry policy has stopped: the 2xx answer, or
// the error a caller branches on: NetworkError (no usable answer), ApiError (the
// service's failure; a redirect, which adops never follows; a 2xx that is not
// the service's). Each says how long the policy tried when it gave up.
import { ApiError, NetworkError } from './errors.js';
import type { Exchange } from './exchange.js';
import { redactUrl } from './redact.js';
import type { ApiResponse } from './request.js';
import { isThrottleAnswer, type RetryRun } from './retry.js';
import type { Attempted } from './attempt.js';

/** The answer of a run that succeeded; throws the failure of one that did not. */
export function verdict<T>(run: RetryRun<Attempted<T>>, ex: Exchange): ApiResponse<T> {
  const { result, attempts } = run;
  if (result.error) {
    const e = result.error;
    throw new NetworkError(e.message + (attempts > 1 ? ` after ${attempts} attempts` : ''), e.kind, e.sent, ex.method, ex.req.path, attempts, {
      cause: e.cause,
    });
  }
  const response = result.response!;
  if (response.status >= 200 && response.status < 300) {
    if (ex.notJson !== undefined) throw unexpectedAnswer(response.status, ex.notJson, ex);
    return response;
  }
  if (response.status >= 300 && response.status < 400) throw redirectRefused(response, ex);
  const throttled = isThrottleAnswer(response.status, response.body, ex.table);
  throw new ApiError({
    status: response.status,
    body: response.body,
    method: ex.method,
    path: ex.req.path,
    ...(run.gaveUp ? { retriedFor: { attempts, elapsedMs: run.elapsedMs, throttled } } : {}),
  });
}

function redirectRefused(response: ApiResponse<unknown>, ex: Exchange): ApiError {
  const location = String(response.headers.location ?? '');
  return new ApiError({
    status: response.status,
    body: {
      error: 'redirect_refused',
      message: `the service redirected to ${redactUrl(location) || 'another place'}; adops does not follow redirects (the key goes only to the configured base URL)`,
    },
    method: ex.method,
    path: ex.req.path,
  });
}

/** Exit 1, never success: a 2xx whose body is not JSON is not the service's answer, so nothing it "confirms" happened. */
function unexpectedAnswer(status: number, contentType: string, ex: Exchange): ApiError {
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
      message: `unexpected answer (${type}) to ${ex.method} ${ex.shownUrl}: a ${status} whose body is not JSON, so not the service's answer; check the base URL (a captive portal, proxy or another server may be answering)`,
    },
    method: ex.method,
    path: ex.req.path,
  });
}
