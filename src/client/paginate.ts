// The one paginator (AWS CLI style): follows `nextCursor` page by page for
// every list command and flow. It never holds more than a page, stops at
// `max` rows exactly (asking for no more than remain, so the next cursor
// resumes precisely), checks Ctrl-C before each page, refuses a cursor the
// service already gave (a loop would page forever), and tags a failure after
// the first page with the cursor to resume from. Its memory does not grow with
// the pages (pages-memory.ts: the loop guard; young-generation.ts: V8's young generation).
import { LIMIT_MAX } from '../contract/ids.js';
import { isRecord } from './json.js';
import { CursorLoopGuard } from './pages-memory.js';
import { holdYoungGeneration } from './young-generation.js';
import type { ApiRequest, Requester } from './request.js';

export interface PaginateOptions {
  /** `limit` sent with each page (the service's default when absent). */
  pageSize?: number | undefined;
  /** Stop after this many rows in all. */
  max?: number | undefined;
  /** Start here instead of the first page (a resume). */
  cursor?: string | undefined;
  signal?: AbortSignal | undefined;
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

/** An error that knows where a stopped list resumes (the report prints it: `--cursor`). */
type Resumable = { resumeCursor?: string };

/** Where a stopped list resumes from; the report prints it (`--cursor`). */
function withResumeCursor<E>(err: E, cursor: string): E {
  if (err !== null && typeof err === 'object') {
    const tagged: Resumable = err;
    tagged.resumeCursor ??= cursor;
  }
  return err;
}

/**
 * The pages of a list request. The rows are typed by the caller (the typed
 * surface, client.pages, derives T from the operation's response schema);
 * they are not validated: the real service may send more than the contract.
 */
export async function* paginate<T = Record<string, unknown>>(
  client: Requester,
  req: ApiRequest,
  opts: PaginateOptions = {},
): AsyncGenerator<Page<T>, void, undefined> {
  let cursor = opts.cursor ?? (typeof req.query?.cursor === 'string' ? req.query.cursor : undefined);
  const guard = new CursorLoopGuard(req.path, cursor);
  const signal = opts.signal ?? req.signal;
  let rowsSoFar = 0;
  for (;;) {
    signal?.throwIfAborted();
    const remaining = opts.max !== undefined ? opts.max - rowsSoFar : undefined;
    if (remaining !== undefined && remaining <= 0) return;
    // Never more than the contract's largest page (500): `--all --max 600` asks 500, then 100.
    const wanted = remaining !== undefined ? Math.min(opts.pageSize ?? remaining, remaining) : opts.pageSize;
    const limit = wanted !== undefined ? Math.min(wanted, LIMIT_MAX) : undefined;
    let body: Record<string, unknown> & { data?: T[] };
    try {
      const res = await client.request<{ data?: T[] }>({
        ...req,
        query: { ...req.query, cursor, ...(limit !== undefined ? { limit } : {}) },
        ...(signal ? { signal } : {}),
      });
      body = isRecord(res.body) ? res.body : {};
    } catch (err) {
      // The page that did not arrive is where a rerun starts.
      throw cursor ? withResumeCursor(err, cursor) : err;
    }
    const rows: T[] = Array.isArray(body.data) ? body.data : [];
    const next = typeof body.nextCursor === 'string' && body.nextCursor !== '' ? body.nextCursor : undefined;
    if (next !== undefined) guard.next(next);
    rowsSoFar += rows.length;
    yield { rows, cursor, nextCursor: next, rowsSoFar, body };
    if (next === undefined) return;
    // A second page: a walk, maybe a long one.
    if (rowsSoFar === rows.length) await holdYoungGeneration();
    cursor = next;
  }
}
