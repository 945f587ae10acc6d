// The seam between the client and the network (gh's http.RoundTripper): one
// exchange, no retries, no auth, no JSON. The command context injects it, so
// tests pass an in-process stub registry (test/helpers/http-stub.ts) and the
// CLI the node:http transport (./node-transport.ts).
import type { Readable } from 'node:stream';
import type { ProxyRoute } from './proxy.js';

export interface TransportRequest {
  method: string;
  /** 'https://api.example.com': scheme, host and port only. */
  origin: string;
  /** Sent exactly as given (never re-parsed: '%2E%2E' must stay encoded). */
  path: string;
  headers: Record<string, string>;
  /** Opened for this attempt; a Readable is streamed (chunked unless content-length is set). */
  body?: Readable | Buffer | string;
  /** Aborts the exchange (Ctrl-C); the reason is what the transport rejects with. */
  signal?: AbortSignal;
  /** Fail when no byte moves either way for this long (not a whole-request bound). */
  idleTimeoutMs?: number;
  /** Bound on opening the connection. */
  connectTimeoutMs?: number;
  /** Bytes of the body handed to the socket so far. */
  onProgress?: (sentBytes: number) => void;
  /** The proxy this origin goes through (./proxy.ts decided); absent: direct. */
  proxy?: ProxyRoute;
  /**
   * The request's deadline, given to a transport that keeps it itself (Transport.keepsDeadlines):
   * `ms` from now (none past what a timer holds) the exchange fails with `error()`, whatever
   * stage it is at, its answer's body included.
   */
  deadline?: { ms: number; error: () => Error };
}

export interface TransportResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as it arrives; read it to the end (or destroy it) to free the connection. */
  body: AsyncIterable<Buffer | Uint8Array> & { destroy?: (err?: Error) => void };
}

export type TransportFailureKind = 'connect' | 'timeout' | 'lost';

/** The exchange failed without a usable answer. `sent`: the request may have reached the server. */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  constructor(
    message: string,
    readonly kind: TransportFailureKind,
    readonly sent: boolean,
    readonly code?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface Transport {
  send(req: TransportRequest): Promise<TransportResponse>;
  /**
   * The keep-alive agent this transport pools direct connections of a scheme in, for a caller that
   * writes its own request on them (the upload PUT, ./upload-put.ts). Absent in a transport that
   * has none (a test's stub): the PUT then opens a connection of its own.
   */
  pooledAgent?(protocol: 'http:' | 'https:'): Promise<import('node:http').Agent>;
  /** Drop idle keep-alive connections (the runner calls it before exiting). */
  close(): Promise<void>;
  /**
   * Keeps TransportRequest.deadline with a timer of its own: the client then makes no
   * AbortController per attempt (#37: with its listeners, ~25 µs of CPU per request, a sixth of
   * what a bulk run's request costs the client). A transport without it (a test's stub) is given
   * a signal that aborts at the deadline instead.
   */
  readonly keepsDeadlines?: boolean;
}

/** Errors meaning the connection never carried the request (a refused certificate is one too: certificateError). */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

// TLS verification failures: the certificate was refused, so sending again cannot help.
const CERTIFICATE_CODES = new Set([
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
]);

/** A host's TLS certificate was refused: not retried, exit 6, with how to trust a private CA. */
export class TlsCertificateError extends Error {
  override readonly name = 'TlsCertificateError';
  constructor(
    message: string,
    readonly host: string,
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The failure as a TlsCertificateError naming `host` when it is a refused certificate, else undefined. */
export function certificateError(err: unknown, host: string): TlsCertificateError | undefined {
  if (err instanceof TlsCertificateError) return err;
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = codeOf(e);
    if (code !== undefined && CERTIFICATE_CODES.has(code)) {
      const why = e instanceof Error && e.message ? `: ${e.message}` : '';
      return new TlsCertificateError(`the TLS certificate of ${host} was refused (${code}${why})`, host, code, { cause: err });
    }
    e = causeOf(e);
  }
  return undefined;
}

/** An error's `code` (Node's errno codes, a transport's), when it has a string one. */
export function codeOf(err: unknown): string | undefined {
  if (err === null || typeof err !== 'object' || !('code' in err)) return undefined;
  return typeof err.code === 'string' ? err.code : undefined;
}

/** An error's `cause`, if any. */
export function causeOf(err: unknown): unknown {
  return err !== null && typeof err === 'object' && 'cause' in err ? err.cause : undefined;
}
