// The one live reader of entities by id (`plans verify`, `mutations apply --preview`/`--undo-file`):
// the entities of one advertiser and type are read with a list narrowed by `ids=` (IDS_PER_READ
// ids a request), never one by one, at most CONCURRENCY reads at a time.
//
// A judgement rests only on checked answers (#34): each page is checked through the caller's view
// with `rowIssues: 'report'`. A live row that breaks what is read, two rows answered for one id, or
// an id left unanswered beside a row whose id cannot be read, is "not comparable" for that id,
// never a row with a field that was not there. Rows of ids not asked count for nothing. A read the
// service refuses for an advertiser (501 live_read_unsupported, 409 provider_not_connected) is that
// group's answer, carrying its code; the other groups go on.
import { problemWords } from '../client/answer-check.js';
import { ApiError } from '../client/errors.js';
import type { Page } from '../client/paginate.js';
import { CONCURRENCY, IDS_PER_READ } from './plan-check-operations.js';
import { batches, runPool } from './pool.js';

/** What the live read answered for one id asked: its one checked row, or why it cannot be judged. */
export type LiveAnswer<T> = { row: T } | { notComparable: string };
/** What one group's read found: an answer by id (an id absent: not answered, so missing), or the service's refusal. */
export type LiveFound<T> = { answers: Map<string, LiveAnswer<T>> } | { failed: { code: string; status: number } };

/** One advertiser's entities of one type: the ids asked, and the checked list narrowed to some of them. */
export interface LiveGroup<T> {
  key: string;
  ids: ReadonlySet<string>;
  pages: (ids: readonly string[]) => AsyncIterable<Page<T>>;
}

/** Answers the service gives for an advertiser it cannot read live: a row, not a failure of the whole check. */
const ROW_CODES = new Set(['live_read_unsupported', 'provider_not_connected']);

/** The rows of one live list narrowed to `ids`, each id's answer judged: one checked row, or not comparable. */
async function readBatch<T extends object>(pages: AsyncIterable<Page<T>>, ids: readonly string[]): Promise<Map<string, LiveAnswer<T>>> {
  const asked = new Set(ids);
  /** Per id asked: its first row (or that row's problems), and how many rows came for it (kept as a count: memory stays flat). */
  const byId = new Map<string, { first: T | string[]; rows: number }>();
  let unreadable = 0;
  for await (const page of pages) {
    for (const [i, row] of page.rows.entries()) {
      const issues = page.rowIssues?.get(i);
      const id = 'id' in row ? row.id : undefined;
      const had = typeof id === 'string' ? byId.get(id) : undefined;
      if (typeof id !== 'string') unreadable++;
      else if (had) had.rows++;
      else if (asked.has(id)) byId.set(id, { first: issues ? problemWords(issues) : row, rows: 1 }); // not asked: counts for nothing
    }
  }
  const answers = new Map<string, LiveAnswer<T>>();
  for (const id of ids) {
    const got = byId.get(id);
    if (got && got.rows > 1) answers.set(id, { notComparable: `not comparable: the live read answered ${got.rows} rows for this id` });
    else if (got && Array.isArray(got.first)) answers.set(id, { notComparable: `not comparable: the live row breaks the contract: ${got.first.join('; ')}` });
    else if (got && !Array.isArray(got.first)) answers.set(id, { row: got.first });
    else if (unreadable > 0) {
      // Not "missing": a row the service answered may be this one.
      answers.set(id, { notComparable: `not comparable: the live read answered ${unreadable} row(s) whose id cannot be read` });
    }
  }
  return answers;
}

/** Every group read live, by its key. */
export async function readLiveGroups<T extends object>(groups: readonly LiveGroup<T>[]): Promise<Map<string, LiveFound<T>>> {
  const found = new Map<string, LiveFound<T>>();
  const reads = groups.flatMap((g) => batches([...g.ids], IDS_PER_READ).map((ids) => ({ g, ids })));
  await runPool(reads, CONCURRENCY, async ({ g, ids }) => {
    const before = found.get(g.key);
    if (before && 'failed' in before) return;
    let answers: Map<string, LiveAnswer<T>>;
    try {
      answers = await readBatch(g.pages(ids), ids);
    } catch (err) {
      if (err instanceof ApiError && ROW_CODES.has(err.code)) {
        found.set(g.key, { failed: { code: err.code, status: err.status } });
        return;
      }
      throw err;
    }
    // A group's batches hold distinct ids (a set), so their answers never overlap.
    const now = found.get(g.key);
    if (now && 'answers' in now) for (const [id, a] of answers) now.answers.set(id, a);
    else if (!now) found.set(g.key, { answers });
  });
  return found;
}
