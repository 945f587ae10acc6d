// What one request to the service is, and what comes back: the shapes the
// client, the paginator and the typed operation calls share (types only, so
// those files need not import the client itself).
import type { Writable, Readable } from 'node:stream';
import type { RetryPolicy, SendBudget, ThrottleGate } from './retry.js';

export type QueryValue = string | number | boolean | undefined | null | readonly string[];

export interface ApiRequest {
  method: string;
  /** Path under the base URL, starting with '/'; built with fillPath for user input. */
  path: string;
  /**
   * An absolute URL instead of `path` (e.g. an uploadUrl the service returned).
   * Outside the base URL's origin it is sent without the API key.
   */
  url?: string;
  query?: Record<string, QueryValue>;
  /** A JSON body. */
  json?: unknown;
  /** A streamed body, re-opened from its source on each attempt. */
  body?: () => Readable | string | Buffer;
  /** Sent as Content-Length with a streamed body (otherwise chunked). */
  contentLength?: number;
  contentType?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
  /** Overrides the client's idle timeout for this request (long uploads on slow links). */
  idleTimeoutMs?: number;
  /** Bytes of the body sent so far (per attempt: it restarts at 0 on a retry). */
  onProgress?: (sentBytes: number, totalBytes: number | undefined) => void;
  /** Write a 2xx answer's body here instead of parsing it (the response's body is then undefined). */
  sink?: () => Writable;
  /** Per-request changes to the retry policy (e.g. { maxAttempts: 1 }). */
  retry?: Partial<RetryPolicy>;
  /** Shared with other requests: they wait out each other's throttling (see ThrottleGate). */
  gate?: ThrottleGate;
  /** This request's sends so far, when a flow sends it again (client.sendBudget()); its count and clock go on. */
  sends?: SendBudget;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  attempts: number;
}

/** Anything that sends an ApiRequest (the ApiClient; a stub in tests). */
export interface Requester {
  request<T = unknown>(req: ApiRequest): Promise<ApiResponse<T>>;
}
