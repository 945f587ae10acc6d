// The seam between the client and the network (gh's http.RoundTripper): one
// exchange, no retries, no auth, no JSON. The command context injects it, so
// tests pass an in-process stub registry (test/helpers/http-stub.ts) and the
// CLI the node:http transport (./node-transport.ts).
import type { Readable } from 'node:stream';

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
  /** Drop idle keep-alive connections (the runner calls it before exiting). */
  close(): Promise<void>;
}
