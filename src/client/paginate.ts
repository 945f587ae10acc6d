// The one paginator (AWS CLI style): follows `nextCursor` page by page for
// every list command and flow. It never holds more than a page, stops at
// `max` rows exactly (asking for no more than remain, so the next cursor
// resumes precisely), checks Ctrl-C before each page, refuses a cursor the
// service already gave and a walk that makes no progress (MAX_EMPTY_PAGES
// empty pages in a row, each with a new cursor: either would page forever),
// and tags a failure after the first page with the cursor to resume from. A
// page is a page (an object whose `data` is a list, its `nextCursor` text)
// for every reader; a flow also names its view, and each page is then checked
// against what the flow reads of it (answer-check.ts): a row's problems throw,
// or come with the page for a flow that judges rows one by one. Its memory
// does not grow with the pages (pages-memory.ts: the loop guard;
// young-generation.ts: V8's young generation; old-generation.ts: its old one).
import type { AnswerViewName } from '../contract/answer-views.js';
import { LIMIT_MAX } from '../contract/ids.js';
import type { OperationId } from '../contract/operations.js';
import { issuesByItem, viewChecker, type AnswerIssue } from '../contract/response-check.js';
import { problemWords, UnexpectedAnswerError } from './answer-check.js';
import { NoProgressError } from './errors.js';
import { isRecord } from './json.js';
import { CursorLoopGuard } from './pages-memory.js';
import { boundOldGeneration } from './old-generation.js';
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
  /** The operation paged (named in an unexpected answer's message). */
  operation?: OperationId | undefined;
  /** What a flow reads of each page: checked before the page is yielded. */
  view?: AnswerViewName | undefined;
  /** A row with problems: fail the walk (default), or `report` them with the page (page.rowIssues). */
  rowIssues?: 'throw' | 'report' | undefined;
  /**
   * The advertiser the list is narrowed to (its path's or its `advertiserId` filter): with a view, a row that
   * names another is a row with a problem (the contract answers that advertiser's rows only).
   */
  advertiserId?: string | undefined;
  /**
   * The caller keeps every row (sync's plan: a map of the ready Assets), so the page in hand is not all that
   * survives a scavenge, which is what holding the generations from the second page rests on: they are left
   * as V8 sizes them (and node:v8, node:perf_hooks and the GC observer unloaded; #37 session 6).
   */
  keepsEveryRow?: boolean | undefined;
}

/** Empty pages in a row, each with a new cursor, before a walk is stopped as making no progress. */
export const MAX_EMPTY_PAGES = 10;

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
  /** With `rowIssues: 'report'`: each row that breaks the view, by its index in `rows` (pointers inside the row). */
  rowIssues?: ReadonlyMap<number, readonly AnswerIssue[]>;
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
  const check = opts.view ? await viewChecker(opts.view) : undefined;
  let rowsSoFar = 0;
  let empty = 0;
  for (;;) {
    signal?.throwIfAborted();
    const remaining = opts.max !== undefined ? opts.max - rowsSoFar : undefined;
    if (remaining !== undefined && remaining <= 0) return;
    // Never more than the contract's largest page (500): `--all --max 600` asks 500, then 100.
    const wanted = remaining !== undefined ? Math.min(opts.pageSize ?? remaining, remaining) : opts.pageSize;
    const limit = wanted !== undefined ? Math.min(wanted, LIMIT_MAX) : undefined;
    let page: Omit<Page<T>, 'rowsSoFar'>;
    try {
      const res = await client.request<unknown>({
        ...req,
        query: { ...req.query, cursor, ...(limit !== undefined ? { limit } : {}) },
        ...(signal ? { signal } : {}),
      });
      page = pageOf<T>(res.body, res.status, cursor, req, opts, check);
      if (page.nextCursor !== undefined) guard.next(page.nextCursor);
      empty = page.rows.length === 0 && page.nextCursor !== undefined ? empty + 1 : 0;
      if (empty >= MAX_EMPTY_PAGES) throw new NoProgressError(empty, req.path);
    } catch (err) {
      // The page that did not arrive (or could not be read) is where a rerun starts.
      throw cursor ? withResumeCursor(err, cursor) : err;
    }
    rowsSoFar += page.rows.length;
    yield { ...page, rowsSoFar };
    if (page.nextCursor === undefined) return;
    // A second page: a walk, maybe a long one.
    if (rowsSoFar === page.rows.length && !opts.keepsEveryRow) await Promise.all([holdYoungGeneration(), boundOldGeneration()]);
    cursor = page.nextCursor;
  }
}

/** Rows that name an advertiser other than the one the list is narrowed to (never echoing it). */
function notAsked(rows: readonly unknown[], advertiserId: string | undefined): AnswerIssue[] {
  if (advertiserId === undefined) return [];
  const out: AnswerIssue[] = [];
  rows.forEach((row, i) => {
    const named: unknown = isRecord(row) ? row.advertiserId : undefined;
    if (typeof named === 'string' && named !== advertiserId) out.push({ pointer: `/data/${i}/advertiserId`, text: 'is not the advertiser asked for' });
  });
  return out;
}

/** The rows of a page: a list, of the type the caller reads it as (client.pages derives it from the contract; a flow checks it with its view). */
const isRowList = <T>(v: unknown): v is T[] => Array.isArray(v);

/**
 * One answer as a page: an object with `data` a list and `nextCursor` text when present (else
 * unexpected_answer: an empty or garbled answer is not an empty list), checked against the flow's view.
 */
function pageOf<T>(
  body: unknown,
  status: number,
  cursor: string | undefined,
  req: ApiRequest,
  opts: PaginateOptions,
  check: ((body: unknown) => AnswerIssue[]) | undefined,
): Omit<Page<T>, 'rowsSoFar'> {
  const fail = (problems: string[]) => new UnexpectedAnswerError(opts.operation ?? { method: req.method, path: req.path }, problems, status);
  if (!isRecord(body)) throw fail([body === undefined || body === '' ? 'the body is empty' : 'the answer: must be an object']);
  const data: unknown = body.data;
  if (!isRowList<T>(data)) throw fail([data === undefined ? 'data: missing' : 'data: not a list']);
  const next: unknown = body.nextCursor;
  if (next !== undefined && next !== null && typeof next !== 'string') throw fail(['nextCursor: not a string']);
  const out: Omit<Page<T>, 'rowsSoFar'> = { rows: data, cursor, nextCursor: typeof next === 'string' && next !== '' ? next : undefined, body };
  if (!check) return out;
  const { items, rest } = issuesByItem([...check(body), ...notAsked(data, opts.advertiserId)], '/data');
  if (rest.length > 0 || (items.size > 0 && opts.rowIssues !== 'report')) {
    throw fail(problemWords([...rest, ...[...items].flatMap(([i, list]) => list.map((x) => ({ ...x, pointer: `/data/${i}${x.pointer}` })))], 'the answer'));
  }
  return items.size > 0 ? { ...out, rowIssues: items } : out;
}
