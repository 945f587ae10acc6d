// The drift flow pages both sides and holds one page of each at a time.
import { describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResponse, QueryValue, Requester } from '../../../src/client/request.js';
import { compareRows, drift, sameValue } from '../../../src/flows/drift.js';

type Row = Record<string, unknown>;
const row = (id: number, over: Row = {}): Row => ({
  id: String(id),
  name: `c${id}`,
  provider: 'provider_a',
  status: 'ACTIVE',
  budget: 10,
  budgetType: 'daily',
  bidStrategy: null,
  ...over,
});

/** A paged service: `live` and `stored` rows, pages of the asked limit; logs each request. */
function fakeClient(live: Row[], stored: Row[], log: string[]): Requester {
  const answer = (rows: Row[], q: Record<string, unknown>) => {
    const ids = typeof q.ids === 'string' ? q.ids.split(',') : undefined;
    const all = ids ? rows.filter((r) => ids.includes(String(r.id))) : rows;
    const from = Number(q.cursor ?? 0);
    const limit = Number(q.limit ?? 100);
    const data = all.slice(from, from + limit);
    return { data, ...(from + limit < all.length ? { nextCursor: String(from + limit) } : {}) };
  };
  return {
    async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
      const q: Record<string, QueryValue> = req.query ?? {};
      const side = req.path.startsWith('/observe/acc_') ? 'live' : 'stored';
      log.push(`${side}${q.ids ? ` ids=${String(q.ids).split(',').length}` : ''} cursor=${String(q.cursor ?? '')}`);
      return { status: 200, headers: {}, body: answer(side === 'live' ? live : stored, q) as T, attempts: 1 };
    },
  };
}

describe('drift flow', () => {
  it('streams: the first page of differences comes before the second live page is asked for; lookups are a page of ids', async () => {
    const live = Array.from({ length: 25 }, (_, i) => row(i, i === 3 ? { status: 'PAUSED' } : {}));
    const stored = [...live.slice(1).map((r) => ({ ...r, status: 'ACTIVE' })), row(99)];
    const log: string[] = [];
    const gen = drift(fakeClient(live, stored, log), {
      advertiserId: 'acc_1',
      level: 'campaigns',
      fields: ['status', 'name', 'budget', 'budgetType'],
      pageSize: 10,
    });
    const first = await gen.next();
    expect(first.value).toEqual([
      { id: '0', name: 'c0', field: 'exists', stored: false, live: true },
      { id: '3', name: 'c3', field: 'status', stored: 'ACTIVE', live: 'PAUSED' },
    ]);
    expect(log).toEqual(['live cursor=', 'stored ids=10 cursor=']);
    const rest: unknown[] = [];
    for await (const page of gen) rest.push(...page);
    expect(rest).toEqual([{ id: '99', name: 'c99', field: 'exists', stored: true, live: false }]);
    expect(log.every((l) => !/ids=(\d+)/.test(l) || Number(/ids=(\d+)/.exec(l)![1]) <= 10)).toBe(true);
  });

  it('compares numbers within rounding and a missing field as null', () => {
    expect(sameValue(0.1 + 0.2, 0.3)).toBe(true);
    expect(sameValue(undefined, null)).toBe(true);
    expect(sameValue(10, 10.01)).toBe(false);
    expect(compareRows(row(1, { budget: 10 }), row(1, { budget: 12, name: 'renamed' }), ['name', 'budget'])).toEqual([
      { id: '1', name: 'renamed', field: 'name', stored: 'c1', live: 'renamed' },
      { id: '1', name: 'renamed', field: 'budget', stored: 10, live: 12 },
    ]);
  });
});
