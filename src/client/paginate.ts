// Lists page by `nextCursor`. An async iterator over pages keeps memory flat:
// the caller writes each page out before the next is fetched.
import type { ApiClient, ApiRequest } from './http.js';

export interface Page<Row = Record<string, unknown>> {
  data: Row[];
  nextCursor?: string;
  /** The whole answer, unknown fields included. */
  raw: Record<string, unknown>;
}

export interface PageOptions {
  /** Follow nextCursor to the end; otherwise stop after one page. */
  all: boolean;
  /** Stop after this many rows in total (undefined: no cap beyond `all`). */
  maxRows?: number;
}

export async function* pages<Row = Record<string, unknown>>(
  client: ApiClient,
  req: ApiRequest,
  opts: PageOptions,
): AsyncGenerator<Page<Row>, void, undefined> {
  let cursor = req.query?.cursor as string | undefined;
  for (;;) {
    const res = await client.request<Record<string, unknown>>({ ...req, query: { ...req.query, cursor } });
    const raw = res.body && typeof res.body === 'object' ? res.body : {};
    const data = Array.isArray(raw.data) ? (raw.data as Row[]) : [];
    const nextCursor = typeof raw.nextCursor === 'string' && raw.nextCursor !== '' ? raw.nextCursor : undefined;
    yield { data, raw, ...(nextCursor ? { nextCursor } : {}) };
    if (!opts.all || !nextCursor) return;
    cursor = nextCursor;
  }
}
