// Answers for requests node's HTTP parser refuses before any route runs. There
// is no request or response object then, only the socket, so the response is
// written as raw HTTP/1.1 text, in the same `{error, message}` shape as the rest.
import { STATUS_CODES } from 'node:http';
import { invalidRequest } from '../models/errors.js';
import type { ServiceError } from '../models/errors.js';
import { fail } from './errors.js';

/** A node error code → the failure to answer, or null when the peer is gone (nothing to answer). */
export function refusalOf(nodeCode: string | undefined): ServiceError | null {
  switch (nodeCode) {
    case 'ECONNRESET':
    case 'EPIPE':
      return null;
    case 'HPE_HEADER_OVERFLOW':
      return fail('headers_too_large', 'The request headers are larger than the sandbox accepts.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return fail('request_timeout', 'The request did not arrive in time; the connection is closed.');
    default:
      // Bad Content-Length, bad chunk framing, bad request line, invalid header characters, …
      return invalidRequest([{ in: 'headers', path: '', message: 'is not a well-formed HTTP/1.1 request' }], 'The request is malformed at the HTTP level.');
  }
}

export function rawErrorResponse(err: ServiceError): string {
  const body = JSON.stringify(err.toBody());
  return (
    `HTTP/1.1 ${err.status} ${STATUS_CODES[err.status] ?? 'Error'}\r\n` +
    'Content-Type: application/json; charset=UTF-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}
