// The one paginator (AWS CLI style): follows `nextCursor` page by page for
// every list command and flow. It never holds more than a page, stops at
// `max` rows exactly (asking for no more than remain, so the next cursor
// resumes precisely), checks Ctrl-C before each page, refuses a cursor the
// service already gave (a loop would page forever), and tags a failure after
// the first page with the cursor to resume from.
import { CliError } from '../cli/errors.js';
import { EXIT } from '../cli/exit-codes.js';
import type { ApiClient, ApiRequest } from './http.js';

export interface PaginateOptions {
  /** `limit` sent with each page (the service's default when absent). */
  pageSize?: number;
  /** Stop after this many rows in all. */
  max?: number;
  /** Start here instead of the first page (a resume). */
  cursor?: string;
  signal?: AbortSignal;
}

export interface Page<T> {
  rows: T[];
  /** The cursor this page was asked with (undefined: the first page). */
  cursor: string | undefined;
  /** Where the next page starts; undefined on the last page. */
  nextCursor: string | undefined;
  /** Rows yielded so far, this page included. */
  rowsSoFar: number;
  /** The whole answer (lists may carry more than data and nextCursor). */
  body: Record<string, unknown>;
}

/** The service sent a cursor it had already sent: following it would loop. */
export class RepeatedCursorError extends CliError {
  override readonly name = 'RepeatedCursorError';
  constructor(readonly cursor: string, readonly path: string) {
    super(`the service repeated a cursor while paging ${path}; stopped instead of looping`, EXIT.unexpected, 'the rows printed so far are complete up to here; this is a fault of the service to report', 'repeated_cursor');
  }
}

/** Where a stopped list resumes from; the report prints it (`--cursor`). */
export function withResumeCursor<E>(err: E, cursor: string): E {
  if (err && typeof err === 'object' && !(err as { resumeCursor?: unknown }).resumeCursor) (err as { resumeCursor?: string }).resumeCursor = cursor;
  return err;
}

export async function* paginate<T = Record<string, unknown>>(client: ApiClient, req: ApiRequest, opts: PaginateOptions = {}): AsyncGenerator<Page<T>, void, undefined> {
  let cursor = opts.cursor ?? (typeof req.query?.cursor === 'string' ? req.query.cursor : undefined);
  const seen = new Set<string>(cursor ? [cursor] : []);
  const signal = opts.signal ?? req.signal;
  let rowsSoFar = 0;
  for (;;) {
    signal?.throwIfAborted();
    const remaining = opts.max !== undefined ? opts.max - rowsSoFar : undefined;
    if (remaining !== undefined && remaining <= 0) return;
    const limit = remaining !== undefined ? Math.min(opts.pageSize ?? remaining, remaining) : opts.pageSize;
    let body: Record<string, unknown>;
    try {
      const res = await client.request<Record<string, unknown>>({
        ...req,
        query: { ...req.query, cursor, ...(limit !== undefined ? { limit } : {}) },
        ...(signal ? { signal } : {}),
      });
      body = res.body && typeof res.body === 'object' ? res.body : {};
    } catch (err) {
      // The page that did not arrive is where a rerun starts.
      throw cursor ? withResumeCursor(err, cursor) : err;
    }
    const rows = Array.isArray(body.data) ? (body.data as T[]) : [];
    const next = typeof body.nextCursor === 'string' && body.nextCursor !== '' ? body.nextCursor : undefined;
    if (next !== undefined && seen.has(next)) throw new RepeatedCursorError(next, req.path);
    if (next !== undefined) seen.add(next);
    rowsSoFar += rows.length;
    yield { rows, cursor, nextCursor: next, rowsSoFar, body };
    if (next === undefined) return;
    cursor = next;
  }
}
